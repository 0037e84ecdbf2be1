#include "sim/cm1/cm1_rtl.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <unistd.h>

#include "gen/cm1/cm1_emitter.h"
#include "sim/cm1/cm1_counters.h"
#include "gen/core/progress.h"
#include "sim/core/harness_run.h"
#include "sim/core/rtl_build.h"

namespace cmnet {
namespace fs = std::filesystem;

bool Cm1Reception::operator<(const Cm1Reception& o) const {
  return std::tie(group, petit, dst, vp, data) < std::tie(o.group, o.petit, o.dst, o.vp, o.data);
}
bool Cm1Reception::operator==(const Cm1Reception& o) const {
  return std::tie(group, petit, dst, vp, data) == std::tie(o.group, o.petit, o.dst, o.vp, o.data);
}

std::ostream& operator<<(std::ostream& os, const Cm1Reception& r) {
  os << '{';
  if (r.group != 0) os << "group " << r.group << ", ";
  return os << "dst " << r.dst << ", petit " << r.petit << ", vp " << r.vp << ", data 0x"
            << std::hex << r.data << std::dec << '}';
}

Cm1RtlRun run_cm1_rtl(const Cm1Config& cfg, const Traffic& t, EjectMode mode,
                      const Cm1RtlOptions& opt) {
  return run_cm1_rtl_groups(cfg, {t}, mode, opt);
}

Cm1RtlRun run_cm1_rtl_groups(const Cm1Config& cfg_in, const std::vector<Traffic>& groups,
                             EjectMode mode, const Cm1RtlOptions& opt) {
  const bool whole = opt.whole_network || !opt.trace_file.empty();
  if (!opt.trace_file.empty() && groups.size() != 1)
    throw std::invalid_argument("a traced run takes one group of messages");
  if (!opt.trace_file.empty() && opt.ce_gated())
    throw std::invalid_argument("a traced run has no clock enable (it runs the whole network top)");
  if (opt.whole_network && groups.size() != 1)
    throw std::invalid_argument("the whole-network harness runs one group only");
  if (opt.whole_network && opt.ce_gated())
    throw std::invalid_argument("the whole-network harness has no clock enable");
  if (opt.ce_period == 0) throw std::invalid_argument("ce_period must be at least 1");
  Cm1Config cfg = cfg_in;
  Cm1Params& p = cfg.cm1;
  // Every endpoint must hold its whole share of the pattern: the model assumes a processor's
  // next message is always ready.
  int need = 1;
  for (const Traffic& t : groups) {
    check_traffic(t, p, "traffic");
    std::vector<int> per_src(static_cast<size_t>(p.processors()), 0);
    for (const Message& m : t.messages) need = std::max(need, ++per_src.at(m.src));
  }
  while (p.queue_depth < need) p.queue_depth *= 2;

  const GeneratedDesign design = emit_cm1(cfg);
  const std::string src = CMNET_SOURCE_DIR;
  const std::string exe =
      whole
          ? build_verilated_model(design, "cm1_network", src + "/sim/cm1/cm1_network_main.cpp", {}, {},
                                  opt.trace_file.empty() ? std::vector<std::string>{} : trace_flags())
          : build_verilated_model(design, "cm1_chip", src + "/sim/cm1/cm1_chip_main.cpp");

  std::ostringstream in;
  {
    in << "params " << p.cube_dims << ' ' << p.msg_len() << ' ' << p.petit_period() << ' '
       << p.procs_per_chip << ' ' << p.proc_bits() << ' ' << p.vp_bits << ' ' << p.data_bits
       << ' ' << (mode == EjectMode::kOnePerPetit ? 1 : 0) << ' ' << opt.max_petit << '\n';
    for (size_t g = 0; g < groups.size(); ++g) {
     if (g > 0) in << "group\n";
     for (const Message& m : groups[g].messages) {
      char buf[128];
      std::snprintf(buf, sizeof buf, "msg %u %u %u %u %" PRIx64 "\n", m.src,
                    m.dst / static_cast<uint32_t>(p.procs_per_chip),
                    m.dst % static_cast<uint32_t>(p.procs_per_chip), m.vp, m.data);
      in << buf;
     }
    }
    for (const Cm1Fault& f : opt.faults)
      in << "fault " << f.bit_time << ' ' << f.chip << ' ' << f.dim << '\n';
    if (opt.ce_period != 1 || opt.ce_seed != 0) in << "ce " << opt.ce_period << ' ' << opt.ce_seed << '\n';
    for (const Cm1Freeze& f : opt.freezes) in << "freeze " << f.bit_time << ' ' << f.clocks << '\n';
  }
  const std::vector<std::string> env = TraceWindow{opt.trace_file, opt.trace_from, opt.trace_to}.env();
  size_t messages = 0;
  for (const Traffic& t : groups) messages += t.messages.size();
  Progress progress("simulating the RTL: " + std::to_string(p.chips()) + " chips x " + std::to_string(p.procs_per_chip) +
                    " processors, " + std::to_string(messages) + " messages" + (whole ? " (network top)" : ""));
  HarnessRunResult run_out;
  try {
    run_out = run_harness("RTL harness", exe, in.str(), opt.timeout_s, env, progress.ticker());
  } catch (...) {
    progress.done("FAILED");
    throw;
  }
  progress.done("done in " + std::to_string(static_cast<int>(progress.seconds() + 0.5)) + " s");
  Cm1RtlRun run;
  run.chips.resize(static_cast<size_t>(p.chips()));
  std::istringstream out(run_out.out);
  std::string kind;
  const int W = p.vp_bits + p.data_bits;
  while (out >> kind) {
    if (kind == "rx") {
      Cm1Reception r;
      std::string word;
      out >> r.group >> r.petit >> r.bit_time >> r.dst >> word;
      const uint64_t w = std::stoull(word, nullptr, 16);
      r.vp = static_cast<uint32_t>(w & ((1ull << p.vp_bits) - 1));
      r.data = p.data_bits >= 64 ? (w >> p.vp_bits) : ((w >> p.vp_bits) & ((1ull << p.data_bits) - 1));
      (void)W;
      run.receptions.push_back(r);
    } else if (kind == "cnt") {
      size_t chip = 0;
      out >> chip;
      std::vector<uint64_t> words(cm1_counter_names(p).size());
      for (auto& x : words) out >> x;
      run.chips.at(chip) = cm1_counters_from_words(p, words.data(), words.size());
    } else if (kind == "speed") {
      size_t group = 0;
      uint64_t cycles = 0;
      double secs = 0;
      out >> group >> cycles >> secs;
      run.sim_cycles += cycles;
      run.sim_seconds += secs;
    } else if (kind == "idle") {
      out >> run.idle_clocks >> run.idle_changes;
    } else if (kind == "done") {
      int completed = 0;
      size_t group = 0;
      out >> group >> run.petit_cycles >> run.bit_times >> completed;
      run.group_petit_cycles.push_back(run.petit_cycles);
      run.completed = completed != 0 && (group == 0 || run.completed);
    } else {
      throw std::runtime_error("RTL harness output: unknown record '" + kind + "'");
    }
  }
  if (run.group_petit_cycles.size() != groups.size()) run.completed = false;
  std::sort(run.receptions.begin(), run.receptions.end());
  return run;
}

std::vector<Cm1Reception> receptions_from_model(const Cm1Params& p, const Traffic& t,
                                                const Cm1RunResult& r) {
  (void)p;
  // One reception per (petit, destination processor); its value is the OR of the group.
  std::map<std::pair<uint64_t, uint32_t>, Cm1Reception> groups;
  for (const Cm1Delivery& d : r.deliveries) {
    const Message& m = t.messages.at(d.msg);
    Cm1Reception rx;
    rx.petit = d.petit;
    rx.dst = m.dst;
    rx.vp = d.rx_vp;
    rx.data = d.rx_data;
    groups[{d.petit, m.dst}] = rx;
  }
  std::vector<Cm1Reception> out;
  for (auto& [k, v] : groups) out.push_back(v);
  std::sort(out.begin(), out.end());
  return out;
}

namespace {

// Element bits of a reception: DATA bits 0..63, VP bits 64..95, and kArrived, "some message
// came", for a reception with no bit set and for every reception in one-message mode.
constexpr int kArrived = 96;

bool has_bit(const Message& m, int bit) {
  if (bit < 64) return ((m.data >> bit) & 1) != 0;
  if (bit < 96) return ((m.vp >> (bit - 64)) & 1) != 0;
  return true;
}

// Crediting at one destination processor. Every set bit of a reception is an element that some
// message credited to it must carry; a message may go to any reception it fits (it carries no
// bit the reception lacks, or equals it in one-message mode, and its source could have sent it
// by then). OR-ing in one more fitting message changes nothing, so an exact assignment is a
// cover of all elements by messages, each used for one reception; the messages left over then
// join any reception they fit. The cover is found by backtracking on the uncovered element
// with the fewest candidates (algorithm X's order), earliest reception first among equals.
class DstCredit {
 public:
  DstCredit(const Traffic& t, const std::vector<const Cm1Reception*>& rx,
            const std::vector<size_t>& msgs, const std::vector<uint64_t>& earliest,
            const Cm1CreditOptions& opt)
      : t_(t), rx_(rx), gm_(msgs), opt_(opt), exclusive_(opt.mode == EjectMode::kOnePerPetit) {
    const size_t M = msgs.size(), R = rx.size();
    std::vector<std::vector<int>> fit(M);
    for (size_t i = 0; i < M; ++i)
      for (size_t j = 0; j < R; ++j)
        if (fits(msg(i), *rx[j], earliest[msgs[i]])) fit[i].push_back(static_cast<int>(j));
    // A reception with an element no fitting message carries is unexplained; it takes nobody.
    std::vector<uint64_t> or_data(R, 0);
    std::vector<uint32_t> or_vp(R, 0);
    std::vector<bool> any(R, false);
    for (size_t i = 0; i < M; ++i)
      for (int j : fit[i]) {
        or_data[static_cast<size_t>(j)] |= msg(i).data;
        or_vp[static_cast<size_t>(j)] |= msg(i).vp;
        any[static_cast<size_t>(j)] = true;
      }
    alive_.resize(R);
    for (size_t j = 0; j < R; ++j)
      alive_[j] = any[j] && (exclusive_ || (or_data[j] == rx[j]->data && or_vp[j] == rx[j]->vp));
    dom_.resize(M);
    for (size_t i = 0; i < M; ++i)
      for (int j : fit[i])
        if (alive_[static_cast<size_t>(j)]) dom_[i].push_back(j);
    for (size_t j = 0; j < R; ++j) {
      if (!alive_[j]) continue;
      for (int bit : elements(*rx[j])) {
        elem_rx_.push_back(static_cast<int>(j));
        elem_bit_.push_back(bit);
      }
    }
    const size_t E = elem_rx_.size();
    ecand_.resize(E);
    melems_.resize(M);
    first_elem_.assign(R, 0);
    end_elem_.assign(R, 0);
    for (size_t e = E; e-- > 0;) first_elem_[static_cast<size_t>(elem_rx_[e])] = static_cast<int>(e);
    for (size_t e = 0; e < E; ++e) end_elem_[static_cast<size_t>(elem_rx_[e])] = static_cast<int>(e + 1);
    for (size_t i = 0; i < M; ++i)
      for (int j : dom_[i])
        each_elem(i, j, [&](int e) {
          ecand_[static_cast<size_t>(e)].push_back(static_cast<int>(i));
          melems_[i].push_back(e);
        });
    // Try the messages with fewest choices first: they cannot go anywhere else.
    for (auto& c : ecand_)
      std::stable_sort(c.begin(), c.end(), [&](int a, int b) {
        return dom_[static_cast<size_t>(a)].size() < dom_[static_cast<size_t>(b)].size();
      });
  }

