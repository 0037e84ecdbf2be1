// Verilator harness (built by host_link_rtl_test) for the UART pair's edge cases, on the
// generated top cmnet_uart_check: three cmnet_uart_rx / cmnet_uart_tx pairs at CLKS_PER_BIT
// 4, 7 and 16 (pair a, b, c). For each pair it checks, cycle by cycle:
//   - TX to RX loopback of all 256 byte values, back to back: every bit exactly CLKS_PER_BIT
//     cycles, no idle time between characters, every byte received once, no framing error;
//   - RX against a sender whose bit time is off by -3 % and +3 % (CLKS_PER_BIT 16 only: at 4
//     or 7 clocks per bit a cycle of quantization is already more than that);
//   - a low glitch shorter than half a bit on the idle line: no byte, no framing error;
//   - a character with a low stop bit: one frame_err strobe, no byte; a 30-bit-time break: one
//     frame_err; then a good character is received.
// Prints every failure; exits with the number of failures (0: all passed).
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "Vcmnet_uart_check.h"
#include "sim/core/harness_driver.h"

namespace {

int failures = 0;
void fail(const std::string& what) {
  ++failures;
  if (failures <= 40) std::printf("FAIL: %s\n", what.c_str());
}

struct Pair {
  int cpb;
  CData* rxd;
  CData* valid;
  CData* data;
  CData* ferr;
  CData* tv;
  CData* tr;
  CData* td;
  CData* txd;
  std::string name;
};

class Bench {
 public:
  Bench() : m(&drv.top()) {
    pairs = {{4, &m->rxd_a, &m->valid_a, &m->data_a, &m->ferr_a, &m->tv_a, &m->tr_a, &m->td_a, &m->txd_a, "cpb4"},
             {7, &m->rxd_b, &m->valid_b, &m->data_b, &m->ferr_b, &m->tv_b, &m->tr_b, &m->td_b, &m->txd_b, "cpb7"},
             {16, &m->rxd_c, &m->valid_c, &m->data_c, &m->ferr_c, &m->tv_c, &m->tr_c, &m->td_c, &m->txd_c, "cpb16"}};
    for (auto& p : pairs) {
      *p.rxd = 1;
      *p.tv = 0;
      *p.td = 0;
    }
    m->rst = 1;
    for (int i = 0; i < 4; ++i) tick();
    m->rst = 0;
  }
  // One cycle; the outputs are sampled before the rising edge (they are flops: this cycle's).
  void tick() {
    drv.clock(false);
    for (auto& p : pairs) {
      if (*p.valid) received[&p - pairs.data()].push_back(*p.data);
      if (*p.ferr) ++frame_errors[&p - pairs.data()];
    }
    drv.clock(true);
  }
  void clear() {
    for (auto& r : received) r.clear();
    for (auto& f : frame_errors) f = 0;
  }

