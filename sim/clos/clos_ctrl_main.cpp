// Verilator harness for the hnodes' message engines on their hypercube (clos_ctrl_top). Plays
// the leaves: each leaf runs its list of requests one after another (think, CSR, wait for
// READY, hold, ODCR, and the next one once its DDCR has been handled at h_d) and logs every
// message an hnode handles or sends and every READY. Built and run by sim/clos/clos_ctrl_rtl.cpp.
//
// Input: "params H MW TYPE_LSB DEST_LSB ORIG_LSB TO_LSB NW MAX_CYCLES", then
//   "req ORIG HNODE DEST THINK HOLD" (cycles), each leaf's requests in order.
// Output: "H CYCLE HNODE HEX" (handled), "S CYCLE HNODE HEX" (sent), "R CYCLE HNODE ORIG" (READY),
// "W CYCLE HNODE ADDR DATA" (a write to the switches' configuration port),
// then "end CYCLES REQUESTS_DONE OVERFLOW".
#include <deque>
#include <map>
#include <string>

#include "Vclos_ctrl_top.h"
#include "sim/clos/clos_harness.h"

using cmnet::clos_harness::die;

namespace {
struct Req {
  int dest, think, hold;
};
enum class Phase { kThink, kWaitReady, kHold, kWaitDone, kOver };
struct Leaf {
  int hnode = 0;
  std::deque<Req> reqs;
  Phase phase = Phase::kOver;
  uint64_t until = 0;
};
constexpr int kCSR = 0, kODCR = 5, kDDCR = 7;
}  // namespace

int main(int argc, char** argv) {
  const cmnet::harness::Files io("clos ctrl harness", argc, argv);
  FILE* out = io.out();
  using namespace cmnet::vport;
  cmnet::clos_harness::Reader in(io.in());
  in.expect("params");
  const int H = in.i32(), MW = in.i32(), type_lsb = in.i32(), dest_lsb = in.i32(), orig_lsb = in.i32(),
            to_lsb = in.i32(), NW = in.i32();
  const uint64_t max_cycles = in.u64();
  if (H <= 0 || MW <= 0 || MW > 64) die("bad params record");
  std::map<int, Leaf> leaves;
  uint64_t total = 0;
  for (std::string kind; in.next(kind); ++total) {
    if (kind != "req") die("unknown record '" + kind + "'");
    const int orig = in.i32();
    Leaf& l = leaves[orig];
    l.hnode = in.i32();
    if (l.hnode < 0 || l.hnode >= H) die("bad req record");
    Req r{};
    r.dest = in.i32();
    r.think = in.i32();
    r.hold = in.i32();
    l.reqs.push_back(r);
  }
  cmnet::harness::Driver<Vclos_ctrl_top> top(cmnet::harness::Origin::kRun);
  top->leaf_valid = 0;
  top.reset();
  top.set_time_origin();  // trace windows count the cycles of the log (CYCLE) from here
  auto field = [&](uint64_t m, int lsb, int w) { return static_cast<int>((m >> lsb) & ((uint64_t{1} << w) - 1)); };
  auto msg = [&](int ty, int o, int d, int to) {
    return (static_cast<uint64_t>(ty) << type_lsb) | (static_cast<uint64_t>(d) << dest_lsb) |
           (static_cast<uint64_t>(o) << orig_lsb) | (static_cast<uint64_t>(to) << to_lsb);
  };
  cmnet::clos_harness::MsgQueues inject(H, MW);
  for (auto& [leaf, l] : leaves)
    if (!l.reqs.empty()) {
      l.phase = Phase::kThink;
      l.until = static_cast<uint64_t>(l.reqs.front().think);
    }
  uint64_t cycle = 0, done = 0, quiet = 0;
  for (; cycle < max_cycles; ++cycle) {
    for (auto& [leaf, l] : leaves) {
      if (l.phase == Phase::kThink && cycle >= l.until) {
        inject.push(l.hnode, msg(kCSR, leaf, l.reqs.front().dest, l.hnode));
        l.phase = Phase::kWaitReady;
      } else if (l.phase == Phase::kHold && cycle >= l.until) {
        inject.push(l.hnode, msg(kODCR, leaf, l.reqs.front().dest, l.hnode));
        l.phase = Phase::kWaitDone;
      }
    }
    inject.offer(top->leaf_valid, top->leaf_msg);
    top.clock(false);
    inject.take(top->leaf_take);
    bool active = false;
    for (int h = 0; h < H; ++h) {
      if (get_bit(top->handled_valid, h)) {
        active = true;
        const uint64_t m = get_field(top->handled_msg, h * MW, MW);
        cmnet::clos_harness::write_msg(out, 'H', cycle, h, m);
        if (field(m, type_lsb, 4) == kDDCR) {
          // The request is over at h_d: its leaf may ask for the next circuit.
          Leaf& l = leaves[field(m, orig_lsb, NW)];
          if (l.phase == Phase::kWaitDone) {
            l.reqs.pop_front();
            ++done;
            if (l.reqs.empty()) {
              l.phase = Phase::kOver;
            } else {
              l.phase = Phase::kThink;
              l.until = cycle + 1 + static_cast<uint64_t>(l.reqs.front().think);
            }
          }
        }
      }
      if (get_bit(top->sent_valid, h)) {
        active = true;
        cmnet::clos_harness::write_msg(out, 'S', cycle, h, get_field(top->sent_msg, h * MW, MW));
      }
      if (get_bit(top->ready_valid, h)) {
        active = true;
        const int o = static_cast<int>(get_field(top->ready_orig, h * NW, NW));
        std::fprintf(out, "R %llu %d %d\n", static_cast<unsigned long long>(cycle), h, o);
        Leaf& l = leaves[o];
        if (l.phase == Phase::kWaitReady) {
          l.phase = Phase::kHold;
          l.until = cycle + 1 + static_cast<uint64_t>(l.reqs.front().hold);
        }
      }
    }
    if (top->cfg_we) {
      active = true;
      int from = 0;
      while (from < H && !get_bit(top->cfg_from, from)) ++from;
      std::fprintf(out, "W %llu %d %llu %llu\n", static_cast<unsigned long long>(cycle), from,
                   static_cast<unsigned long long>(top->cfg_addr), static_cast<unsigned long long>(top->cfg_data));
    }
    top.clock(true);
    quiet = active ? 0 : quiet + 1;
    if (done == total && quiet > 64) break;
  }
  std::fprintf(out, "end %llu %llu %d\n", static_cast<unsigned long long>(cycle), static_cast<unsigned long long>(done),
               any(top->overflow) ? 1 : 0);
  return 0;  // the driver finalizes the model (and closes the trace), then the files close
}
