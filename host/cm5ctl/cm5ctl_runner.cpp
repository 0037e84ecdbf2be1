#include "host/cm5ctl/cm5ctl_runner.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <thread>

#include "gen/cm5ctl/cm5ctl_stream.h"
#include "gen/core/errors.h"
#include "host/errors.h"
#include "sim/core/sim_board.h"
#include "sim/cm5ctl/cm5ctl_model.h"
#include "sim/cm5ctl/cm5ctl_oracle_view.h"
#include "sim/cm5ctl/cm5ctl_workload_file.h"
#include "sim/cm5ctl/cm5ctl_workloads.h"

namespace cmnet {
namespace {

// The results of one function of the interface (gen/cm5ctl/cm5ctl_stream.h): the board keeps
// their order within a function, not across functions.
Cm5Expected only_function(const Cm5Expected& e, cm5unit::Function f) {
  Cm5Expected o;
  auto keep = [f](const std::vector<std::vector<Cm5Result>>& in, std::vector<std::vector<Cm5Result>>& out) {
    out.resize(in.size());
    for (size_t j = 0; j < in.size(); ++j)
      for (const Cm5Result& x : in[j])
        if (cm5unit::function_of(x.broadcast, x.kind, x.comb) == f) out[j].push_back(x);
  };
  keep(e.multi, o.multi);
  keep(e.bcast, o.bcast);
  return o;
}

const char* const kFunctionNames[4] = {"broadcast", "combine", "interrupt", "sync"};

int function_class(const Cm5Result& x) { return cm5unit::function_of(x.broadcast, x.kind, x.comb); }

}  // namespace

namespace {

// What the board cannot run of a workload: a flush with no restart, link faults without a CRC or
// on a link that does not exist.
void check_board_workload(const Cm5ctlParams& p, const Cm5Workload& w) {
  bool flush = false;
  for (const auto& ops : w.leaf)
    for (const Cm5Op& o : ops) flush = flush || (o.broadcast && o.comb == cm5::kFlushComb);
  if (flush && w.restarts.empty())
    throw InputError("workload '" + w.name + "': a flush halts the interfaces until a restart, and it has none");
  if (!w.flips.empty() && p.crc_bits == 0)
    throw InputError("workload '" + w.name + "': link faults on the board need crc_bits 8 (without a CRC a flipped "
                     "bit changes a value the host cannot predict)");
  for (const Cm5Flip& f : w.flips)
    if (f.link < 2 || f.link >= static_cast<uint32_t>(2 * p.leaves))
      throw InputError("workload '" + w.name + "': link fault on link " + std::to_string(f.link) + " (allowed 2.." +
                       std::to_string(2 * p.leaves - 1) + ")");
}

// A unit the board takes at a cycle of the workload, among its operations.
struct TimedUnit {
  uint64_t at;
  int order;  // events before a round at the same cycle
  StreamUnit u;
};

// The workload's global inputs, counter changes, link faults and the statuses asked for, in order
// of their cycles; status_count counts the statuses per leaf.
std::vector<TimedUnit> timed_units(const Cm5ctlParams& p, const Cm5Workload& w, const Cm5Topology& t, uint32_t settle,
                                   const std::vector<std::pair<uint64_t, uint32_t>>& status_at,
                                   std::vector<uint64_t>& status_count) {
  std::vector<TimedUnit> ev;
  for (const Cm5GlobalIn& g : w.globals)
    ev.push_back({g.cycle, 0, StreamUnit{g.leaf, cm5unit::encode_control(cm5unit::kGlobals, g.value & 7u)}});
  for (size_t i = 0; i < w.counters.size(); ++i)
    for (const auto& [c, v] : w.counters[i])
      ev.push_back({c, 0, StreamUnit{static_cast<uint32_t>(i),
                                     cm5unit::encode_control(cm5unit::kCounter, 0,
                                                             static_cast<uint32_t>(static_cast<uint64_t>(v) & cm5::mask(p.word_bits)))}});
  for (const Cm5Flip& f : w.flips)
    ev.push_back({f.cycle, 0, StreamUnit{0, cm5unit::encode_control(cm5unit::kFlip, f.link | (f.up ? 1u << 16 : 0u))}});
  for (const auto& [c, leaf] : status_at) {
    if (leaf >= static_cast<uint32_t>(p.leaves) || t.part[leaf] < 0)
      throw InputError("workload '" + w.name + "': a status of leaf " + std::to_string(leaf) + ", not in use");
    ev.push_back({c, 0, StreamUnit{leaf, cm5unit::encode_control(cm5unit::kStatus, settle)}});
    ++status_count[leaf];
  }
  std::stable_sort(ev.begin(), ev.end(), [](const TimedUnit& x, const TimedUnit& y) { return x.at < y.at; });
  return ev;
}

// The operations, operation k of every leaf before k + 1 of any, with the timed units among them.
std::vector<StreamUnit> interleave(const Cm5ctlParams& p, const Cm5Workload& w, const Cm5RunResult& model,
                                   const std::vector<TimedUnit>& ev) {
  std::vector<StreamUnit> units;
  size_t longest = 0;
  for (const auto& ops : w.leaf) longest = std::max(longest, ops.size());
  size_t e = 0;
  uint64_t round_at = 0;
  for (size_t k = 0; k < longest; ++k) {
    // Each operation goes in after the events the model saw before it took it: a leaf whose
    // interface is full (a router-done under way holds the operations behind it) holds the
    // board's one staging register, so the events it waits for must be in front of it.
    std::vector<std::pair<uint64_t, size_t>> order;  // (when the model took it, leaf)
    for (size_t i = 0; i < w.leaf.size(); ++i)
      if (k < w.leaf[i].size()) {
        uint64_t at = std::max(round_at, w.leaf[i][k].release);
        if (i < model.injected.size() && k < model.injected[i].size()) at = std::max(at, model.injected[i][k]);
        order.push_back({at, i});
      }
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    for (const auto& [at, i] : order) {
      round_at = std::max(round_at, at);
      for (; e < ev.size() && ev[e].at <= at; ++e) units.push_back(ev[e].u);
      const Cm5Op& o = w.leaf[i][k];
      units.push_back(StreamUnit{static_cast<uint32_t>(i),
                                 cm5unit::encode_op(o.broadcast, o.abstain, o.kind, o.comb, o.segmented, o.seg,
                                                    static_cast<uint32_t>(o.data & cm5::mask(p.word_bits)))});
      if (o.broadcast && o.comb == cm5::kFlushComb)
        for (const auto& r : w.restarts)
          units.push_back(StreamUnit{r.second, cm5unit::encode_control(cm5unit::kRestart, 0)});
    }
  }
  for (; e < ev.size(); ++e) units.push_back(ev[e].u);
  return units;
}

// Send FIFOs: a status does not wait behind the operations (its own path), so the host sends
// the final ones once every result has come back.
void pace_final_statuses(StreamWorkload& sw, std::vector<StreamUnit> finals, size_t results_due) {
  struct Pace {
    std::vector<StreamUnit> units, finals;
    size_t next = 0, next_final = 0, seen = 0, results = 0;
  };
  auto pace = std::make_shared<Pace>();
  pace->units = std::move(sw.units);
  pace->finals = std::move(finals);
  sw.units.clear();
  sw.pull = [pace, results_due](const std::vector<StreamUnit>& got, StreamUnit& out) {
    for (; pace->seen < got.size(); ++pace->seen)
      if (!got[pace->seen].words.empty() && !cm5unit::is_status(got[pace->seen].words[0])) ++pace->results;
    if (pace->next < pace->units.size()) {
      out = pace->units[pace->next++];
      return 1;
    }
    if (pace->next_final == pace->finals.size()) return -1;
    if (pace->results < results_due) return 0;
    out = pace->finals[pace->next_final++];
    return 1;
  };
}

// The board's run against the expected results, the model's counts and its final state.
struct Cm5ctlCompare {
  Cm5ctlParams p;
  Cm5Workload w;
  Cm5Expected want;
  std::string want_what;
  Cm5RunResult model;
  std::vector<uint8_t> fin;  // the model's last global outputs per leaf
  std::vector<uint64_t> status_count;
  int n;
  int sd;  // send FIFO depth
  std::string name;

