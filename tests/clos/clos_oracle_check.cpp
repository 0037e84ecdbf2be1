#include "tests/clos/clos_oracle_check.h"

#include <deque>
#include <map>

namespace cmnet::clos_test {
namespace o = clos_oracle;

o::Net oracle_net(const ClosParams& p) { return {p.m, p.n, p.r}; }

o::Options oracle_options() { return o::Options{}; }

std::vector<std::string> oracle_setup(const ClosParams& p, const std::vector<ClosLeafRequest>& requests,
                                      const std::vector<ClosLogged>& log, const std::vector<ClosCfgLogged>& writes) {
  std::vector<o::Request> req;
  std::map<int, std::deque<int>> of_leaf;  // each leaf's requests still to come, in its order
  for (const ClosLeafRequest& r : requests) {
    of_leaf[r.orig].push_back(static_cast<int>(req.size()));
    req.push_back({r.orig, r.dest, static_cast<uint64_t>(r.hold)});
  }
  std::vector<o::Event> ev;
  std::vector<std::string> bad;  // what names no request of the leaf's
  std::map<int, int> acked;  // the middle switch of each leaf's last ACK at h_o
  auto current = [&](int leaf) { return of_leaf[leaf].empty() ? -1 : of_leaf[leaf].front(); };
  for (const ClosLogged& e : log) {
    const int leaf = e.msg.orig;
    const bool leafs = e.msg.type == ClosMsgType::kREADY || e.msg.type == ClosMsgType::kODCR;
    if (leafs && current(leaf) < 0) {
      bad.push_back(std::string(to_string(e.msg.type)) + " for leaf " + std::to_string(leaf) + " at " +
                    std::to_string(e.at) + ": it has no request outstanding");
      continue;
    }
    switch (e.msg.type) {
      case ClosMsgType::kCSR: ev.push_back({o::EventKind::kEnter, e.at, current(leaf), -1, {}}); break;
      case ClosMsgType::kACK: acked[leaf] = e.msg.ms; break;
      case ClosMsgType::kREADY: {
        const auto it = acked.find(leaf);
        ev.push_back({o::EventKind::kReady, e.at, current(leaf), it == acked.end() ? -1 : it->second, {}});
        break;
      }
      case ClosMsgType::kODCR:
        ev.push_back({o::EventKind::kRelease, e.at, current(leaf), -1, {}});
        if (!of_leaf[leaf].empty()) of_leaf[leaf].pop_front();
        break;
      default: break;
    }
  }
  for (const ClosCfgLogged& w : writes) ev.push_back({o::EventKind::kWrite, w.at, -1, -1, {w.addr, w.sel}});
  for (std::string& x : o::check_setup(oracle_net(p), req, std::move(ev), true, oracle_options())) bad.push_back(std::move(x));
  return bad;
}

std::vector<std::string> oracle_setup(const ClosParams& p, const ClosCircuitSetup& s) {
  std::vector<ClosLeafRequest> reqs;
  for (const ClosCircuitOutcome& c : s.circuits) reqs.push_back({c.req.src, c.req.dst, 0, c.req.words});
  return oracle_setup(p, reqs, s.log, s.writes);
}

std::vector<std::string> oracle_case(const ClosParams& p, const ClosRtlCase& k, bool offline) {
  const o::Net net = oracle_net(p);
  o::Settings s = o::Settings::empty(net);
  s.in_sel = k.settings.in_sel;
  s.mid_sel = k.settings.mid_sel;
  s.out_sel = k.settings.out_sel;
  // The middle switch of each circuit, as the settings give it (an unrouted circuit: -1).
  std::vector<o::Circuit> circuits;
  for (size_t i = 0; i < k.dest.size(); ++i)
    if (k.dest[i] >= 0) {
      const std::vector<o::Reach> r = o::reach(net, s, static_cast<int>(i));
      circuits.push_back({static_cast<int>(i), k.dest[i], r.size() == 1 ? r[0].middle : -1});
    }
  o::Options opt = oracle_options();
  opt.rearranging = offline;
  std::vector<std::string> bad = o::check_routing(net, circuits, opt);
  for (std::string& x : o::check_settings(net, s, circuits)) bad.push_back(std::move(x));
  return bad;
}

std::vector<std::string> oracle_words(const ClosParams& p, const std::vector<ClosRtlCase>& cases, const ClosRtlRun& run) {
  // Per verbose case: what each input sent (the harness's report), what each output read.
  std::map<uint64_t, std::map<int, std::vector<uint64_t>>> sent, seen;
  for (const ClosRx& x : run.rx) sent[x.case_no][x.src].push_back(x.sent);
  for (const ClosOut& x : run.outputs) seen[x.case_no][x.port].push_back(x.got);
  std::vector<std::string> bad;
  for (size_t c = 0; c < cases.size(); ++c) {
    if (!cases[c].verbose) continue;
    std::vector<o::Sent> s;
    for (size_t i = 0; i < cases[c].dest.size(); ++i)
      if (cases[c].dest[i] >= 0) s.push_back({static_cast<int>(i), cases[c].dest[i], true, sent[c][static_cast<int>(i)]});
    std::vector<o::Seen> g;
    for (int port = 0; port < p.ports(); ++port) g.push_back({port, seen[c][port]});
    for (const std::string& x : o::check_delivery(oracle_net(p), s, g, oracle_options()))
      bad.push_back("case " + std::to_string(c) + ": " + x);
  }
  return bad;
}

namespace {

std::vector<uint64_t> hex_words(const nlohmann::json& words) {
  std::vector<uint64_t> v;
  for (const auto& w : words) v.push_back(std::stoull(w.get<std::string>(), nullptr, 16));
  return v;
}

}  // namespace

std::vector<std::string> oracle_sim_lines(const ClosParams& p, const std::vector<nlohmann::json>& lines) {
  std::vector<o::Circuit> routing;
  std::vector<o::Sent> sent;
  std::vector<o::Seen> seen;
  for (const nlohmann::json& l : lines) {
    if (!l.contains("kind") || l["kind"] != "circuit") continue;
    const int src = l["sent"][0]["at"].get<int>(), dst = l["dst"].get<int>();
    const int middle = l["extra"]["blocked"].get<bool>() ? -1 : l["extra"]["middle"].get<int>();
    routing.push_back({src, dst, middle});
    sent.push_back({src, dst, middle >= 0, hex_words(l["sent"][0]["words"])});
    for (const auto& a : l["arrived"]) seen.push_back({a["at"].get<int>(), hex_words(a["words"])});
  }
  o::Options opt = oracle_options();
  opt.rearranging = p.m >= p.n;  // the off-line router rearranges; first fit (m < n) does not
  std::vector<std::string> bad = o::check_routing(oracle_net(p), routing, opt);
  for (std::string& x : o::check_delivery(oracle_net(p), sent, seen, opt)) bad.push_back(std::move(x));
  return bad;
}

std::vector<std::string> oracle_board_circuits(const ClosParams& p, const nlohmann::json& circuits) {
  std::vector<o::Sent> sent;
  std::vector<o::Seen> seen;
  for (const nlohmann::json& c : circuits) {
    sent.push_back({c["src"].get<int>(), c["dst"].get<int>(), true, hex_words(c["sent"])});
    seen.push_back({c["dst"].get<int>(), hex_words(c["arrived"])});
  }
  return o::check_delivery(oracle_net(p), sent, seen, oracle_options());
}

std::vector<std::string> oracle_tree(const ClosTreeLayout& l, const std::vector<ClosTreeMessage>& msgs,
                                     const std::vector<ClosTreeArrival>& arrivals) {
  std::vector<o::Packet> sent;
  for (size_t i = 0; i < msgs.size(); ++i) sent.push_back({msgs[i].src, msgs[i].dst, i});
  std::vector<o::PacketArrival> got;
  for (const ClosTreeArrival& a : arrivals)
    got.push_back({a.control, a.where, a.src, a.control ? -1 : a.dst, static_cast<uint64_t>(a.payload), a.tree_hops,
                   a.cube_hops});
  return o::check_packets({l.hnode_dims, l.degrees}, sent, got);
}

std::string oracle_report(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size() && i < 8; ++i) s += "\n  oracle: " + v[i];
  if (v.size() > 8) s += "\n  oracle: ... " + std::to_string(v.size() - 8) + " more";
  return s;
}

}  // namespace cmnet::clos_test