  bool bounded() const { return bounded_; }

  // Finds an exact assignment: at[i] = local reception of message i, or -1. False if there is
  // none or the search hit the bound (then bounded()).
  bool solve(std::vector<int>* at) {
    reset();
    limit_ = steps_ + opt_.max_steps;
    const Search r = dfs();
    if (r == Search::kBudget) bounded_ = true;
    if (r != Search::kFound) return false;
    if (!exclusive_) {
      // The leftovers join their earliest fitting reception, not before one of their source's
      // earlier messages to this processor when they can (sources send in order).
      std::map<uint32_t, int> floor;  // src -> latest reception of its messages so far
      for (size_t i = 0; i < at_.size(); ++i) {
        if (at_[i] < 0 && !dom_[i].empty()) {
          auto f = floor.find(msg(i).src);
          const int lo = f == floor.end() ? -1 : f->second;
          auto it = std::find_if(dom_[i].begin(), dom_[i].end(), [&](int j) { return j >= lo; });
          assign(i, it == dom_[i].end() ? dom_[i].back() : *it);
        }
        if (at_[i] >= 0) floor[msg(i).src] = std::max(floor[msg(i).src], at_[i]);
      }
    }
    *at = at_;
    return true;
  }

  // For the assignment `at` (from solve): possible[i] = every reception some exact assignment
  // credits message i to. Proved by a search per (message, other reception), within the bound;
  // where the bound stops it, the pair counts as possible.
  std::vector<std::set<int>> alternatives(const std::vector<int>& at) {
    const size_t M = at.size();
    std::vector<std::set<int>> possible(M);
    // The elements `at` covers, and how many times.
    std::vector<int> covered(elem_rx_.size(), 0);
    for (size_t i = 0; i < M; ++i) {
      if (at[i] >= 0) possible[i].insert(at[i]);
      for (int e : melems_[i])
        if (at[i] == elem_rx_[static_cast<size_t>(e)]) ++covered[static_cast<size_t>(e)];
    }
    // Elements of its reception that message i alone covers.
    auto sole = [&](size_t i) {
      std::vector<int> out;
      for (int e : melems_[i])
        if (at[i] == elem_rx_[static_cast<size_t>(e)] && covered[static_cast<size_t>(e)] == 1)
          out.push_back(e);
      return out;
    };
    std::vector<bool> spare(M, false);  // covers nothing alone: can leave for any fit
    for (size_t i = 0; i < M; ++i) spare[i] = at[i] >= 0 && sole(i).empty();
    if (!exclusive_) {
      for (size_t i = 0; i < M; ++i) {
        if (at[i] < 0) continue;
        if (spare[i]) {
          possible[i].insert(dom_[i].begin(), dom_[i].end());
          continue;
        }
        // A spare message elsewhere that carries what i alone covers can take its place.
        const std::vector<int> mine = sole(i);
        for (int i2 : ecand_[static_cast<size_t>(mine[0])]) {
          const size_t u = static_cast<size_t>(i2);
          if (u == i || !spare[u] || at[u] == at[i]) continue;
          bool all = true;
          for (int e : mine) all = all && has_bit(msg(u), elem_bit_[static_cast<size_t>(e)]);
          if (!all) continue;
          possible[i].insert(dom_[i].begin(), dom_[i].end());
          possible[u].insert(at[i]);
          break;
        }
      }
    }
    // The rest: first a repair of `at` by a few moves, then a search from scratch.
    limit_ = steps_ + opt_.max_steps;
    for (size_t i = 0; i < M; ++i) {
      for (int k : dom_[i]) {
        if (possible[i].count(k)) continue;
        Search r = repair(at, covered, i, k);
        if (r == Search::kFound) {
          for (size_t u = 0; u < M; ++u)
            if (moved_[u] && at_[u] >= 0) possible[u].insert(at_[u]);
          continue;
        }
        if (r == Search::kNone) {
          reset();
          assign(i, k);
          r = dfs();
        }
        if (r == Search::kNone) continue;
        if (r == Search::kBudget) {
          bounded_ = true;
          possible[i].insert(k);
          continue;
        }
        for (size_t u = 0; u < M; ++u) {
          if (at_[u] >= 0)
            possible[u].insert(at_[u]);
          else if (!exclusive_)
            possible[u].insert(dom_[u].begin(), dom_[u].end());
        }
      }
    }
    return possible;
  }