  cmnet::harness::Driver<Vcmnet_uart_check> drv;
  Vcmnet_uart_check* m;
  std::vector<Pair> pairs;
  std::vector<uint8_t> received[3];
  int frame_errors[3] = {0, 0, 0};
};

// Drives one pair's rxd with a waveform: level(t) for t = 0, 1, ... cycles.
void drive(Bench& b, int k, size_t cycles, const std::function<bool(size_t)>& level) {
  for (size_t t = 0; t < cycles; ++t) {
    *b.pairs[k].rxd = level(t);
    b.tick();
  }
  *b.pairs[k].rxd = 1;
}

// Waveform of characters sent with a bit time of cpb * (1 + err), with `gap` idle bits before each.
std::vector<bool> waveform(const std::vector<int>& chars, double bit, int gap_bits) {
  std::vector<bool> w;
  double t = 0;
  auto emit = [&](bool level, double bits) {
    const double end = t + bits * bit;
    while (static_cast<double>(w.size()) < std::floor(end)) w.push_back(level);
    t = end;
  };
  for (int c : chars) {
    emit(true, gap_bits);
    emit(false, 1);  // start
    for (int i = 0; i < 8; ++i) emit((c >> i) & 1, 1);
    emit(!(c & 0x100), 1);  // stop: bit 8 of c set means "send a low stop bit"
  }
  emit(true, 3);
  return w;
}

void loopback(Bench& b, int k) {
  Pair& p = b.pairs[k];
  b.clear();
  int next = 0;
  size_t cycles = 0, last_low = 0, first_low = 0;
  bool seen_low = false;
  // Edges of txd, to check bit times.
  std::vector<size_t> edges;
  bool prev = true;
  while (cycles < static_cast<size_t>(300 * 10 * p.cpb)) {
    *p.tv = next < 256;
    *p.td = static_cast<CData>(next);
    *p.rxd = *p.txd;  // txd is a flop: this cycle's level
    const bool level = *p.txd;
    if (level != prev) edges.push_back(cycles);
    prev = level;
    if (!level) {
      if (!seen_low) first_low = cycles;
      seen_low = true;
      last_low = cycles;
    }
    b.drv.clock(false);
    const bool took = *p.tv && *p.tr;
    // this cycle's outputs, as tick() samples them
    if (*p.valid) b.received[k].push_back(*p.data);
    if (*p.ferr) ++b.frame_errors[k];
    b.drv.clock(true);
    if (took) ++next;
    ++cycles;
    if (next == 256 && b.received[k].size() == 256) break;
  }
  *p.tv = 0;
  for (int i = 0; i < 4 * p.cpb; ++i) b.tick();
  if (b.received[k].size() != 256) fail(p.name + " loopback: received " + std::to_string(b.received[k].size()) + " of 256");
  for (size_t i = 0; i < b.received[k].size() && i < 256; ++i)
    if (b.received[k][i] != i) {
      fail(p.name + " loopback: byte " + std::to_string(i) + " came back as " + std::to_string(b.received[k][i]));
      break;
    }
  if (b.frame_errors[k]) fail(p.name + " loopback: framing errors");
  // Every interval between txd edges is a whole number of bit times.
  for (size_t i = 1; i < edges.size(); ++i)
    if ((edges[i] - edges[i - 1]) % static_cast<size_t>(p.cpb) != 0) {
      fail(p.name + " loopback: txd edge interval " + std::to_string(edges[i] - edges[i - 1]) + " cycles");
      break;
    }
  // Back to back: the last character (0xFF: only its start bit is low) starts exactly 255 * 10
  // bit times after the first.
  const size_t span = last_low - first_low;
  if (span != static_cast<size_t>(255 * 10 * p.cpb + p.cpb - 1))
    fail(p.name + " loopback: the start bits of the first and the last character are " + std::to_string(span) +
         " cycles apart");
}

void baud_error(Bench& b, int k, double err) {
  Pair& p = b.pairs[k];
  std::mt19937 rng(static_cast<uint32_t>(k * 100 + (err > 0 ? 1 : 2)));
  std::vector<int> chars(64);
  for (auto& c : chars) c = static_cast<int>(rng() & 0xFF);
  b.clear();
  const auto w = waveform(chars, p.cpb * (1 + err), 0);
  drive(b, k, w.size(), [&](size_t t) { return w[t]; });
  for (int i = 0; i < 2 * p.cpb; ++i) b.tick();
  std::vector<uint8_t> want(chars.begin(), chars.end());
  if (b.received[k] != want)
    fail(p.name + " baud error " + std::to_string(err) + ": received " + std::to_string(b.received[k].size()) +
         " bytes, not the 64 sent");
  if (b.frame_errors[k]) fail(p.name + " baud error " + std::to_string(err) + ": framing errors");
}

void glitches(Bench& b, int k) {
  Pair& p = b.pairs[k];
  b.clear();
  for (int g = 1; g <= p.cpb / 2 - 1; ++g) {
    drive(b, k, static_cast<size_t>(g), [](size_t) { return false; });
    for (int i = 0; i < 12 * p.cpb; ++i) b.tick();
  }
  if (!b.received[k].empty() || b.frame_errors[k]) fail(p.name + ": a glitch was taken for a start bit");
  // Still receives afterwards.
  const auto w = waveform({0x5A}, p.cpb, 1);
  drive(b, k, w.size(), [&](size_t t) { return w[t]; });
  if (b.received[k] != std::vector<uint8_t>{0x5A}) fail(p.name + ": no byte after glitches");
}

void framing(Bench& b, int k) {
  Pair& p = b.pairs[k];
  b.clear();
  auto w = waveform({0x1C3}, p.cpb, 1);  // 0xC3 with a low stop bit
  drive(b, k, w.size(), [&](size_t t) { return w[t]; });
  if (b.frame_errors[k] != 1 || !b.received[k].empty())
    fail(p.name + ": bad stop bit gave " + std::to_string(b.frame_errors[k]) + " frame errors, " +
         std::to_string(b.received[k].size()) + " bytes");
  b.clear();
  drive(b, k, static_cast<size_t>(30 * p.cpb), [](size_t) { return false; });  // break
  drive(b, k, static_cast<size_t>(p.cpb), [](size_t) { return true; });
  w = waveform({0x81}, p.cpb, 0);
  drive(b, k, w.size(), [&](size_t t) { return w[t]; });
  if (b.frame_errors[k] != 1) fail(p.name + ": a break gave " + std::to_string(b.frame_errors[k]) + " frame errors");
  if (b.received[k] != std::vector<uint8_t>{0x81}) fail(p.name + ": no good byte after a break");
}

}  // namespace

int main(int argc, char** argv) {
  Verilated::commandArgs(argc, argv);
  Bench b;
  for (int k = 0; k < 3; ++k) {
    loopback(b, k);
    if (b.pairs[k].cpb >= 16) {
      baud_error(b, k, -0.03);
      baud_error(b, k, +0.03);
    }
    baud_error(b, k, 0.0);
    glitches(b, k);
    framing(b, k);
  }
  std::printf("%d failures\n", failures);
  return failures > 255 ? 255 : failures;
}
