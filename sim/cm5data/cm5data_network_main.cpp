// Verilator harness of the emitted CM-5 data network top (cm5data_network). Built per design by
// sim/core/rtl_build.cpp and run as a child process by sim/cm5data/cm5data_rtl.cpp. The harness
// is the leaves: each sends its messages in order, one flit per cycle while it holds credits,
// from the message's inject cycle, and takes every flit at once, returning its credit the next
// cycle (the same leaves as the reference model's).
//
// Input (one record per line):
//   params N W D MAX_CYCLES
//   chip NI                                  (one per chip, in chip order: its port count)
//   msg SRC INJECT_AT NWORDS W0 W1 ...       (hex words: head, data, CRC; each leaf's in order)
//   afd CHIP CYCLE                           (the chip enters all-fall-down mode at CYCLE)
//   slots K                                  (the chips' inputs hold K message slots: D = K
//                                             credits, one per message, taken at its first
//                                             flit; a leaf returns one at a message's last flit)
// Output:
//   tx MSG CYCLE                             (the message's first flit on its leaf link)
//   rx LEAF CYCLE NWORDS W0 W1 ...           (the message's last flit on the leaf link at CYCLE)
//   done CYCLES COMPLETED
//   speed CYCLES SECONDS
//   cnt CHIP v0 v1 ...                       (the router's counters, cnt_sel order, CRC errors last)
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "Vcm5data_network.h"
#include "sim/core/harness_driver.h"
#include "sim/core/harness_io.h"
#include "sim/core/verilator_ports.h"
#include "verilated.h"

using namespace cmnet::vport;
using cmnet::harness::die;

namespace {

struct Msg {
  uint64_t inject_at;
  std::vector<uint32_t> words;
};

struct Leaf {
  std::vector<size_t> queue;
  size_t next = 0;
  int flit = 0;
  int credits = 0;
  bool rx_credit = false;
  int rx_flits = 0, rx_total = 0;
  std::vector<uint32_t> rx_words;
};

}  // namespace