  // Greedy, as before issue 15: in time order each reception takes the first waiting message
  // equal to it, else every waiting message it covers.
  std::vector<int> greedy() const {
    std::vector<int> at(gm_.size(), -1);
    for (size_t j = 0; j < rx_.size(); ++j) {
      const Cm1Reception& r = *rx_[j];
      bool exact = false;
      for (size_t i = 0; i < gm_.size() && !exact; ++i)
        if (at[i] < 0 && msg(i).data == r.data && msg(i).vp == r.vp) {
          at[i] = static_cast<int>(j);
          exact = true;
        }
      if (exact || exclusive_) continue;
      for (size_t i = 0; i < gm_.size(); ++i)
        if (at[i] < 0 && (msg(i).data & ~r.data) == 0 && (msg(i).vp & ~r.vp) == 0)
          at[i] = static_cast<int>(j);
    }
    return at;
  }

 private:
  enum class Search { kFound, kNone, kBudget };

  const Message& msg(size_t i) const { return t_.messages[gm_[i]]; }

  bool fits(const Message& m, const Cm1Reception& r, uint64_t earliest) const {
    if (r.petit < earliest) return false;
    if (exclusive_) return m.data == r.data && m.vp == r.vp;
    return (m.data & ~r.data) == 0 && (m.vp & ~r.vp) == 0;
  }

