#include "sim/clos/clos_circuit_setup.h"

#include <map>
#include <utility>

#include "gen/core/errors.h"

namespace cmnet {

std::vector<ClosCircuitOutcome> circuit_outcomes(const std::vector<ClosCircuitRequest>& c,
                                                 const std::vector<ClosLogged>& log) {
  std::vector<ClosCircuitOutcome> out(c.size());
  std::map<int, size_t> of_src;
  for (size_t i = 0; i < c.size(); ++i) {
    out[i].req = c[i];
    of_src[c[i].src] = i;
  }
  for (const ClosLogged& e : log) {
    const auto it = of_src.find(e.msg.orig);
    if (it == of_src.end()) continue;
    ClosCircuitOutcome& o = out[it->second];
    switch (e.msg.type) {
      case ClosMsgType::kREADY:
        if (!o.ready) o.ready_at = e.at;
        o.ready = true;
        break;
      case ClosMsgType::kACK: o.middle = e.msg.ms; break;
      case ClosMsgType::kCR: ++o.crs; break;
      case ClosMsgType::kCANCEL: ++o.cancels; break;
      case ClosMsgType::kRESEND: ++(e.msg.blocked ? o.blocked : o.resends); break;
      case ClosMsgType::kDDCR: o.released_at = e.at; break;
      default: break;
    }
  }
  return out;
}

namespace {

void need_hnodes(const ClosParams& p) {
  if (p.hnode_dims < 1)
    throw InputError("clos: hnode_dims = 0: the set-up through the hnodes needs a hypercube of at least 2 hnodes");
}

// Everything set up and released, or why not.
std::string unfinished(const std::vector<ClosCircuitOutcome>& o) {
  for (const ClosCircuitOutcome& x : o)
    if (!x.ready || x.released_at == 0)
      return "circuit " + std::to_string(x.req.src) + " -> " + std::to_string(x.req.dst) + " (line " +
             std::to_string(x.req.line) + ") was " + (x.ready ? "not released" : "never set up");
  return "";
}

}  // namespace

ClosCircuitSetup setup_circuits_model(const ClosParams& p, const std::vector<ClosCircuitRequest>& c) {
  need_hnodes(p);
  ClosCircuitSetup r;
  r.engine = "model";
  ClosProtocolModel model(p, clos_protocol_options(p));
  std::map<int, int> words;  // source leaf -> words its circuit carries
  std::vector<ClosMsg> now;
  for (const ClosCircuitRequest& x : c) {
    ClosMsg m;
    m.type = ClosMsgType::kCSR;
    m.orig = x.src;
    m.dest = x.dst;
    m.to = (x.src / p.n) % p.hnodes();
    now.push_back(m);
    words[x.src] = x.words;
  }
  std::multimap<uint64_t, ClosMsg> later;  // ODCRs, by the round their leaf sends them
  std::vector<ClosLogged> log;
  // A blocked request tries again every round until a circuit is released: bounded by the holds.
  uint64_t round = 0;
  const uint64_t limit = 1000000;
  for (; round < limit; ++round) {
    for (auto it = later.begin(); it != later.end() && it->first <= round; it = later.erase(it)) now.push_back(it->second);
    if (now.empty() && later.empty()) break;
    std::vector<ClosMsg> next;
    for (const ClosMsg& m : now) {
      log.push_back({round, m});
      const std::vector<ClosMsg> sent = model.handle(m.to, m);
      for (const auto& [addr, sel] : model.config_writes()) r.writes.push_back({round, addr, sel});
      for (ClosMsg x : sent) {
        if (x.type != ClosMsgType::kREADY) {
          next.push_back(x);
          continue;
        }
        log.push_back({round, x});
        x.type = ClosMsgType::kODCR;  // the leaf sends its words, then releases the circuit
        later.emplace(round + 1 + static_cast<uint64_t>(words[x.orig]), x);
      }
      if (!model.error().empty()) break;
    }
    if (!model.error().empty()) break;
    now.swap(next);
  }
  r.handled = 0;
  for (const ClosLogged& e : log) r.handled += e.msg.type != ClosMsgType::kREADY;
  r.time = round;
  r.circuits = circuit_outcomes(c, log);
  r.log = std::move(log);
  r.error = !model.error().empty() ? "model: " + model.error()
            : round >= limit       ? "the set-up did not end in " + std::to_string(limit) + " rounds"
            : !model.idle()        ? std::string("the model did not end idle")
                                   : unfinished(r.circuits);
  r.done = r.error.empty();
  return r;
}

ClosCircuitSetup setup_circuits_rtl(const ClosConfig& cfg, const std::vector<ClosCircuitRequest>& c,
                                    const TraceWindow& trace) {
  need_hnodes(cfg.clos);
  std::vector<ClosLeafRequest> reqs;
  for (const ClosCircuitRequest& x : c) reqs.push_back({x.src, x.dst, 0, x.words});
  const ClosCtrlRtlRun run = run_clos_ctrl_rtl(cfg, reqs, 2000000, 600, nullptr, trace);
  ClosCircuitSetup r;
  r.engine = "rtl";
  r.time = run.cycles;
  r.handled = run.handled;
  r.circuits = circuit_outcomes(c, run.log);
  r.log = run.log;
  r.writes = run.writes;
  r.error = run.mismatches             ? "the RTL differs from the model: " + run.first_mismatches.at(0)
            : !run.model_error.empty() ? "model: " + run.model_error
            : run.overflow             ? std::string("a WaitingQueue overflowed in the RTL")
            : !run.model_idle          ? std::string("the model did not end idle")
                                       : unfinished(r.circuits);
  r.done = r.error.empty();
  return r;
}

}  // namespace cmnet