int main(int argc, char** argv) {
  const cmnet::harness::Files io("cm5data harness", argc, argv);
  FILE* in = io.in();
  FILE* out = io.out();
  int N = 0, W = 0, D = 0, slots = 0;
  uint64_t max_cycles = 0;
  std::vector<int> chip_ports;
  std::vector<Msg> msgs;
  std::vector<uint32_t> srcs;
  std::vector<std::pair<int, uint64_t>> afd;
  char kind[16];
  while (std::fscanf(in, "%15s", kind) == 1) {
    if (!std::strcmp(kind, "params")) {
      if (std::fscanf(in, "%d %d %d %" SCNu64, &N, &W, &D, &max_cycles) != 4) die("bad params");
    } else if (!std::strcmp(kind, "slots")) {
      if (std::fscanf(in, "%d", &slots) != 1) die("bad slots");
    } else if (!std::strcmp(kind, "chip")) {
      int ni = 0;
      if (std::fscanf(in, "%d", &ni) != 1) die("bad chip");
      chip_ports.push_back(ni);
    } else if (!std::strcmp(kind, "msg")) {
      Msg m;
      uint32_t src = 0;
      int n = 0;
      if (std::fscanf(in, "%u %" SCNu64 " %d", &src, &m.inject_at, &n) != 3) die("bad msg");
      m.words.resize(static_cast<size_t>(n));
      for (auto& w : m.words)
        if (std::fscanf(in, "%x", &w) != 1) die("bad msg word");
      msgs.push_back(m);
      srcs.push_back(src);
    } else if (!std::strcmp(kind, "afd")) {
      int c = 0;
      uint64_t at = 0;
      if (std::fscanf(in, "%d %" SCNu64, &c, &at) != 2) die("bad afd");
      afd.emplace_back(c, at);
    } else {
      die("unknown record");
    }
  }
  if (N <= 0 || W <= 0) die("missing params");
  const int FPW = 32 / W;
  const uint32_t wmask = W == 32 ? 0xFFFFFFFFu : ((1u << W) - 1u);
  std::vector<Leaf> leaves(static_cast<size_t>(N));
  for (auto& l : leaves) l.credits = D;
  for (size_t i = 0; i < msgs.size(); ++i) leaves.at(srcs[i]).queue.push_back(i);

  // The shared driver: clock, evaluation, time, and an FST trace when CMNET_TRACE names one.
  cmnet::harness::Driver<Vcm5data_network> top(cmnet::harness::Origin::kRun);
  auto tick = [&] { top.tick(); };
  top->clear = 0;
  top->cnt_chip = 0;
  top->cnt_sel = 0;
  top.reset();

  size_t delivered = 0;
  uint64_t cycles = 0;
  bool completed = false;
  const auto t0 = std::chrono::steady_clock::now();
  top.set_time_origin();  // trace windows count from the first cycle of the run
  for (uint64_t t = 0; t < max_cycles; ++t) {
    for (const auto& [c, at] : afd) set_bit(top->afd_mode, c, t >= at);
    top.clock(false);  // the registered outputs of cycle t
    for (int x = 0; x < N; ++x) {
      Leaf& lf = leaves[static_cast<size_t>(x)];
      // Send.
      bool sent = false, head = false;
      uint32_t flit = 0;
      if (lf.next < lf.queue.size() && (lf.credits > 0 || (slots > 0 && lf.flit > 0))) {
        const size_t m = lf.queue[lf.next];
        if (msgs[m].inject_at <= t) {
          head = lf.flit == 0;
          if (head) std::fprintf(out, "tx %zu %" PRIu64 "\n", m, t);
          flit = (msgs[m].words[static_cast<size_t>(lf.flit / FPW)] >> ((lf.flit % FPW) * W)) & wmask;
          sent = true;
          if (++lf.flit == static_cast<int>(msgs[m].words.size()) * FPW) {
            lf.flit = 0;
            ++lf.next;
          }
        }
      }
      set_bit(top->leaf_tx_valid, x, sent);
      set_field(top->leaf_tx_data, x * W, W, flit);
      lf.credits += (get_bit(top->leaf_tx_credit, x) ? 1 : 0) - (sent && (slots == 0 || head) ? 1 : 0);
      // Receive; the credit goes back in the next cycle (slots: at a message's last flit).
      set_bit(top->leaf_rx_credit, x, lf.rx_credit);
      const bool rx = get_bit(top->leaf_rx_valid, x);
      lf.rx_credit = rx && (slots == 0 || (lf.rx_flits > 0 && lf.rx_flits + 1 == lf.rx_total));
      if (rx) {
        const uint32_t f = static_cast<uint32_t>(get_field(top->leaf_rx_data, x * W, W));
        if (lf.rx_flits == 0) {
          lf.rx_total = (static_cast<int>(f & 7u) + 2) * FPW;
          lf.rx_words.assign(static_cast<size_t>(lf.rx_total / FPW), 0);
        }
        lf.rx_words[static_cast<size_t>(lf.rx_flits / FPW)] |= f << ((lf.rx_flits % FPW) * W);
        if (++lf.rx_flits == lf.rx_total) {
          std::fprintf(out, "rx %d %" PRIu64 " %zu", x, t, lf.rx_words.size());
          for (uint32_t w : lf.rx_words) std::fprintf(out, " %x", w);
          std::fprintf(out, "\n");
          lf.rx_flits = 0;
          ++delivered;
        }
      }
    }
    top.eval();
    top.clock(true);
    cycles = t + 1;
    if (delivered == msgs.size()) {
      completed = true;
      break;
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // Let the counters see the last events (they count one cycle late), then read them.
  for (int x = 0; x < N; ++x) {
    set_bit(top->leaf_tx_valid, x, false);
    set_bit(top->leaf_rx_credit, x, leaves[static_cast<size_t>(x)].rx_credit);
  }
  tick();
  for (int x = 0; x < N; ++x) set_bit(top->leaf_rx_credit, x, false);
  for (int k = 0; k < 3; ++k) tick();
  std::fprintf(out, "done %" PRIu64 " %d\n", cycles, completed ? 1 : 0);
  std::fprintf(out, "speed %" PRIu64 " %.6f\n", cycles, secs);
  for (size_t c = 0; c < chip_ports.size(); ++c) {
    std::fprintf(out, "cnt %zu", c);
    for (int s = 0; s < 2 * chip_ports[c] + 2; ++s) {
      top->cnt_chip = static_cast<uint32_t>(c);
      top->cnt_sel = static_cast<uint32_t>(s);
      top.eval();
      std::fprintf(out, " %u", static_cast<unsigned>(top->cnt_value));
    }
    std::fprintf(out, "\n");
  }
  return 0;  // the driver finalizes the model (and closes the trace)
}