  // What the board delivered: the results in `got`, each leaf's last status.
  struct Delivered {
    std::vector<Cm5Result> got;
    std::vector<std::optional<cm5unit::Status>> last_status;
    nlohmann::ordered_json statuses = nlohmann::ordered_json::array();
  };

  void operator()(const StreamRunResult& board, RunReport& r) const {
    const Delivered dl = delivered(board, r);
    // Per leaf and function, the model's results: how many, and the error bit of the last.
    std::vector<std::array<uint64_t, 4>> per_f(static_cast<size_t>(n), {0, 0, 0, 0});
    std::vector<uint8_t> last_err(static_cast<size_t>(n), 0);
    for (const Cm5Result& x : model.results) {
      const int f = cm5unit::function_of(x.broadcast, x.kind, x.comb);
      ++per_f[x.leaf][static_cast<size_t>(f)];
      last_err[x.leaf] = static_cast<uint8_t>((last_err[x.leaf] & ~(1u << f)) | (x.err ? 1u << f : 0u));
    }
    status_rows(dl, last_err, r);
    result_rows(dl, r);
    oracle_row(dl, r);
    counter_rows(board, per_f, r);
    r.about.push_back("workload " + name + ": results compared leaf by leaf and function by function, in order, "
                      "with the software results and with the functional oracle written from the paper, which "
                      "shares no code with the model; counters (per function too) with the reference model's result "
                      "counts (plus one status per leaf); each leaf's final status registers (global ORs, halted, "
                      "sticky CRC link error, design fault, broadcast drop, results owed, words waiting, last error "
                      "and overflow per function, router-done) with the model's final state (the board's timing is "
                      "the host's)");
    r.agreement_scope = "every result and every leaf's counters";
    r.json["model_cycles"] = model.cycles;
    r.json["status_units"] = dl.statuses;
    r.json["model_results"] = model.results.size();
  }

