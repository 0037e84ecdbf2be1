// Verilator harness for the multi-board top (gen/cm1/cm1_cube_board_emitter.h): 2^c instances of
// cm1_cube_board_top, each a separate board with its own oscillator (period and power-on
// time), wired as the cabling says: cube_out[i] of board n to cube_in[i] of board n ^ 2^i
// through a cable delay, chip 0's sync_out to every board's sync_in through the sync delay.
// Time is in picoseconds; boards are clocked in time order. A board samples an input wire
// at its rising edge; when the wire changed within +-meta of that instant, the sampled value
// is a coin flip (seeded), as a real flip-flop's would be.
//
// Input (one record per line):
//   cube C MAX_PS SEED META_PS CABLE_PS SYNC_PS
//   board CHIP PERIOD_PS START_PS
//   swap CHIP D1 D2        board CHIP's cube_in wires of dimensions D1 and D2 are crossed
//   nosync CHIP            board CHIP's sync_in is not cabled (reads 0)
// Output: "board CHIP pass|fail|running CYCLES WHY" per board (CYCLES: its clocks when its
// LEDs showed the result, or in all; WHY: the top's failure flags), then "end PS".
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "Vcm1_cube_board_top.h"
#include "Vcm1_cube_board_top___024root.h"
#include "sim/core/cable_wire.h"
#include "sim/core/harness_driver.h"
#include "sim/core/harness_io.h"

using cmnet::harness::die;
using cmnet::harness::History;
using cmnet::harness::splitmix;

namespace {

struct Board {
  std::unique_ptr<cmnet::harness::Driver<Vcm1_cube_board_top>> d;
  Vcm1_cube_board_top* m = nullptr;
  uint32_t chip = 0;
  uint64_t period = 0, next = 0, cycles = 0, done_cycles = 0;
  int swap_a = -1, swap_b = -1;
  bool nosync = false;
  int result = 0;  // 0 running, 1 pass, 2 fail
  History out;     // bits 0..C-1 cube_out, bit C sync_out
};

}  // namespace

int main(int argc, char** argv) {
  const cmnet::harness::Files io("cube harness", argc, argv, false);
  FILE* in = io.in();
  int C = 0;
  uint64_t max_ps = 0, seed = 0, meta = 0, cable = 0, syncd = 0;
  std::vector<Board> boards;
  char kind[16];
  while (std::fscanf(in, "%15s", kind) == 1) {
    if (!std::strcmp(kind, "cube")) {
      if (std::fscanf(in, "%d %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64, &C, &max_ps, &seed,
                      &meta, &cable, &syncd) != 6)
        die("bad cube line");
      boards.resize(static_cast<size_t>(1) << C);
    } else if (!std::strcmp(kind, "board")) {
      uint32_t chip = 0;
      uint64_t period = 0, start = 0;
      if (std::fscanf(in, "%u %" SCNu64 " %" SCNu64, &chip, &period, &start) != 3 || chip >= boards.size() ||
          period < 2)
        die("bad board line");
      boards[chip].chip = chip;
      boards[chip].period = period;
      boards[chip].next = start;
    } else if (!std::strcmp(kind, "swap")) {
      uint32_t chip = 0;
      int a = 0, b = 0;
      if (std::fscanf(in, "%u %d %d", &chip, &a, &b) != 3 || chip >= boards.size() || a < 0 || b < 0 ||
          a >= C || b >= C)
        die("bad swap line");
      boards[chip].swap_a = a;
      boards[chip].swap_b = b;
    } else if (!std::strcmp(kind, "nosync")) {
      uint32_t chip = 0;
      if (std::fscanf(in, "%u", &chip) != 1 || chip >= boards.size()) die("bad nosync line");
      boards[chip].nosync = true;
    } else {
      die("unknown record");
    }
  }
  if (boards.empty()) die("no cube line");
  for (Board& b : boards) {
    if (b.period == 0) die("a board has no board line");
    // One board writes the trace when one is asked for (CMNET_TRACE_BOARD, default 0), its time
    // in picoseconds of the cube's common time base.
    const char* tb = std::getenv("CMNET_TRACE_BOARD");
    b.d = std::make_unique<cmnet::harness::Driver<Vcm1_cube_board_top>>(
        cmnet::harness::Origin::kReset, b.chip == (tb ? std::strtoul(tb, nullptr, 10) : 0ul));
    b.m = &b.d->top();
    b.m->clk = 0;
    b.m->chip_id = b.chip;
    b.m->cube_in = 0;
    b.m->sync_in = 0;
    b.d->eval();
  }
  const uint32_t cmask = (1u << C) - 1;
  uint64_t rng = seed;
  // One input bit of a wire bundle as sampled at time t.
  auto sample = [&](const History& h, uint64_t t, int bit) -> uint32_t {
    const uint32_t before = (h.at(t > meta ? t - meta : 0) >> bit) & 1u;
    const uint32_t after = (h.at(t + meta) >> bit) & 1u;
    if (before == after) return after;
    return static_cast<uint32_t>(splitmix(rng) & 1u);
  };
  uint64_t now = 0;
  size_t remaining = boards.size();
  while (remaining > 0) {
    Board* b = &boards[0];
    for (Board& x : boards)
      if (x.next < b->next) b = &x;
    now = b->next;
    if (now > max_ps) break;
    uint32_t cin = 0;
    for (int d = 0; d < C; ++d) {
      int dd = d;
      if (d == b->swap_a) dd = b->swap_b;
      else if (d == b->swap_b) dd = b->swap_a;
      const Board& nb = boards[b->chip ^ (1u << dd)];
      cin |= sample(nb.out, now > cable ? now - cable : 0, dd) << d;
    }
    b->m->cube_in = cin & cmask;
    b->m->sync_in = b->nosync ? 0 : sample(boards[0].out, now > syncd ? now - syncd : 0, C);
    b->d->eval();
    b->d->set_time(now);
    b->d->clock(true);
    b->d->set_time(now + b->period / 2);
    b->d->clock(false);
    ++b->cycles;
    b->out.set(now, (static_cast<uint32_t>(b->m->cube_out) & cmask) |
                        (static_cast<uint32_t>(b->m->sync_out & 1u) << C));
    if (b->result == 0 && (b->m->led & 3u)) {
      b->result = (b->m->led & 1u) ? 1 : 2;
      b->done_cycles = b->cycles;
      --remaining;
    }
    b->next += b->period;
  }
  static const char* names[] = {"running", "pass", "fail"};
  for (const Board& b : boards) {
    const auto* r = b.m->rootp;
    std::printf("board %u %s %" PRIu64 " load_lost=%d,late=%d,idle_ok=%d,cnt_bad=%d,bad_sel=%d,bad_got=%u,rx=%u,xor=%" PRIx64 "\n",
                b.chip, names[b.result], b.result ? b.done_cycles : b.cycles,
                static_cast<int>(r->cm1_cube_board_top__DOT__load_lost), static_cast<int>(r->cm1_cube_board_top__DOT__late),
                static_cast<int>(r->cm1_cube_board_top__DOT__idle_ok), static_cast<int>(r->cm1_cube_board_top__DOT__cnt_bad),
                static_cast<int>(r->cm1_cube_board_top__DOT__bad_sel), static_cast<unsigned>(r->cm1_cube_board_top__DOT__bad_got),
                static_cast<unsigned>(r->cm1_cube_board_top__DOT__rx_n), static_cast<uint64_t>(r->cm1_cube_board_top__DOT__x_n));
  }
  std::printf("end %" PRIu64 "\n", now);
  return 0;
}
