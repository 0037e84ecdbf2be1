#include "sim/clos/oracle/clos_oracle.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace cmnet::clos_oracle {
namespace {

std::string S(int64_t x) { return std::to_string(x); }
std::string circuit(int src, int dst) { return S(src) + " -> " + S(dst); }
std::string hex(uint64_t x) {
  std::ostringstream o;
  o << std::hex << x;
  return o.str();
}

// The s-links, each held by one circuit at a time: input s-link (input switch, middle) and
// output s-link (middle, output switch); -1 = free.
struct Links {
  const Net& net;
  std::vector<int> in, out;
  explicit Links(const Net& n) : net(n), in(static_cast<size_t>(n.r * n.m), -1), out(in.size(), -1) {}
  int& in_of(int src, int k) { return in[static_cast<size_t>((src / net.n) * net.m + k)]; }
  int& out_of(int k, int dst) { return out[static_cast<size_t>(k * net.r + dst / net.n)]; }
};

bool port_ok(const Net& net, int p) { return p >= 0 && p < net.ports(); }

// A refusal the paper's properties forbid, or "" when the routing may refuse it.
std::string refusal_forbidden(const Net& net, Links& l, const Circuit& c, const Options& o) {
  if (o.refusals == Refusals::kAnyRefusal) return "";
  if (net.m >= 2 * net.n - 1) return "refused although m >= 2n - 1 (strictly non-blocking)";
  if (net.m >= net.n && o.rearranging) return "refused although m >= n (every pairing routes, rearranging)";
  for (int k = 0; k < net.m; ++k)
    if (l.in_of(c.src, k) < 0 && l.out_of(k, c.dst) < 0)
      return "refused while middle switch " + S(k) + " had both its s-links free";
  return "";
}

}  // namespace

Settings Settings::empty(const Net& net) {
  Settings s;
  s.in_sel.assign(static_cast<size_t>(net.r), std::vector<int>(static_cast<size_t>(net.m), -1));
  s.mid_sel.assign(static_cast<size_t>(net.m), std::vector<int>(static_cast<size_t>(net.r), -1));
  s.out_sel.assign(static_cast<size_t>(net.r), std::vector<int>(static_cast<size_t>(net.n), -1));
  return s;
}

std::vector<std::string> check_routing(const Net& net, const std::vector<Circuit>& circuits, const Options& o) {
  std::vector<std::string> bad;
  std::vector<int> as_src(static_cast<size_t>(std::max(net.ports(), 0)), -1), as_dst(as_src);
  Links l(net);
  std::vector<size_t> refused;
  for (size_t i = 0; i < circuits.size(); ++i) {
    const Circuit& c = circuits[i];
    const std::string what = "circuit " + S(static_cast<int64_t>(i)) + " (" + circuit(c.src, c.dst) + ")";
    if (!port_ok(net, c.src) || !port_ok(net, c.dst)) {
      bad.push_back(what + ": a port out of range 0.." + S(net.ports() - 1));
      continue;
    }
    int& s = as_src[static_cast<size_t>(c.src)];
    int& d = as_dst[static_cast<size_t>(c.dst)];
    if (s >= 0) bad.push_back(what + ": input port " + S(c.src) + " is already the source of circuit " + S(s));
    if (d >= 0) bad.push_back(what + ": output port " + S(c.dst) + " is already the destination of circuit " + S(d));
    s = d = static_cast<int>(i);
    if (c.middle < 0) {
      refused.push_back(i);
      continue;
    }
    if (c.middle >= net.m) {
      bad.push_back(what + ": middle switch " + S(c.middle) + " out of range 0.." + S(net.m - 1));
      continue;
    }
    int& in = l.in_of(c.src, c.middle);
    int& out = l.out_of(c.middle, c.dst);
    if (in >= 0)
      bad.push_back(what + ": input s-link (input switch " + S(c.src / net.n) + ", middle " + S(c.middle) +
                    ") already carries circuit " + S(in));
    if (out >= 0)
      bad.push_back(what + ": output s-link (middle " + S(c.middle) + ", output switch " + S(c.dst / net.n) +
                    ") already carries circuit " + S(out));
    in = out = static_cast<int>(i);
  }
  for (size_t i : refused) {
    const std::string why = refusal_forbidden(net, l, circuits[i], o);
    if (!why.empty())
      bad.push_back("circuit " + S(static_cast<int64_t>(i)) + " (" + circuit(circuits[i].src, circuits[i].dst) + "): " + why);
  }
  return bad;
}

