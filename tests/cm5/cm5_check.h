// What the CM-5 machine's tests share: small configs, the scenarios (traffic with router-done
// pushed by every leaf at once after the last send; a lost and a duplicated message aimed at the
// last arrival) and the checks of a run against the workload.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include "gen/cm5/cm5_config.h"
#include "sim/cm5/cm5_machine.h"
#include "sim/cm5/oracle/cm5_oracle.h"

namespace cmnet::cm5test {

// N = 4^height leaves; link_bits 8, messages of 1..3 words, the control network's words 16 bits.
inline Cm5MachineConfig machine(int height) {
  const std::string text = R"({"network": "cm5", "name": "cm5-test", "cm5": {
      "cm5data": {"height": )" + std::to_string(height) + R"(, "link_bits": 8, "max_words": 3, "buffer_words": 2, "seed": 3},
      "cm5ctl": {"word_bits": 16}}})";
  return parse_cm5_machine_config(text, "test");
}

inline Cm5MachineWorkload scenario(const Cm5MachineConfig& cfg, int per_leaf, uint64_t seed) {
  return cm5_machine_scenario(cfg, "router-done", per_leaf, seed);
}

inline Cm5MachineFault aim_at_last_arrival(const Cm5MachineRun& r, bool duplicate) { return cm5_aim_at_last_arrival(r, duplicate); }

// Every message read by its destination's processor on its side, once, intact, and nothing else.
inline void expect_all_delivered(const Cm5MachineWorkload& w, const Cm5MachineRun& r) {
  std::multiset<std::tuple<uint32_t, int, std::vector<uint32_t>, int>> sent, got;
  for (const auto& m : w.messages) sent.insert({m.dst, m.side, m.data, m.tag});
  for (const auto& m : r.received) {
    EXPECT_TRUE((m.msg.head >> 30) & 1u) << "a CRC error at leaf " << m.leaf;
    got.insert({m.leaf, m.side, m.msg.words, static_cast<int>((m.msg.head >> 20) & 15u)});
  }
  EXPECT_EQ(got, sent);
}

// Each leaf's counter at the end of the run, summed.
inline int64_t final_sum(const Cm5MachineConfig& cfg, const Cm5MachineRun& r) {
  std::vector<int64_t> v(static_cast<size_t>(cfg.leaves()), 0);
  for (const auto& c : r.counters) v[c.leaf] = c.value;
  int64_t s = 0;
  for (int64_t x : v) s += x;
  return s;
}

// The router-done results: one per leaf, comb 7, all in one cycle; returns that cycle (0: none).
inline uint64_t router_done_cycle(const Cm5MachineConfig& cfg, const Cm5MachineRun& r, bool want_err, int64_t want_sum) {
  if (r.results.empty()) return 0;
  EXPECT_EQ(r.results.size(), static_cast<size_t>(cfg.leaves()));
  const uint64_t at = r.results.front().cycle;
  std::set<uint32_t> leaves;
  for (const Cm5Result& x : r.results) {
    EXPECT_EQ(x.comb, cm5::kRouterDone) << x.str();
    EXPECT_EQ(x.err, want_err) << x.str();
    EXPECT_EQ(cm5::to_signed(x.data, cfg.ctl.p.word_bits), want_sum) << x.str();
    EXPECT_EQ(x.cycle, at) << x.str();
    leaves.insert(x.leaf);
  }
  EXPECT_EQ(leaves.size(), static_cast<size_t>(cfg.leaves()));
  return at;
}

// The run in the oracle's terms (sim/cm5/oracle: the paper's view, sharing no code with the
// models): what each processor read (the tag and CRC bit from RECV_HEAD), the counters at the
// end, every router-done result. Fails the test, listing each disagreement, unless it agrees.
inline void expect_oracle_agrees(const Cm5MachineConfig& cfg, const Cm5MachineWorkload& w, const Cm5MachineRun& r,
                                 const std::string& what) {
  cm5_oracle::Machine m;
  m.leaves = static_cast<uint32_t>(cfg.leaves());
  m.word_bits = cfg.ctl.p.word_bits;
  for (const auto& x : w.messages) m.sent.push_back({x.src, x.dst, x.side, x.tag, x.data});
  for (const auto& f : w.faults) m.faults.push_back({f.leaf, f.duplicate});
  cm5_oracle::Run o;
  for (const auto& x : r.received)
    o.reads.push_back({x.leaf, x.side, static_cast<int>((x.msg.head >> 20) & 15u), x.msg.words, ((x.msg.head >> 30) & 1u) != 0});
  o.counters.assign(m.leaves, 0);
  for (const auto& c : r.counters) o.counters.at(c.leaf) = c.value;
  for (const Cm5Result& x : r.results)
    if (x.comb == cm5::kRouterDone) o.router_done.push_back({x.leaf, cm5::to_signed(x.data, cfg.ctl.p.word_bits), x.err});
  std::string v;
  for (const auto& d : cm5_oracle::disagreements(m, o)) v += "  " + d + "\n";
  EXPECT_EQ(v, "") << what << ": the paper's view disagrees";
}

}  // namespace cmnet::cm5test