  std::vector<int> elements(const Cm1Reception& r) const {
    std::vector<int> out;
    if (!exclusive_) {
      for (int b = 0; b < 64; ++b)
        if ((r.data >> b) & 1) out.push_back(b);
      for (int b = 0; b < 32; ++b)
        if ((r.vp >> b) & 1) out.push_back(64 + b);
    }
    if (out.empty()) out.push_back(kArrived);
    return out;
  }

  void reset() {
    at_.assign(gm_.size(), -1);
    covered_.assign(elem_rx_.size(), 0);
    avail_.resize(elem_rx_.size());
    for (size_t e = 0; e < avail_.size(); ++e) avail_[e] = static_cast<int>(ecand_[e].size());
  }

  void assign(size_t i, int j) {
    at_[i] = j;
    for (int e : melems_[i]) {
      --avail_[static_cast<size_t>(e)];
      if (elem_rx_[static_cast<size_t>(e)] == j) ++covered_[static_cast<size_t>(e)];
    }
  }

  void unassign(size_t i) {
    const int j = at_[i];
    at_[i] = -1;
    for (int e : melems_[i]) {
      ++avail_[static_cast<size_t>(e)];
      if (elem_rx_[static_cast<size_t>(e)] == j) --covered_[static_cast<size_t>(e)];
    }
  }