  Delivered delivered(const StreamRunResult& board, RunReport& r) const {
    Delivered dl;
    dl.last_status.resize(static_cast<size_t>(n));
    for (const StreamUnit& u : board.delivered) {
      const bool st = !u.words.empty() && cm5unit::is_status(u.words[0]);
      if (u.words.size() != (st && sd ? 3u : 2u)) {  // a status with send FIFOs: three words
        ++r.mismatches;
        continue;
      }
      if (st) {
        if (u.leaf < static_cast<uint32_t>(n)) dl.last_status[u.leaf] = cm5unit::decode_status(u.words);
        dl.statuses.push_back({{"leaf", u.leaf}, {"words", u.words}});
        continue;
      }
      const cm5unit::Decoded d = cm5unit::decode_result(u.words[0], u.words[1]);
      Cm5Result x;
      x.leaf = u.leaf;
      x.broadcast = d.broadcast;
      x.kind = d.kind;
      x.comb = d.comb;
      x.data = d.data;
      x.ovf = d.ovf;
      x.err = d.err;
      x.abstained = d.abstained;
      dl.got.push_back(x);
    }
    return dl;
  }

  // Each leaf's last status beside the model's final state.
  void status_rows(const Delivered& dl, const std::vector<uint8_t>& last_err, RunReport& r) const {
    const bool model_lerr = model.faults.link_errors > 0, model_fault = model.faults.any_design_fault(),
               model_drop = model.faults.bcast_drops > 0;
    for (int j = 0; j < n; ++j) {
      if (!status_count[static_cast<size_t>(j)]) continue;
      const auto& st = dl.last_status[static_cast<size_t>(j)];
      char b[160], m[160];
      if (st)
        std::snprintf(b, sizeof b,
                      "globals %u halted %d link_error %d fault %d drop %d owed %u waiting %u/%u/%u/%u last_err %x "
                      "overflow %x router_done %d",
                      st->globals, st->halted, st->link_error, st->fault, st->bcast_drop, st->owed, st->waiting[0],
                      st->waiting[1], st->waiting[2], st->waiting[3], st->last_err, st->overflow, st->router_done);
      else
        std::snprintf(b, sizeof b, "none");
      std::snprintf(m, sizeof m,
                    "globals %u halted 0 link_error %d fault %d drop %d owed 0 waiting 0/0/0/0 last_err %x overflow 0 "
                    "router_done 0",
                    fin[static_cast<size_t>(j)], model_lerr, model_fault, model_drop, last_err[static_cast<size_t>(j)]);
      std::string bs = b, ms = m;
      if (sd) {  // every send FIFO empty at the end
        ms += " space " + std::to_string(sd) + "/" + std::to_string(sd) + "/" + std::to_string(sd) + "/" + std::to_string(sd);
        if (st)
          bs += " space " + std::to_string(st->space[0]) + "/" + std::to_string(st->space[1]) + "/" +
                std::to_string(st->space[2]) + "/" + std::to_string(st->space[3]);
      }
      r.rows.push_back({"leaf" + std::to_string(j) + " status", bs, ms, true});
    }
  }