std::vector<Reach> reach(const Net& net, const Settings& s, int src) {
  std::vector<Reach> out;
  const int i = src / net.n, p = src % net.n;
  for (int k = 0; k < net.m; ++k) {
    if (s.in_sel[static_cast<size_t>(i)][static_cast<size_t>(k)] != p) continue;
    for (int o = 0; o < net.r; ++o) {
      if (s.mid_sel[static_cast<size_t>(k)][static_cast<size_t>(o)] != i) continue;
      for (int q = 0; q < net.n; ++q)
        if (s.out_sel[static_cast<size_t>(o)][static_cast<size_t>(q)] == k) out.push_back({o * net.n + q, k});
    }
  }
  return out;
}

namespace {

std::string reached_str(const std::vector<Reach>& v) {
  if (v.empty()) return "nothing";
  std::string s;
  for (const Reach& x : v) s += (s.empty() ? "" : ", ") + S(x.dst) + " (middle " + S(x.middle) + ")";
  return s;
}

bool shaped(const Net& net, const Settings& s) {
  auto rows = [](const std::vector<std::vector<int>>& v, int a, int b) {
    if (static_cast<int>(v.size()) != a) return false;
    for (const auto& row : v)
      if (static_cast<int>(row.size()) != b) return false;
    return true;
  };
  return rows(s.in_sel, net.r, net.m) && rows(s.mid_sel, net.m, net.r) && rows(s.out_sel, net.r, net.n);
}

// "" when src's data reaches exactly dst through middle (-1: any), else what it reaches.
std::string path_fault(const Net& net, const Settings& s, int src, int dst, int middle) {
  const std::vector<Reach> got = reach(net, s, src);
  if (got.size() == 1 && got[0].dst == dst && (middle < 0 || got[0].middle == middle)) return "";
  return "the settings carry its source to " + reached_str(got) + ", not to " + S(dst) +
         (middle >= 0 ? " through middle " + S(middle) : std::string()) + " alone";
}

}  // namespace

std::vector<std::string> check_settings(const Net& net, const Settings& s, const std::vector<Circuit>& established) {
  if (!shaped(net, s)) return {"the settings are not shaped [r][m], [m][r], [r][n]"};
  std::vector<std::string> bad;
  std::map<int, const Circuit*> of_src;
  for (const Circuit& c : established)
    if (port_ok(net, c.src) && port_ok(net, c.dst)) of_src[c.src] = &c;
    else bad.push_back("circuit " + circuit(c.src, c.dst) + ": a port out of range");
  for (int src = 0; src < net.ports(); ++src) {
    const auto it = of_src.find(src);
    if (it != of_src.end()) {
      const std::string f = path_fault(net, s, src, it->second->dst, it->second->middle);
      if (!f.empty()) bad.push_back("circuit " + circuit(src, it->second->dst) + ": " + f);
    } else if (const auto got = reach(net, s, src); !got.empty()) {
      bad.push_back("input " + S(src) + " has no circuit but the settings carry it to " + reached_str(got));
    }
  }
  return bad;
}

bool apply(const Net& net, Settings& s, const ConfigWrite& w, std::string* error) {
  const int in_end = net.r * net.m, mid_end = in_end + net.m * net.r, out_end = mid_end + net.r * net.n;
  auto fail = [&](const std::string& why) {
    if (error) *error = "configuration write " + S(w.addr) + " <- " + S(w.sel) + ": " + why;
    return false;
  };
  int* entry = nullptr;
  int inputs = 0;
  if (w.addr < 0 || w.addr >= out_end) return fail("no such address (0.." + S(out_end - 1) + ")");
  if (w.addr < in_end) {
    entry = &s.in_sel[static_cast<size_t>(w.addr / net.m)][static_cast<size_t>(w.addr % net.m)];
    inputs = net.n;
  } else if (w.addr < mid_end) {
    const int a = w.addr - in_end;
    entry = &s.mid_sel[static_cast<size_t>(a / net.r)][static_cast<size_t>(a % net.r)];
    inputs = net.r;
  } else {
    const int a = w.addr - mid_end;
    entry = &s.out_sel[static_cast<size_t>(a / net.n)][static_cast<size_t>(a % net.n)];
    inputs = net.m;
  }
  if (w.sel < -1 || w.sel >= inputs) return fail("selection out of range -1.." + S(inputs - 1));
  *entry = w.sel;
  return true;
}

