// Verilator harness of the emitted hypercube network of wormhole routers (hcube_network with
// hcube_worm_node). Built per design by sim/core/rtl_build.cpp and run as a child process by
// sim/hcube/hcube_rtl.cpp, on the shared driver (sim/core/harness_driver.h: CMNET_TRACE=F.fst
// writes a trace). The harness is every node's host: it offers the head of each node's message
// queue from the tick after its generation (the model's), streams the bytes each output
// channel's feeder asks for, and reassembles what the nodes eject by incoming dimension (worms
// do not interleave on a channel), from the bytes alone.
//
// Input (one record per line):
//   params NODES N MAX_CYCLES
//   msg SRC DST GEN TAG HEX               (each node's messages in order; TAG: the age rank; HEX:
//                                          the worm's bytes, destination first)
// Output:
//   rx DST SRC FDIM TYPE LEN FIRST LAST HEX  (a reassembled message: first-hop dim, data bytes in hex)
//   done CYCLES COMPLETED
//   speed CYCLES SECONDS
//   cnt NODE v0 v1 ...                   (the node's counters, port * 4 + kind)
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "Vhcube_network.h"
#include "sim/core/harness_driver.h"
#include "sim/core/harness_io.h"
#include "sim/core/verilator_ports.h"
#include "sim/hcube/hcube_harness_io.h"

using namespace cmnet::vport;
using cmnet::harness::die;

namespace {

struct Msg : cmnet::hcube_harness::MsgHead {
  uint32_t tag = 0;
  std::vector<uint8_t> bytes;
};

struct Open {
  bool on = false;
  std::vector<uint8_t> bytes;
  std::vector<uint64_t> ticks;
};

}  // namespace

int main(int argc, char** argv) {
  const cmnet::harness::Files io("hcube wormhole harness", argc, argv);
  FILE* out = io.out();
  std::vector<Msg> msgs;
  cmnet::hcube_harness::Reader in(io.in());
  const cmnet::hcube_harness::Params params = in.read(
      [] {},
      [&](const cmnet::hcube_harness::MsgHead& head) {
        Msg m{head, 0, {}};
        m.tag = in.u32();
        m.bytes = in.hex();
        if (m.bytes.size() < 11) die("a worm shorter than its header");
        msgs.push_back(std::move(m));
      });
  const int NN = params.nodes, N = params.dims;
  const int TW = 16, KW = 25;
  cmnet::hcube_harness::Hosts hosts(NN, N, msgs);
  std::vector<size_t> by_tag(msgs.size());
  for (size_t i = 0; i < msgs.size(); ++i) {
    if (msgs[i].tag >= msgs.size()) die("a tag out of range");
    by_tag[msgs[i].tag] = i;
  }
  std::vector<Open> open(static_cast<size_t>(NN * N));

  cmnet::harness::Driver<Vhcube_network> top(cmnet::harness::Origin::kRun);
  // The sources: each queue's head from the tick after its generation, the feeders' bytes.
  auto offer = [&](uint64_t t) {
    for (int x = 0; x < NN; ++x) {
      size_t h = 0;
      const bool v = hosts.head(x, h) && msgs[h].gen + 1 <= t;
      set_bit(top->src_valid, x, v);
      if (v) {
        set_field(top->src_dst, x * N, N, msgs[h].dst);
        set_field(top->src_tag, x * TW, TW, msgs[h].tag);
      }
      for (int e = 0; e < N; ++e) {
        const int f = x * N + e;
        if (!get_bit(top->fd_active, f)) continue;
        const size_t tag = get_field(top->fd_tag, f * TW, TW);
        const size_t k = get_field(top->fd_idx, f * KW, KW);
        if (tag >= msgs.size() || k >= msgs[by_tag[tag]].bytes.size()) die("a feeder asked for a byte that does not exist");
        const Msg& m = msgs[by_tag[tag]];
        set_field(top->fd_byte, f * 8, 8, m.bytes[k]);
        set_bit(top->fd_last, f, k + 1 == m.bytes.size());
      }
    }
  };
  // Ejection: the header (the destination bytes), then the bytes up to the tail.
  auto eject = [&](uint64_t t) {
    size_t done = 0;
    for (int f = 0; f < NN * N; ++f) {
      Open& o = open[static_cast<size_t>(f)];
      const uint32_t x = static_cast<uint32_t>(f / N);
      if (get_bit(top->ej_hdr, f)) {
        if (o.on) die("a header arrived on a channel whose worm has not ended");
        o.on = true;
        o.bytes = {static_cast<uint8_t>(x), static_cast<uint8_t>(x >> 8)};
        o.ticks = {t, t};
      }
      if (!get_bit(top->ej_bvalid, f)) continue;
      if (!o.on) die("a byte arrived without its header");
      o.bytes.push_back(static_cast<uint8_t>(get_field(top->ej_byte, f * 8, 8)));
      o.ticks.push_back(t);
      if (!get_bit(top->ej_last, f)) continue;
      const auto& b = o.bytes;
      if (b.size() < 11) die("a worm shorter than its header arrived");
      const uint32_t field = b[2] | (static_cast<uint32_t>(b[3]) << 8);
      const uint32_t len = b[4] | (b[5] << 8) | (b[6] << 16) | (static_cast<uint32_t>(b[7]) << 24);
      const uint32_t type = b[8] | (b[9] << 8);
      // The paper's "first packet (or 16 data bytes)": the tick of data byte 16 (or the last).
      const size_t fi = std::min<size_t>(9 + std::min<size_t>(16, len), b.size() - 1);
      std::fprintf(out, "rx %u %u %u %u %u %" PRIu64 " %" PRIu64 " ", x, field & 0xFFFu, field >> 12, type, len,
                   o.ticks[fi], t);
      for (size_t i = 10; i < b.size(); ++i) std::fprintf(out, "%02x", b[i]);
      std::fprintf(out, "\n");
      o = Open{};
      ++done;
    }
    return done;
  };
  hosts.run(top, params.max_cycles, out, offer, eject);
  return 0;
}