  // Leaves the cover in at_ when it finds one.
  Search dfs() {
    if (steps_ >= limit_) return Search::kBudget;
    ++steps_;
    int best = -1;
    for (size_t e = 0; e < covered_.size(); ++e) {
      if (covered_[e] != 0) continue;
      if (avail_[e] == 0) return Search::kNone;
      if (best < 0 || avail_[e] < avail_[static_cast<size_t>(best)]) best = static_cast<int>(e);
      if (avail_[e] == 1) break;  // a forced choice: take it now, a dead end shows up later
    }
    if (best < 0) return Search::kFound;
    const int j = elem_rx_[static_cast<size_t>(best)];
    for (int c : ecand_[static_cast<size_t>(best)]) {
      const size_t i = static_cast<size_t>(c);
      if (at_[i] >= 0) continue;
      assign(i, j);
      const Search r = dfs();
      if (r == Search::kFound) return r;
      unassign(i);
      if (r == Search::kBudget) return r;
    }
    return Search::kNone;
  }

  // Calls f(e) for the elements of reception j that message i carries (none for j = -1).
  template <class F>
  void each_elem(size_t i, int j, F f) const {
    if (j < 0) return;
    for (int e = first_elem_[static_cast<size_t>(j)]; e < end_elem_[static_cast<size_t>(j)]; ++e)
      if (has_bit(msg(i), elem_bit_[static_cast<size_t>(e)])) f(e);
  }

