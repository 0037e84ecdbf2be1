// Verilator harness for a network split over boards (a family's simulation top holding every
// board, each with its own clock): the top has clk[NB-1:0], cab_out[NW-1:0], cab_in[NW-1:0] and
// led[3*NB-1:0] (board b: pass, fail, running at 3b..3b+2). Each cable wire i runs from a board's
// cab_out[i] to another's cab_in[i] with a delay. Time is in picoseconds; boards are clocked in
// time order, each by its own period from its own power-on time. A board samples its inputs at
// its rising edge; a wire that changed within +-meta of that instant is sampled at random
// (seeded), as a real flip-flop's would be. Before its power-on a board is held in reset by not
// clocking it (its outputs stay at their initial 0), as an unconfigured FPGA drives nothing.
// Compile with -DCMNET_TOP=<Verilated class>.
//
// Input (one record per line):
//   run NB MAX_PS SEED META_PS
//   board B PERIOD_PS START_PS
//   wire BIT FROM TO DELAY_PS
//   cut BIT                  (a fault) wire BIT is cut: its receiver reads 0
// Output: "board B pass|fail|running CYCLES" per board (CYCLES: its clocks when its LEDs first
// showed a result, or in all), then "end PS".
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <vector>

#include "sim/core/cable_wire.h"
#include "sim/core/harness_driver.h"
#include "sim/core/harness_io.h"

#define CMNET_STR2(x) #x
#define CMNET_STR(x) CMNET_STR2(x)
#include CMNET_STR(CMNET_TOP.h)

using cmnet::harness::die;
using cmnet::harness::History;
using cmnet::harness::splitmix;

namespace {

// One bit of a Verilated port of any width.
template <class T>
uint32_t get_bit(const T& v, int i) {
  if constexpr (std::is_integral_v<T>) return static_cast<uint32_t>((v >> i) & 1u);
  else return (v[static_cast<size_t>(i / 32)] >> (i % 32)) & 1u;
}
template <class T>
void set_bit(T& v, int i, uint32_t b) {
  if constexpr (std::is_integral_v<T>) {
    const T m = static_cast<T>(T{1} << i);
    v = static_cast<T>(b ? (v | m) : (v & ~m));
  } else {
    auto& w = v[static_cast<size_t>(i / 32)];
    const uint32_t m = 1u << (i % 32);
    w = b ? (w | m) : (w & ~m);
  }
}

struct Wire {
  int bit = 0, from = 0, to = 0;
  uint64_t delay = 0;
  bool cut = false;
  History h;
};

struct Board {
  uint64_t period = 0, next = 0, cycles = 0, done_cycles = 0;
  bool high = false;  // the clock's level: the next edge falls
  int result = 0;     // 0 running, 1 pass, 2 fail
  std::vector<int> in, out;  // the wires it samples and drives
};

}  // namespace

int main(int argc, char** argv) {
  const cmnet::harness::Files io("multiboard harness", argc, argv, false);
  FILE* in = io.in();
  int nb = 0;
  uint64_t max_ps = 0, seed = 0, meta = 0;
  std::vector<Board> boards;
  std::vector<Wire> wires;
  char kind[16];
  while (std::fscanf(in, "%15s", kind) == 1) {
    if (!std::strcmp(kind, "run")) {
      if (std::fscanf(in, "%d %" SCNu64 " %" SCNu64 " %" SCNu64, &nb, &max_ps, &seed, &meta) != 4 || nb < 1 || nb > 32)
        die("bad run line");
      boards.resize(static_cast<size_t>(nb));
    } else if (!std::strcmp(kind, "board")) {
      int b = 0;
      uint64_t period = 0, start = 0;
      if (std::fscanf(in, "%d %" SCNu64 " %" SCNu64, &b, &period, &start) != 3 || b < 0 || b >= nb || period < 2)
        die("bad board line");
      boards[static_cast<size_t>(b)].period = period;
      boards[static_cast<size_t>(b)].next = start;
    } else if (!std::strcmp(kind, "wire")) {
      Wire w;
      if (std::fscanf(in, "%d %d %d %" SCNu64, &w.bit, &w.from, &w.to, &w.delay) != 4 || w.from < 0 || w.from >= nb ||
          w.to < 0 || w.to >= nb || w.bit < 0 || w.delay <= meta)
        die("bad wire line");
      boards[static_cast<size_t>(w.from)].out.push_back(static_cast<int>(wires.size()));
      boards[static_cast<size_t>(w.to)].in.push_back(static_cast<int>(wires.size()));
      wires.push_back(w);
    } else if (!std::strcmp(kind, "cut")) {
      int bit = 0;
      if (std::fscanf(in, "%d", &bit) != 1) die("bad cut line");
      bool found = false;
      for (Wire& w : wires)
        if (w.bit == bit) found = w.cut = true;
      if (!found) die("cut: no such wire");
    } else {
      die("unknown record");
    }
  }
  if (boards.empty()) die("no run line");
  for (const Board& b : boards)
    if (b.period == 0) die("a board has no board line");
  cmnet::harness::Driver<CMNET_TOP> d;
  CMNET_TOP& m = d.top();
  if (static_cast<int>(sizeof(m.clk) * 8) < nb) die("the top's clk has fewer bits than boards");
  m.clk = 0;
  d.eval_at(0);
  uint64_t rng = seed;
  auto sample = [&](const History& h, uint64_t t) -> uint32_t {
    const uint32_t before = h.at(t > meta ? t - meta : 0), after = h.at(t + meta);
    return before == after ? after : static_cast<uint32_t>(splitmix(rng) & 1u);
  };
  uint64_t now = 0;
  size_t remaining = boards.size();
  while (remaining > 0) {
    size_t bi = 0;
    for (size_t k = 1; k < boards.size(); ++k)
      if (boards[k].next < boards[bi].next) bi = k;
    Board& b = boards[bi];
    now = b.next;
    if (now > max_ps) break;
    const int clk_bit = static_cast<int>(bi);
    if (b.high) {  // the falling edge, half a period after the rising one
      set_bit(m.clk, clk_bit, 0);
      d.eval_at(now);
      b.high = false;
      b.next += b.period - b.period / 2;
      continue;
    }
    for (int wi : b.in) {
      const Wire& w = wires[static_cast<size_t>(wi)];
      set_bit(m.cab_in, w.bit, w.cut ? 0 : sample(w.h, now > w.delay ? now - w.delay : 0));
    }
    set_bit(m.clk, clk_bit, 1);
    d.eval_at(now);
    for (int wi : b.out) {
      Wire& w = wires[static_cast<size_t>(wi)];
      w.h.set(now, get_bit(m.cab_out, w.bit));
    }
    ++b.cycles;
    const uint32_t pass = get_bit(m.led, 3 * clk_bit), fail = get_bit(m.led, 3 * clk_bit + 1);
    if (b.result == 0 && (pass || fail)) {
      b.result = pass ? 1 : 2;
      b.done_cycles = b.cycles;
      --remaining;
    } else if (b.result == 1 && fail) {
      b.result = 2;  // a late extra message turns a pass to fail
    }
    b.high = true;
    b.next += b.period / 2;
  }
  static const char* names[] = {"running", "pass", "fail"};
  for (size_t k = 0; k < boards.size(); ++k)
    std::printf("board %zu %s %" PRIu64 "\n", k, names[boards[k].result],
                boards[k].result ? boards[k].done_cycles : boards[k].cycles);
  std::printf("end %" PRIu64 "\n", now);
  return 0;
}