std::vector<std::string> check_delivery(const Net& net, const std::vector<Sent>& sent, const std::vector<Seen>& seen,
                                        const Options& o) {
  std::vector<std::string> bad;
  std::map<int, const Sent*> at_dst;  // the established circuit ending at each output port
  for (const Sent& c : sent) {
    if (!port_ok(net, c.src) || !port_ok(net, c.dst)) bad.push_back("circuit " + circuit(c.src, c.dst) + ": a port out of range");
    else if (c.established && !at_dst.emplace(c.dst, &c).second)
      bad.push_back("circuit " + circuit(c.src, c.dst) + ": output " + S(c.dst) + " is the destination of two circuits");
  }
  std::map<int, std::vector<uint64_t>> words_at;  // every observation of a port, in order
  for (const Seen& x : seen) words_at[x.port].insert(words_at[x.port].end(), x.words.begin(), x.words.end());
  for (const auto& [port, got] : words_at) {
    const auto it = at_dst.find(port);
    if (it == at_dst.end()) {
      if (!o.idle_output_word) continue;
      for (size_t w = 0; w < got.size(); ++w)
        if (got[w] != *o.idle_output_word) {
          bad.push_back("output " + S(port) + " (no circuit) word " + S(static_cast<int64_t>(w)) + ": got " + hex(got[w]) +
                        ", an idle output reads " + hex(*o.idle_output_word));
          break;
        }
      continue;
    }
    const Sent& c = *it->second;
    const std::string what = "circuit " + circuit(c.src, c.dst);
    if (got.size() != c.words.size())
      bad.push_back(what + ": " + S(static_cast<int64_t>(got.size())) + " words arrived, " +
                    S(static_cast<int64_t>(c.words.size())) + " sent");
    for (size_t w = 0; w < std::min(got.size(), c.words.size()); ++w)
      if (got[w] != c.words[w]) {
        bad.push_back(what + " word " + S(static_cast<int64_t>(w)) + ": got " + hex(got[w]) + ", sent " + hex(c.words[w]));
        break;
      }
  }
  for (const auto& [port, c] : at_dst)
    if (!words_at.count(port) && !c->words.empty())
      bad.push_back("circuit " + circuit(c->src, c->dst) + ": nothing seen at its destination");
  return bad;
}

namespace {

// The set-up's state over time: the requests, the links and leaves they hold.
struct SetupState {
  const Net& net;
  const std::vector<Request>& req;
  const Options& o;
  bool settings_known;
  Settings settings;
  Links links;
  std::vector<int> leaf_in, leaf_out;  // holder of each leaf's input / output c-link (one array when one status per leaf)
  enum class St { kWaiting, kEstablished, kReleased };
  std::vector<St> st;
  std::vector<std::optional<uint64_t>> entered;
  std::vector<uint64_t> ready_at;
  std::vector<int> middle;
  std::vector<std::string> bad;

  SetupState(const Net& n, const std::vector<Request>& r, const Options& opt, bool known)
      : net(n), req(r), o(opt), settings_known(known), settings(Settings::empty(n)), links(n),
        leaf_in(static_cast<size_t>(n.ports()), -1), leaf_out(leaf_in), st(r.size(), St::kWaiting),
        entered(r.size()), ready_at(r.size(), 0), middle(r.size(), -1) {}

  std::string name(int i) const {
    const Request& x = req[static_cast<size_t>(i)];
    return "request " + S(i) + " (" + circuit(x.src, x.dst) + ")";
  }
  int& src_holder(int i) { return leaf_in[static_cast<size_t>(req[static_cast<size_t>(i)].src)]; }
  int& dst_holder(int i) {
    const int d = req[static_cast<size_t>(i)].dst;
    return (o.leaf_status == LeafStatus::kOnePerLeaf ? leaf_in : leaf_out)[static_cast<size_t>(d)];
  }