  // The results, function by function (the board keeps their order within a function only).
  void result_rows(const Delivered& dl, RunReport& r) const {
    std::string diff;
    const Cm5Expected got_split = split_results(dl.got, n);
    for (int f = 0; f < 4 && diff.empty(); ++f) {
      diff = compare_to_expected(only_function(want, static_cast<cm5unit::Function>(f)),
                                 only_function(got_split, static_cast<cm5unit::Function>(f)));
      if (!diff.empty()) diff = std::string(kFunctionNames[f]) + ": " + diff;
    }
    r.rows.push_back({"results delivered (besides the status)", std::to_string(dl.got.size()),
                      std::to_string(model.results.size()), true});
    r.rows.push_back({want_what, diff.empty() ? "all equal" : diff, "all equal", true});
  }

  // The second view: the functional oracle from the paper (sim/cm5ctl/oracle), which shares no
  // code with the model or the software results. With link faults or dropped broadcasts, what
  // the board marks with the error bit is a fault reported, and a dropped broadcast may be missing.
  void oracle_row(const Delivered& dl, RunReport& r) const {
    const Cm5Expected got = cm5ctl_view::in_order_of(cm5ctl_view::oracle_expected(p, w), split_results(dl.got, n),
                                                     function_class);
    const bool faults = !w.flips.empty() || model.faults.bcast_drops > 0;
    const auto d = faults ? cm5ctl_view::oracle_disagreements_under_faults(p, w, got)
                          : cm5ctl_view::oracle_disagreements(p, w, got);
    r.rows.push_back(second_view_row("results by the paper's view (sim/cm5ctl/oracle)", d, "all equal"));
  }