  // Moves message i to reception `to` (-1: credited nowhere), on at_ and covered_ only.
  void move(size_t i, int to) {
    each_elem(i, at_[i], [&](int e) { --covered_[static_cast<size_t>(e)]; });
    each_elem(i, to, [&](int e) { ++covered_[static_cast<size_t>(e)]; });
    at_[i] = to;
  }

  // From the exact assignment `base` (with its element counts): message i to reception k, and
  // what that uncovers covered again by moving at most kRepairMoves other messages, each once
  // (moved_). On kFound at_ holds the new assignment. Cheap, and usually enough where many
  // messages overlap; a failure proves nothing.
  static constexpr int kRepairMoves = 3;
  Search repair(const std::vector<int>& base, const std::vector<int>& base_covered, size_t i,
                int k) {
    at_ = base;
    covered_ = base_covered;
    moved_.assign(at_.size(), false);
    if (exclusive_)  // a reception holds one message: its message is displaced
      for (size_t u = 0; u < at_.size(); ++u)
        if (at_[u] == k) move(u, -1);
    const int from = at_[i];
    move(i, k);
    moved_[i] = true;
    std::vector<int> open;
    each_elem(i, from, [&](int e) {
      if (covered_[static_cast<size_t>(e)] == 0) open.push_back(e);
    });
    return mend(open, kRepairMoves);
  }

  Search mend(std::vector<int> open, int moves) {
    std::erase_if(open, [&](int e) { return covered_[static_cast<size_t>(e)] != 0; });
    if (open.empty()) return Search::kFound;
    if (moves == 0) return Search::kNone;
    if (steps_ >= limit_) return Search::kBudget;
    ++steps_;
    const int e = open.front();
    const int j = elem_rx_[static_cast<size_t>(e)];
    // Messages whose leaving uncovers nothing first.
    for (int pass = 0; pass < 2; ++pass)
      for (int c : ecand_[static_cast<size_t>(e)]) {
        const size_t u = static_cast<size_t>(c);
        const int from = at_[u];
        if (moved_[u] || from == j) continue;
        bool spare = true;
        each_elem(u, from, [&](int f) { spare = spare && covered_[static_cast<size_t>(f)] > 1; });
        if (spare != (pass == 0)) continue;
        move(u, j);
        moved_[u] = true;
        std::vector<int> next = open;
        each_elem(u, from, [&](int f) {
          if (covered_[static_cast<size_t>(f)] == 0) next.push_back(f);
        });
        const Search r = mend(std::move(next), moves - 1);
        if (r == Search::kFound) return r;
        move(u, from);
        moved_[u] = false;
        if (r == Search::kBudget) return r;
      }
    return Search::kNone;
  }