  void ready(const Event& e) {
    const size_t i = static_cast<size_t>(e.req);
    const std::string what = name(e.req) + " READY at " + S(static_cast<int64_t>(e.at));
    if (st[i] != St::kWaiting) return bad.push_back(what + ": established a second time");
    if (entered[i] && e.at < *entered[i] + o.min_setup_steps)
      bad.push_back(what + ": sooner than " + S(static_cast<int64_t>(o.min_setup_steps)) + " steps after it entered at " +
                    S(static_cast<int64_t>(*entered[i])));
    if (e.middle < 0 || e.middle >= net.m) return bad.push_back(what + ": middle switch " + S(e.middle) + " out of range");
    const Request& x = req[i];
    int& in = links.in_of(x.src, e.middle);
    int& out = links.out_of(e.middle, x.dst);
    if (in >= 0) bad.push_back(what + ": input s-link (input switch " + S(x.src / net.n) + ", middle " + S(e.middle) + ") held by " + name(in));
    if (out >= 0) bad.push_back(what + ": output s-link (middle " + S(e.middle) + ", output switch " + S(x.dst / net.n) + ") held by " + name(out));
    int& sh = src_holder(e.req);
    if (sh >= 0) bad.push_back(what + ": leaf " + S(x.src) + " is busy in " + name(sh));
    sh = e.req;
    int& dh = dst_holder(e.req);
    if (dh >= 0 && dh != e.req) bad.push_back(what + ": leaf " + S(x.dst) + " is busy in " + name(dh));
    dh = e.req;
    in = out = e.req;
    st[i] = St::kEstablished;
    ready_at[i] = e.at;
    middle[i] = e.middle;
  }

  void release(const Event& e) {
    const size_t i = static_cast<size_t>(e.req);
    const std::string what = name(e.req) + " released at " + S(static_cast<int64_t>(e.at));
    if (st[i] != St::kEstablished) return bad.push_back(what + ": it was not established");
    const Request& x = req[i];
    if (e.at <= ready_at[i] + x.hold)
      bad.push_back(what + ": its source holds it " + S(static_cast<int64_t>(x.hold)) + " steps after READY at " +
                    S(static_cast<int64_t>(ready_at[i])));
    if (settings_known)
      if (const std::string f = path_fault(net, settings, x.src, x.dst, middle[i]); !f.empty()) bad.push_back(what + ": " + f);
    for (int* h : {&links.in_of(x.src, middle[i]), &links.out_of(middle[i], x.dst), &src_holder(e.req), &dst_holder(e.req)})
      if (*h == e.req) *h = -1;
    st[i] = St::kReleased;
  }

  void step(const Event& e) {
    if (e.kind == EventKind::kWrite) {
      std::string why;
      if (settings_known && !apply(net, settings, e.write, &why)) bad.push_back("at " + S(static_cast<int64_t>(e.at)) + ": " + why);
      return;
    }
    if (e.req < 0 || e.req >= static_cast<int>(req.size()))
      return bad.push_back("at " + S(static_cast<int64_t>(e.at)) + ": an event names request " + S(e.req) + ", not one of the " +
                           S(static_cast<int64_t>(req.size())));
    if (e.kind == EventKind::kEnter) {
      if (!entered[static_cast<size_t>(e.req)]) entered[static_cast<size_t>(e.req)] = e.at;
    } else if (e.kind == EventKind::kReady) {
      ready(e);
    } else {
      release(e);
    }
  }
};

}  // namespace

std::vector<std::string> check_setup(const Net& net, const std::vector<Request>& requests, std::vector<Event> events,
                                     bool settings_known, const Options& o) {
  for (const Request& x : requests)
    if (!port_ok(net, x.src) || !port_ok(net, x.dst))
      return {"request " + circuit(x.src, x.dst) + ": a port out of range 0.." + S(net.ports() - 1)};
  std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    return a.at != b.at ? a.at < b.at : static_cast<int>(a.kind) < static_cast<int>(b.kind);
  });
  SetupState s(net, requests, o, settings_known);
  for (const Event& e : events) s.step(e);
  for (size_t i = 0; i < requests.size(); ++i)
    if (s.st[i] != SetupState::St::kReleased)
      s.bad.push_back(s.name(static_cast<int>(i)) +
                      (s.st[i] == SetupState::St::kWaiting ? ": never established" : ": never released"));
  return s.bad;
}

std::vector<std::string> check_selection(const Net& net, const std::vector<char>& excluded, bool found, int chosen) {
  if (!found) return {};
  if (chosen < 0 || chosen >= net.m) return {"selected middle switch " + S(chosen) + " out of range 0.." + S(net.m - 1)};
  if (static_cast<size_t>(chosen) < excluded.size() && excluded[static_cast<size_t>(chosen)])
    return {"selected middle switch " + S(chosen) + ", which the InputVector or a CANCEL marks taken"};
  return {};
}

}  // namespace cmnet::clos_oracle