  // The leaves' counters beside the model's result counts (plus the statuses).
  void counter_rows(const StreamRunResult& board, const std::vector<std::array<uint64_t, 4>>& per_f,
                    RunReport& r) const {
    std::vector<uint64_t> per(static_cast<size_t>(n), 0);
    for (const auto& x : model.results) ++per[x.leaf];
    for (size_t j = 0; j < per.size(); ++j) per[j] += status_count[j];
    for (const CounterReading& c : board.counters) {
      const std::string& nm = c.counter.name;
      const size_t dot = nm.find('.');
      if (nm.rfind("leaf", 0) != 0 || dot == std::string::npos) continue;
      const size_t leaf = std::stoul(nm.substr(4, dot - 4));
      const std::string what = nm.substr(dot + 1);
      if (what == "due" || what == "results")
        r.rows.push_back({nm, std::to_string(c.value), std::to_string(per.at(leaf)), true});
      else if (what == "pending")
        r.rows.push_back({nm, std::to_string(c.value), "0", true});
      else
        for (int f = 0; f < 4; ++f)
          if (what == kFunctionNames[f])
            r.rows.push_back({nm, std::to_string(c.value), std::to_string(per_f.at(leaf)[static_cast<size_t>(f)]), true});
    }
  }
};

}  // namespace

StreamWorkload cm5ctl_stream_workload(const Cm5ctlConfig& cfg, const Cm5Workload& w, bool status,
                                      const std::vector<std::pair<uint64_t, uint32_t>>& status_at) {
  const Cm5ctlParams& p = cfg.p;
  const Cm5Topology t = cm5_topology(p);
  check_workload(w, t);
  check_board_workload(p, w);
  StreamWorkload sw;
  sw.name = w.name;
  // The board takes its units in order: operation k of every leaf before k + 1 of any, within a
  // round in the order the model took them, the workload's global inputs, counter changes and
  // link faults at their cycles among them (a link fault may come while results are owed); the
  // restarts right after the flush (each waits on the board until its leaf is halted); a status
  // of every leaf in use last.
  // Long enough for a change of the global bits to reach every leaf (cm5ctl_params.h), twice.
  const uint32_t settle = static_cast<uint32_t>(std::min<uint64_t>(0xFFFF, cm5ctl_global_settle(p)));
  std::vector<uint64_t> status_count(static_cast<size_t>(p.leaves), 0);
  const std::vector<TimedUnit> ev = timed_units(p, w, t, settle, status_at, status_count);
  Cm5ModelOptions mo;
  uint64_t last_event = 0;
  for (const TimedUnit& x : ev) last_event = std::max(last_event, x.at);
  mo.min_cycles = last_event + settle;
  const Cm5RunResult model = run_cm5ctl_model(p, w, mo);
  sw.units = interleave(p, w, model, ev);
  std::vector<StreamUnit> finals;
  for (int j = 0; j < p.leaves && status; ++j)
    if (t.part[static_cast<size_t>(j)] >= 0) {
      finals.push_back(StreamUnit{static_cast<uint32_t>(j), cm5unit::encode_control(cm5unit::kStatus, settle)});
      ++status_count[static_cast<size_t>(j)];
    }
  const size_t results_due = static_cast<size_t>(expected_result_count(w, t));
  sw.expect_units = results_due;
  for (uint64_t c : status_count) sw.expect_units += static_cast<size_t>(c);
  if (p.send_fifo_depth == 0 || finals.empty()) {
    // The staging register: the final statuses in order behind every operation.
    for (StreamUnit& u : finals) sw.units.push_back(std::move(u));
  } else {
    pace_final_statuses(sw, std::move(finals), results_due);
  }
  // Router-done's result is the sum of the counters, which the software computation does not
  // know (it says 0, a balanced data network): with counters, the results are the model's.
  bool counters = false;
  for (const auto& c : w.counters) counters = counters || !c.empty();
  const Cm5Expected want = counters ? split_results(model.results, p.leaves) : expected_results(w, p.word_bits, t);
  const std::string want_what = counters ? "results as the model's (router-done sums its counters)"
                                         : "results as computed in software";
  std::vector<uint8_t> fin(static_cast<size_t>(p.leaves), 0);
  for (const Cm5GlobalOut& g : model.globals) fin[g.leaf] = g.value;
  sw.compare = Cm5ctlCompare{p, w, want, want_what, model, fin, status_count, p.leaves, p.send_fifo_depth, w.name};
  return sw;
}

cm5unit::Status cm5ctl_read_status(StreamBoard& board, uint32_t leaf, std::vector<StreamUnit>& delivered,
                                   uint32_t settle, double timeout_s) {
  board.send(StreamUnit{leaf, cm5unit::encode_control(cm5unit::kStatus, settle)});
  const auto t0 = std::chrono::steady_clock::now();
  for (;;) {
    // The board sends one status at a time, so the first status of this leaf is this one; the
    // units after it in the same batch are kept too.
    std::optional<cm5unit::Status> st;
    for (StreamUnit& u : board.receive()) {
      if (!st && u.leaf == leaf && u.words.size() >= 2 && cm5unit::is_status(u.words[0]))
        st = cm5unit::decode_status(u.words);
      delivered.push_back(std::move(u));
    }
    if (st) return *st;
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > timeout_s)
      throw HostError(HostErrorKind::Timeout, "cm5ctl: the status of leaf " + std::to_string(leaf) +
                                                  " did not come back within " + std::to_string(timeout_s) + " s");
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

Cm5Workload cm5ctl_control_workload(const Cm5ctlParams& p, uint64_t seed, int count) {
  const int n = p.leaves;
  const Cm5Topology t = cm5_topology(p);
  Cm5Workload w;
  w.name = "control";
  w.leaf.resize(static_cast<size_t>(n));
  w.counters.resize(static_cast<size_t>(n));
  // A stand-in data network inside each partition (router-done sums a partition's counters): the
  // leaves in use send a message each to the next one in use of their partition (a ring), the
  // sender's counter +1 when it sends, the receiver's -1 when the message arrives; every leaf
  // pushes router-done once it has sent.
  std::vector<std::vector<int>> members(t.roots.size());
  for (int j = 0; j < n; ++j)
    if (t.part[static_cast<size_t>(j)] >= 0) members[static_cast<size_t>(t.part[static_cast<size_t>(j)])].push_back(j);
  for (const auto& m : members)
    for (size_t x = 0; x < m.size(); ++x) {
      const size_t src = static_cast<size_t>(m[x]), dst = static_cast<size_t>(m[(x + 1) % m.size()]);
      const uint64_t sent = 20 + 7 * src, arrives = 150 + 11 * src;
      if (src == dst) continue;  // a partition of one leaf sends nothing
      w.counters[src].emplace_back(sent, +1);
      w.counters[dst].emplace_back(arrives, -1);
    }
  for (auto& c : w.counters) {  // the deltas as values from each cycle on
    std::sort(c.begin(), c.end());
    int64_t v = 0;
    for (auto& e : c) e.second = v += e.second;
  }
  const Cm5Workload more = make_cm5ctl_workload("reduce-scan", n, p.word_bits, seed, count);
  for (int j = 0; j < n; ++j) {
    Cm5Op rd;
    rd.kind = cm5::kReduce;
    rd.comb = cm5::kRouterDone;
    rd.release = 21 + 7 * static_cast<uint64_t>(j);
    w.leaf[static_cast<size_t>(j)].push_back(rd);
    for (const Cm5Op& o : more.leaf[static_cast<size_t>(j)]) w.leaf[static_cast<size_t>(j)].push_back(o);
  }
  const uint32_t last = static_cast<uint32_t>(n - 1), mid = static_cast<uint32_t>(n / 2);
  w.globals = {{5, 0, 1}, {15, last, 2}, {25, mid, 4}, {400, 0, 0}};
  if (p.crc_bits || p.cm5_frame()) {
    // A CRC error on the first leaf in use's up link, once everything is done (idle packets).
    int first = 0;
    while (first < n && t.part[static_cast<size_t>(first)] < 0) ++first;
    const Cm5RunResult m = run_cm5ctl_model(p, w);
    if (first < n) w.flips.push_back({m.last_result_cycle + 40, static_cast<uint32_t>(n + first), true});
  }
  return w;
}

StreamRunOutcome cm5ctl_run(const Cm5ctlConfig& cfg, const Cm5RunArgs& a, std::FILE* out) {
  const Cm5Workload w = !a.traffic.empty()       ? read_cm5ctl_workload(a.traffic, cfg.p.leaves, cfg.p.word_bits)
                       : a.pattern == "control" ? cm5ctl_control_workload(cfg.p, a.seed, a.count)
                                                : make_cm5ctl_workload(a.pattern, cfg.p.leaves, cfg.p.word_bits, a.seed, a.count);
  return run_stream_workload(cm5ctl_stream_spec(cfg), cm5ctl_stream_workload(cfg, w), a.stream, out);
}

uint64_t cm5ctl_staging_allowance(size_t units, const Cm5ctlParams& p) {
  // A unit passes the staging register in 3 cycles (its two words, then injected or placed); with
  // send FIFOs the next unit's first word comes in as one leaves: 2.
  const uint64_t per_unit = p.send_fifo_depth ? 2 : 3;
  return per_unit * static_cast<uint64_t>(units) + 8 +
         static_cast<uint64_t>(p.leaves) * static_cast<uint64_t>(cm5ctl_result_rows(p) - 1);
}

bool cm5ctl_sweep(const Cm5ctlConfig& cfg, const Cm5SweepArgs& a, std::vector<Cm5SweepPoint>* points, std::FILE* out) {
  const Cm5ctlParams& p = cfg.p;
  const Cm5Topology t = cm5_topology(p);
  if (a.in_flight.empty()) throw InputError("cmnet sweep: no offered loads");
  for (int k : a.in_flight)
    if (k < 1 || k > 4096) throw InputError("cmnet sweep: " + std::to_string(k) + " operations per leaf in flight (allowed 1..4096)");
  // A pattern the board cannot run, or one with timed events (a flush and its restart, router-done's
  // counters: the board's timing is the host's, so its cycles would not compare), is refused
  // before a board is started.
  {
    const Cm5Workload w1 = make_cm5ctl_workload(a.pattern, p.leaves, p.word_bits, a.seed, 1);
    bool timed = !w1.restarts.empty() || !w1.globals.empty() || !w1.flips.empty();
    for (const auto& c : w1.counters) timed = timed || !c.empty();
    if (timed)
      throw InputError("cmnet sweep --pattern " + a.pattern +
                       ": its workload has timed events (a flush, router-done's counters), which the sweep's cycle "
                       "comparison cannot follow; use cmnet run for it");
    (void)cm5ctl_stream_workload(cfg, w1);
  }
  StreamConnection conn(cm5ctl_stream_spec(cfg), a.stream);
  // Per point: the workload, its software results and the model's run, kept for the measure.
  struct Point {
    Cm5Workload w;
    Cm5Expected want;
    Cm5RunResult model;
    StreamWorkload sw;
  };
  std::map<int, Point> pts;
  std::vector<Cm5SweepPoint> got;
  StreamSweep s;
  s.title = cfg.name + ": " + a.pattern + ", all operations loaded before the run";
  s.x_label = "operations per leaf in flight";
  s.y_label = "operations completed per packet time";
  // Only what the transmit FIFO holds is loaded before the run: beyond that the host's pace
  // would enter the board's cycles (an operation waiting for another leaf's part).
  const uint64_t fits = conn.board->fifo_words() / (2 * static_cast<uint64_t>(p.leaves));
  for (int k : a.in_flight)
    if (static_cast<uint64_t>(k) <= fits) s.offered.push_back(k);
    else std::fprintf(out, "   (%d operations per leaf in flight: more than the board's transmit FIFO holds, %llu; left out)\n",
                      k, static_cast<unsigned long long>(fits));
  if (s.offered.empty()) throw InputError("cmnet sweep: no offered load fits the board's transmit FIFO (at most " + std::to_string(fits) + " operations per leaf)");
  s.workload = [&](double x) {
    const int k = static_cast<int>(x);
    Point pt;
    pt.w = make_cm5ctl_workload(a.pattern, p.leaves, p.word_bits, a.seed, k);
    pt.want = expected_results(pt.w, p.word_bits, t);
    pt.model = run_cm5ctl_model(p, pt.w);
    pt.sw = cm5ctl_stream_workload(cfg, pt.w, false);
    pt.sw.load_before_run = true;
    StreamWorkload w = pt.sw;
    pts[k] = std::move(pt);
    return w;
  };
  s.measure = [&](double x, const StreamRunResult& r) {
    const int k = static_cast<int>(x);
    const Point& pt = pts.at(k);
    RunReport rep;
    pt.sw.compare(r, rep);  // the run's own comparison: results and counters
    Cm5SweepPoint q;
    q.in_flight = k;
    q.board_cycles = r.cycles;
    q.model_cycles = pt.model.last_result_cycle + 1;
    const double ops = static_cast<double>(pt.w.multi_ops() + pt.w.broadcasts());
    q.accepted = r.cycles ? ops * p.packet_time() / static_cast<double>(r.cycles) : 0;
    q.model_accepted = ops * p.packet_time() / static_cast<double>(q.model_cycles);
    q.results_ok = pt.model.completed && rep.mismatches == 0;
    q.counters_ok = true;
    for (const ReportRow& row : rep.rows)
      if (row.compared && row.board != row.model) {
        if (row.name.rfind("leaf", 0) == 0) q.counters_ok = false;
        else q.results_ok = false;
      }
    q.timing_ok = r.cycles >= q.model_cycles && r.cycles <= q.model_cycles + cm5ctl_staging_allowance(pt.sw.units.size(), p);
    got.push_back(q);
    StreamSweepMeasure m;
    m.accepted = q.accepted;
    m.model_accepted = q.model_accepted;
    m.agrees = q.results_ok && q.counters_ok && q.timing_ok;
    if (!m.agrees)
      std::fprintf(out, "   K = %d: results %s, counters %s, board %llu cycles against the model's %llu (+ %llu allowed)\n", k,
                   q.results_ok ? "ok" : "WRONG", q.counters_ok ? "ok" : "WRONG",
                   static_cast<unsigned long long>(q.board_cycles), static_cast<unsigned long long>(q.model_cycles),
                   static_cast<unsigned long long>(cm5ctl_staging_allowance(pt.sw.units.size(), p)));
    return m;
  };
  const bool ok = run_stream_sweep(conn, s, a.stream.out_dir, a.stream.timeout_s, out);
  if (conn.sim) conn.sim->stop();
  if (points) *points = got;
  return ok;
}

}  // namespace cmnet