  const Traffic& t_;
  const std::vector<const Cm1Reception*>& rx_;  // time order
  const std::vector<size_t>& gm_;               // Traffic::messages indices, file order
  const Cm1CreditOptions& opt_;
  const bool exclusive_;
  std::vector<bool> alive_;                     // per reception: explainable
  std::vector<std::vector<int>> dom_;           // per message: receptions it fits, time order
  std::vector<int> elem_rx_, elem_bit_;         // per element, grouped by reception
  std::vector<int> first_elem_, end_elem_;      // per reception: its elements
  std::vector<bool> moved_;                     // repair state
  std::vector<std::vector<int>> ecand_;         // per element: messages that can cover it
  std::vector<std::vector<int>> melems_;        // per message: elements it can cover
  std::vector<int> at_, covered_, avail_;       // search state
  uint64_t steps_ = 0, limit_ = 0;
  bool bounded_ = false;
};

}  // namespace

Cm1Crediting credit_receptions(const Cm1Params& p, const Traffic& t,
                               const std::vector<Cm1Reception>& rx_in,
                               const Cm1CreditOptions& opt) {
  (void)p;
  std::vector<Cm1Reception> rx = rx_in;
  std::sort(rx.begin(), rx.end());  // time order within each processor
  // A processor injects at most one message per petit cycle, in file order.
  std::vector<uint64_t> earliest(t.messages.size());
  std::map<uint32_t, uint64_t> sent;
  for (size_t i = 0; i < t.messages.size(); ++i) earliest[i] = sent[t.messages[i].src]++;

  std::map<uint32_t, std::pair<std::vector<size_t>, std::vector<const Cm1Reception*>>> by_dst;
  for (size_t i = 0; i < t.messages.size(); ++i) by_dst[t.messages[i].dst].first.push_back(i);
  for (const Cm1Reception& r : rx) by_dst[r.dst].second.push_back(&r);

  Cm1Crediting out;
  std::map<const Cm1Reception*, std::vector<size_t>> credited;
  std::set<const Cm1Reception*> ambiguous;
  std::set<size_t> ambiguous_msgs;
  for (auto& [dst, group] : by_dst) {
    const auto& [msgs, rxs] = group;
    if (msgs.empty() || rxs.empty()) continue;
    DstCredit solver(t, rxs, msgs, earliest, opt);
    std::vector<int> at;
    if (solver.solve(&at)) {
      const std::vector<std::set<int>> possible = solver.alternatives(at);
      std::vector<std::vector<size_t>> may(rxs.size());  // per reception: who may be credited
      for (size_t i = 0; i < msgs.size(); ++i)
        for (int j : possible[i]) {
          may[static_cast<size_t>(j)].push_back(i);
          if (j == at[i]) continue;
          ambiguous_msgs.insert(msgs[i]);
          ambiguous.insert(rxs[static_cast<size_t>(j)]);
          if (at[i] >= 0) ambiguous.insert(rxs[static_cast<size_t>(at[i])]);
        }
      // One message per reception: whoever else may take it displaces the one credited.
      if (opt.mode == EjectMode::kOnePerPetit)
        for (size_t j = 0; j < rxs.size(); ++j)
          if (may[j].size() > 1)
            for (size_t i : may[j]) ambiguous_msgs.insert(msgs[i]);
    } else {
      at = solver.greedy();
      out.greedy_dsts.push_back(dst);
    }
    out.bounded = out.bounded || solver.bounded();
    for (size_t i = 0; i < msgs.size(); ++i)
      if (at[i] >= 0) credited[rxs[static_cast<size_t>(at[i])]].push_back(msgs[i]);
  }

  for (const Cm1Reception& r : rx) {
    auto it = credited.find(&r);
    uint64_t data = 0;
    uint32_t vp = 0;
    if (it != credited.end()) {
      std::sort(it->second.begin(), it->second.end());
      for (size_t i : it->second) {
        data |= t.messages[i].data;
        vp |= t.messages[i].vp;
        Cm1Delivery d;
        d.msg = i;
        d.petit = r.petit;
        d.rx_vp = r.vp;
        d.rx_data = r.data;
        d.combined = static_cast<int>(it->second.size());
        out.deliveries.push_back(d);
      }
    }
    if (it == credited.end() || data != r.data || vp != r.vp) out.unexplained.push_back(r);
    if (ambiguous.count(&r)) out.ambiguous.push_back(r);
  }
  out.ambiguous_messages.assign(ambiguous_msgs.begin(), ambiguous_msgs.end());
  return out;
}

std::vector<Cm1Delivery> deliveries_from_receptions(const Cm1Params& p, const Traffic& t,
                                                    const std::vector<Cm1Reception>& rx) {
  return credit_receptions(p, t, rx).deliveries;
}

}  // namespace cmnet
