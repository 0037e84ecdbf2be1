// A CM-5 data network run (RTL, model or a board's) in the functional oracle's terms
// (sim/cm5data/oracle: the paper's view, sharing no code with the params, the emitter or the
// model): the tests' checks (tests/cm5data/cm5data_oracle_check.h) and the board runner's report
// (host/cm5data) use it.
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "sim/cm5data/cm5data_model.h"
#include "sim/cm5data/oracle/cm5data_oracle.h"

namespace cmnet {

inline cm5data_oracle::Shape cm5_oracle_shape(const Cm5DataParams& p) {
  cm5data_oracle::Shape s;
  s.leaves = p.leaves();
  s.parents = p.parents_list();
  s.link_bits = p.link_bits;
  s.mapped_out_leaves = p.mapped_out_leaves;
  for (size_t k = 0; k < p.partitions.size(); ++k) s.partitions.push_back({p.partition_base(k), p.partition_size(k)});
  return s;
}

// The stated minimum time through a chip: a chip routes on its routing instructions, the head
// word, so a flit cannot leave a chip before the head word's 32/W flits have come in.
inline cm5data_oracle::Options cm5_oracle_options(const Cm5DataParams& p, bool all_fall_down) {
  cm5data_oracle::Options o;
  o.min_hop_cycles = static_cast<uint64_t>(p.flits_per_word());
  o.faulty_links = p.fault.on;
  o.all_fall_down = all_fall_down;
  return o;
}

// The run's deliveries as arrivals (the arms' counters: cm5_oracle_arms). A message delivered more than once shows as its copies (the
// RTL harness keeps the first's words); the RTL run counts the records it could name no message
// for, with the copies, in kirchhoff_violations (0 in a model run without per-cycle checks).
inline cm5data_oracle::Run cm5_oracle_run(const Cm5DataRunResult& r) {
  cm5data_oracle::Run run;
  uint64_t copies = 0;
  for (size_t i = 0; i < r.deliveries.size(); ++i) {
    const Cm5DataDelivery& d = r.deliveries[i];
    run.sent.push_back(d.refused ? cm5data_oracle::kNotSent : d.sent);
    run.refused.push_back(d.refused);
    if (!d.delivered) continue;
    for (int c = 0; c < std::max(d.copies, 1); ++c)
      run.arrivals.push_back({static_cast<int64_t>(i), d.at_leaf, d.arrived, d.words, d.crc_ok});
    copies += static_cast<uint64_t>(std::max(d.copies, 1) - 1);
  }
  run.unattributed = r.kirchhoff_violations > copies ? r.kirchhoff_violations - copies : 0;
  return run;
}

// The chips' message counters summed per arm of the tree: a leaf's link (level 0), then the
// links between each node at level l and its parent node (the node's chips' parent ports).
inline void cm5_oracle_arms(const Cm5DataParams& p, const Cm5DataRunResult& r, cm5data_oracle::Run& run) {
  if (r.chips.size() != p.total_chips()) return;
  run.arm_up.assign(static_cast<size_t>(p.height), {});
  run.arm_down.assign(static_cast<size_t>(p.height), {});
  for (uint32_t x = 0; x < p.leaves(); ++x) {
    const Cm5DataChipCounters& c = r.chips[cm5_chip_id(p, 1, x / 4, 0)];
    run.arm_up[0].push_back(c.in.at(x % 4));
    run.arm_down[0].push_back(c.out.at(x % 4));
  }
  for (int l = 1; l < p.height; ++l)
    for (uint32_t n = 0; n < p.nodes_at(l); ++n) {
      uint64_t up = 0, down = 0;
      for (int j = 0; j < p.chips_per_node(l); ++j)
        for (int q = 0; q < p.parents_at(l); ++q) {
          const Cm5DataChipCounters& c = r.chips[cm5_chip_id(p, l, n, j)];
          up += c.out.at(static_cast<size_t>(4 + q));
          down += c.in.at(static_cast<size_t>(4 + q));
        }
      run.arm_up[static_cast<size_t>(l)].push_back(up);
      run.arm_down[static_cast<size_t>(l)].push_back(down);
    }
}

inline std::vector<cm5data_oracle::Disagreement> cm5_oracle_disagreements(const Cm5DataParams& p, const Cm5DataTraffic& t,
                                                                     const Cm5DataRunResult& r, bool all_fall_down) {
  std::vector<cm5data_oracle::Message> msgs;
  for (const Cm5DataMessage& m : t.messages) msgs.push_back({m.src, m.dst, m.tag, m.data, m.inject_at, m.afd});
  cm5data_oracle::Run run = cm5_oracle_run(r);
  cm5_oracle_arms(p, r, run);
  return cm5data_oracle::check(cm5_oracle_shape(p), cm5_oracle_options(p, all_fall_down), msgs, run);
}

// A run read through the network interfaces (a board's receive FIFOs, `cmnet sim` lines): what
// each leaf took, its data words only, no cycles. Which message a delivery is, is matched by its
// leaf and words (messages equal in both are interchangeable); a message that never came is
// what the run says was refused, and the oracle says whether it must be.
struct Cm5UntimedDelivery {
  uint32_t leaf = 0;
  std::vector<uint32_t> data;
};

inline std::vector<cm5data_oracle::Disagreement> cm5_oracle_untimed_disagreements(
    const Cm5DataParams& p, const Cm5DataTraffic& t, const std::vector<Cm5UntimedDelivery>& got) {
  std::vector<cm5data_oracle::Message> msgs;
  std::multimap<std::pair<uint32_t, std::vector<uint32_t>>, size_t> pending;
  for (size_t i = 0; i < t.messages.size(); ++i) {
    const Cm5DataMessage& m = t.messages[i];
    msgs.push_back({m.src, m.dst, m.tag, m.data, 0, m.afd});
    pending.insert({{m.dst, m.data}, i});
  }
  cm5data_oracle::Run run;
  run.sent.assign(msgs.size(), 0);
  run.refused.assign(msgs.size(), 1);
  for (const Cm5UntimedDelivery& d : got) {
    const auto it = pending.find({d.leaf, d.data});
    const int64_t i = it == pending.end() ? -1 : static_cast<int64_t>(it->second);
    if (it != pending.end()) {
      run.refused[it->second] = 0;
      pending.erase(it);
    }
    run.arrivals.push_back({i, d.leaf, 0, d.data, true});
  }
  for (size_t i = 0; i < msgs.size(); ++i)
    if (run.refused[i]) run.sent[i] = cm5data_oracle::kNotSent;
  cm5data_oracle::Options o = cm5_oracle_options(p, false);
  o.timed = false;
  o.data_words_only = true;
  return cm5data_oracle::check(cm5_oracle_shape(p), o, msgs, run);
}

inline std::string cm5_oracle_report(const std::vector<cm5data_oracle::Disagreement>& v, size_t most = 10) {
  std::string s;
  for (size_t k = 0; k < v.size() && k < most; ++k)
    s += "  " + (v[k].msg < 0 ? std::string("run") : "message " + std::to_string(v[k].msg)) + ": " + v[k].what + "\n";
  if (v.size() > most) s += "  ... " + std::to_string(v.size() - most) + " more\n";
  return s;
}

}  // namespace cmnet
