#include "sim/clos/clos_setup_model.h"

#include <algorithm>
#include <bit>
#include <deque>
#include <queue>
#include <random>
#include <tuple>

#include "gen/core/errors.h"
#include "gen/core/hypercube_topology.h"

namespace cmnet {

const char* to_string(ClosMsgType t) {
  static const char* const names[] = {"CSR", "CR", "CO", "ACK", "READY", "ODCR", "IDCR", "DDCR", "CANCEL", "RESEND"};
  return names[static_cast<int>(t)];
}

namespace {

constexpr int kNone = -1;

// A message between hnodes (or between a leaf and its hnode). The fields are those the paper's
// formats carry: the request's originator and destination leaves, the switch number, the
// InputVector of h_o in a CR.
struct Msg {
  ClosMsgType type = ClosMsgType::kCSR;
  int req = 0;
  int ms = kNone;
  bool blocked = false;     // RESEND: h_d found no free middle switch
  std::vector<char> iv;     // CR: InputVector of h_o's input switch when the CR was sent
};

// A request's identity (orig, dest: what every message names) and the model's bookkeeping.
struct Req {
  int orig = 0, dest = 0;
  bool up = false;          // up-going: orig < dest
  double t_issue = 0;       // the CSR
  double t_gen = 0;         // the message that needs the circuit (open loop: may be earlier)
  double t_ready = 0;
  int ms = kNone;           // h_d's current selection
  int cancels = 0;          // h_d's CANCEL count for this connection
  std::vector<char> tried;  // h_d: middle switches CANCELed for this connection
  std::vector<char> iv;     // h_d: the InputVector the last CR carried
  bool waited = false, raced = false, was_blocked = false;
  bool cr_waited = false;   // the current CR waited at h_d after its InputVector was taken
  bool raced_fresh = false;
  int hops = 0;
  bool live = true;
};

// What a leaf's WaitingQueue holds: the continuation of a request at this leaf.
struct Waiting {
  enum Kind { kCrAtOrig, kCrAtDest, kAckAtOrig } kind;
  int req;
};

enum class Ev { kHandle, kArrive, kLeafRequest, kLeafReady, kLeafRelease, kBackground };

struct Event {
  double t;
  uint64_t seq;
  Ev kind;
  int where;  // hnode or leaf
  int msg;    // index into the message pool (kArrive, kHandle)
  bool operator>(const Event& o) const { return std::tie(t, seq) > std::tie(o.t, o.seq); }
};

class SetupSim {
 public:
  SetupSim(const ClosParams& p, const ClosSetupOptions& o)
      : p_(p), o_(o), cube_(p.hnode_dims), rng_(o.seed) {
    const size_t r = static_cast<size_t>(p.r), m = static_cast<size_t>(p.m), N = static_cast<size_t>(p.ports());
    iv_.assign(r, std::vector<char>(m, 0));
    ov_.assign(r, std::vector<char>(m, 0));
    relay_in_.assign(m, std::vector<int>(r, kNone));
    relay_out_.assign(m, std::vector<int>(r, kNone));
    const size_t sides = o.duplex_leaves ? 2 : 1;  // duplex: a busy bit per c-link (send, receive)
    holder_.assign(N * sides, kNone);
    held_since_.assign(N * sides, 0.0);
    hnode_busy_.assign(static_cast<size_t>(p.hnodes()), 0.0);
    own_active_.assign(N, 0);
    outstanding_.assign(r, 0);
    backlog_.resize(N);
    waitq_.resize(N * sides);
    hnode_free_.assign(static_cast<size_t>(p.hnodes()), 0.0);
    link_load_.assign(static_cast<size_t>(p.hnodes() * std::max(1, p.hnode_dims)), 0);
    hw_ = ClosSettings::empty(p);
    established_.assign(N, kNone);
    connected_.assign(N, kNone);
    active_ = o.active_per_switch <= 0 ? p.n : std::min(o.active_per_switch, p.n);
    for (int s = 0; s < p.r; ++s)
      for (int k = 0; k < active_; ++k) leaves_.push_back(s * p.n + k);
  }

  ClosSetupStats run() {
    if (leaves_.size() < 2) throw InputError("the set-up model needs at least two active leaves");
    for (int leaf : leaves_) schedule_request(leaf, o_.open_loop ? exp_time(o_.interarrival_us) : 0.0);
    if (o_.background_gap_us > 0)
      for (int h = 0; h < p_.hnodes(); ++h) push(exp_time(o_.background_gap_us), Ev::kBackground, h);
    uint64_t events = 0;
    while (!q_.empty()) {
      if (++events > o_.max_events) {
        fail("event limit reached");
        break;
      }
      const Event e = q_.top();
      q_.pop();
      // A leaf's next message after the last one: nothing happens (and the run's end is not moved).
      if (e.kind == Ev::kLeafRequest && s_.issued >= o_.requests) continue;
      now_ = e.t;
      switch (e.kind) {
        case Ev::kArrive: {
          double& f = hnode_free_[static_cast<size_t>(e.where)];
          f = std::max(f, now_) + o_.handle_us;
          hnode_busy_[static_cast<size_t>(e.where)] += o_.handle_us;
          push(f, Ev::kHandle, e.where, e.msg);
          break;
        }
        case Ev::kBackground: {
          // Another job for this hnode's CPU (one shared hypercube: a short message it routes),
          // uniform 0 .. 2 x handle_us; the next while requests are still out.
          double& f = hnode_free_[static_cast<size_t>(e.where)];
          const double d = std::uniform_real_distribution<double>(0, 2 * o_.handle_us)(rng_);
          f = std::max(f, now_) + d;
          hnode_busy_[static_cast<size_t>(e.where)] += d;
          ++s_.background_jobs;
          if (s_.issued < o_.requests || s_.torn_down < s_.issued)
            push(now_ + exp_time(o_.background_gap_us), Ev::kBackground, e.where);
          break;
        }
        case Ev::kHandle:
          handle(e.where, e.msg);
          break;
        case Ev::kLeafRequest:
          leaf_request(e.where);
          break;
        case Ev::kLeafReady:
          leaf_ready(e.where);
          break;
        case Ev::kLeafRelease:
          leaf_release(e.where);
          break;
      }
    }
    s_.end_us = now_;
    account_circuits();
    s_.mean_circuits = now_ > 0 ? circuit_area_ / now_ : 0.0;
    for (const Req& r : reqs_)
      if (r.live) s_.deadlock = true;
    if (s_.issued < o_.requests) s_.deadlock = true;
    if (!s_.deadlock) check_idle();
    for (uint64_t l : link_load_) s_.max_link_load = std::max(s_.max_link_load, l);
    for (double b : hnode_busy_) {
      s_.hnode_busy_us += b;
      s_.hnode_busy_max_us = std::max(s_.hnode_busy_max_us, b);
    }
    return std::move(s_);
  }

 private:
  const ClosParams& p_;
  const ClosSetupOptions& o_;
  HypercubeTopology cube_;
  std::mt19937_64 rng_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> q_;
  uint64_t seq_ = 0;
  double now_ = 0;
  std::vector<Msg> msgs_;
  std::vector<int> free_msgs_;
  std::vector<Req> reqs_;
  // hnode state (indexed by switch; switch i's controller is hnode_of_switch(i))
  std::vector<std::vector<char>> iv_, ov_;           // [input switch][m], [output switch][m]
  std::vector<std::vector<int>> relay_in_, relay_out_;  // [middle][input switch], [middle][output switch]: request
  std::vector<int> holder_;                           // leaf busy bit (duplex: per side): the request holding it
  std::vector<double> held_since_;                    // when the holder took it
  std::vector<double> hnode_busy_;                    // handling time per hnode (circuits' messages and background)
  std::vector<int> outstanding_;                      // per input switch: CRs sent, not yet ACKed or RESENT
  std::vector<char> own_active_;                      // the leaf has a request of its own out
  std::vector<std::deque<double>> backlog_;           // open loop: its later messages (generation times)
  std::vector<std::deque<Waiting>> waitq_;
  std::vector<double> hnode_free_;
  std::vector<uint64_t> link_load_;
  ClosSettings hw_;                                   // the switches, as the hnodes set them
  std::vector<int> established_;                      // input port -> output port (READY seen)
  std::vector<int> connected_;                        // input port -> output port (input switch set by h_o)
  uint64_t circuits_ = 0;
  double circuit_area_ = 0, area_t_ = 0;  // integral of circuits_ over time, up to area_t_
  int active_ = 0;
  std::vector<int> leaves_;
  ClosSetupStats s_;

  int sw(int leaf) const { return leaf / p_.n; }
  int port(int leaf) const { return leaf % p_.n; }
  int hnode_of_switch(int i) const { return i % p_.hnodes(); }
  int hnode_of_middle(int k) const { return k % p_.hnodes(); }
  int h_o(const Req& r) const { return hnode_of_switch(sw(r.orig)); }
  int h_d(const Req& r) const { return hnode_of_switch(sw(r.dest)); }
  // The busy bit a request takes at its originating and at its destination leaf: the leaf's one
  // bit, or (duplex_leaves) its sending side 2l and its receiving side 2l + 1. Either way the
  // lower-numbered leaf's comes first in one total order, so the deadlock rule still holds.
  int ro(const Req& r) const { return o_.duplex_leaves ? 2 * r.orig : r.orig; }
  int rd(const Req& r) const { return o_.duplex_leaves ? 2 * r.dest + 1 : r.dest; }
  int leaf_of(int res) const { return o_.duplex_leaves ? res / 2 : res; }

  void fail(const std::string& e) {
    if (s_.error.empty()) s_.error = "t = " + std::to_string(now_) + " us: " + e;
  }
  void push(double t, Ev kind, int where, int msg = -1) { q_.push(Event{t, seq_++, kind, where, msg}); }
  double exp_time(double mean) { return mean <= 0 ? 0.0 : std::exponential_distribution<double>(1.0 / mean)(rng_); }

  int new_msg(ClosMsgType type, int req) {
    int i;
    if (!free_msgs_.empty()) {
      i = free_msgs_.back();
      free_msgs_.pop_back();
      msgs_[static_cast<size_t>(i)] = Msg{};
    } else {
      i = static_cast<int>(msgs_.size());
      msgs_.emplace_back();
    }
    msgs_[static_cast<size_t>(i)].type = type;
    msgs_[static_cast<size_t>(i)].req = req;
    ++s_.messages[static_cast<int>(type)];
    return i;
  }

  // hnode `from` sends message `mi` to hnode `to` over the hypercube (e-cube: lowest differing
  // dimension first).
  void send(int from, int to, int mi) {
    int hops = 0;
    for (int x = from; x != to; ++hops) {
      const int d = std::countr_zero(static_cast<unsigned>(x ^ to));
      ++link_load_[static_cast<size_t>(x * p_.hnode_dims + d)];
      x = cube_.neighbor(x, d);
    }
    s_.cube_hops += static_cast<uint64_t>(hops);
    reqs_[static_cast<size_t>(msgs_[static_cast<size_t>(mi)].req)].hops += hops;
    if (out_) {
      record(to, mi);
      return;
    }
    push(now_ + hops * o_.hop_us, Ev::kArrive, to, mi);
  }

 public:
  // Driven (ClosProtocolModel): messages are handled when the caller says and what the step sends
  // is returned instead of scheduled.
  std::vector<ClosMsg> drive(int h, const ClosMsg& in) {
    std::vector<ClosMsg> out;
    out_ = &out;
    cfg_out_.clear();
    if (in.orig < 0 || in.orig >= p_.ports() || in.dest < 0 || in.dest >= p_.ports()) {
      fail("message with a leaf out of range");
      return out;
    }
    if (cur_req_.empty()) cur_req_.assign(static_cast<size_t>(p_.ports()), kNone);
    int& cur = cur_req_[static_cast<size_t>(in.orig)];
    if (in.type == ClosMsgType::kCSR && (cur == kNone || !reqs_[static_cast<size_t>(cur)].live)) {
      Req r;
      r.orig = in.orig;
      r.dest = in.dest;
      r.up = r.orig < r.dest;
      r.tried.assign(static_cast<size_t>(p_.m), 0);
      reqs_.push_back(std::move(r));
      cur = static_cast<int>(reqs_.size() - 1);
      ++s_.issued;
    }
    if (cur == kNone || reqs_[static_cast<size_t>(cur)].dest != in.dest) {
      fail(std::string(to_string(in.type)) + " for a request the model does not have: " + std::to_string(in.orig) +
           " -> " + std::to_string(in.dest));
      return out;
    }
    const int mi = new_msg(in.type, cur);
    Msg& m = msgs_[static_cast<size_t>(mi)];
    m.ms = in.ms;
    m.blocked = in.blocked;
    m.iv = in.iv;
    handle(h, mi);
    out_ = nullptr;
    return out;
  }
  const std::string& error() const { return s_.error; }
  const std::vector<std::pair<int, int>>& config_writes() const { return cfg_out_; }
  bool idle() {
    const std::string before = s_.error;
    check_idle_state();
    const bool ok = s_.error == before;
    s_.error = before;
    return ok;
  }

 private:
  std::vector<ClosMsg>* out_ = nullptr;
  std::vector<std::pair<int, int>> cfg_out_;  // driven: the step's writes (address, select or -1)
  // The hardware signals of a step: the configuration port's address of each crossbar output.
  void cfg(int addr, int sel) {
    if (out_) cfg_out_.emplace_back(addr, sel);
  }
  std::vector<int> cur_req_;  // driven: a leaf's current request

  void record(int to, int mi) {
    const Msg& m = msgs_[static_cast<size_t>(mi)];
    const Req& r = reqs_[static_cast<size_t>(m.req)];
    ClosMsg c;
    c.type = m.type;
    c.to = to;
    c.orig = r.orig;
    c.dest = r.dest;
    c.ms = m.ms;
    c.blocked = m.blocked;
    c.iv = m.iv;
    out_->push_back(std::move(c));
    free_msgs_.push_back(mi);
  }

  ClosHnodeOp* log_op(int h, ClosHnodeOpCode code) {
    if (!o_.log_hnode_ops) return nullptr;
    s_.hnode_ops.emplace_back();
    ClosHnodeOp& op = s_.hnode_ops.back();
    op.hnode = h;
    op.code = code;
    return &op;
  }

  void log_take(int leaf, int req, int kind, bool wait) {
    if (!o_.log_hnode_ops) return;
    ClosLeafOp op;
    op.hnode = hnode_of_switch(sw(leaf));
    op.leaf = (sw(leaf) / p_.hnodes()) * p_.n + port(leaf);
    op.req = req;
    op.kind = kind;
    op.wait = wait;
    s_.leaf_ops.push_back(op);
  }

  void log_switch_op(int h, ClosHnodeOpCode code, int global_sw, int ms) {
    if (ClosHnodeOp* op = log_op(h, code)) {
      op->sw = global_sw / p_.hnodes();
      op->ms = ms;
    }
  }

  void account_circuits() {
    circuit_area_ += static_cast<double>(circuits_) * (now_ - area_t_);
    area_t_ = now_;
  }

  void schedule_request(int leaf, double after) { push(now_ + after, Ev::kLeafRequest, leaf); }

  // (1) the leaf sends a CSR up its subtree.
  void leaf_request(int leaf) {
    if (s_.issued >= o_.requests) return;
    ++s_.issued;
    double t_gen = now_;
    if (o_.open_loop) {
      // A message to send: the leaf asks for one circuit at a time and keeps the rest in order.
      schedule_request(leaf, exp_time(o_.interarrival_us));
      if (own_active_[static_cast<size_t>(leaf)]) {
        backlog_[static_cast<size_t>(leaf)].push_back(now_);
        return;
      }
    }
    issue(leaf, t_gen);
  }

  void issue(int leaf, double t_gen) {
    own_active_[static_cast<size_t>(leaf)] = 1;
    std::uniform_int_distribution<size_t> pick(0, leaves_.size() - 2);
    size_t di = pick(rng_);
    const size_t self = static_cast<size_t>(std::find(leaves_.begin(), leaves_.end(), leaf) - leaves_.begin());
    if (di >= self) ++di;
    Req r;
    r.orig = leaf;
    r.dest = leaves_[di];
    r.up = r.orig < r.dest;
    r.t_issue = now_;
    r.t_gen = t_gen;
    r.tried.assign(static_cast<size_t>(p_.m), 0);
    r.hops = o_.tree_hops;
    reqs_.push_back(std::move(r));
    const int mi = new_msg(ClosMsgType::kCSR, static_cast<int>(reqs_.size() - 1));
    push(now_ + o_.tree_hops * o_.hop_us, Ev::kArrive, hnode_of_switch(sw(leaf)), mi);
  }

  void handle(int h, int mi) {
    Msg m = std::move(msgs_[static_cast<size_t>(mi)]);
    free_msgs_.push_back(mi);
    Req& r = reqs_[static_cast<size_t>(m.req)];
    switch (m.type) {
      case ClosMsgType::kCSR:
        origin_start(m.req);
        break;
      case ClosMsgType::kCR:
        at_dest_cr(m.req, std::move(m.iv));
        break;
      case ClosMsgType::kCO:
        at_middle_co(h, m.req, m.ms);
        break;
      case ClosMsgType::kCANCEL:
        at_dest_cancel(m.req, m.ms);
        break;
      case ClosMsgType::kRESEND:
        at_origin_resend(m.req, m.blocked);
        break;
      case ClosMsgType::kACK:
        at_origin_ack(m.req, m.ms);
        break;
      case ClosMsgType::kODCR:
        at_origin_odcr(m.req);
        break;
      case ClosMsgType::kIDCR:
        at_middle_idcr(m.req, m.ms);
        break;
      case ClosMsgType::kDDCR:
        at_dest_ddcr(m.req, m.ms);
        break;
      case ClosMsgType::kREADY:
        fail("READY handled by an hnode");
        break;
    }
    (void)r;
  }

  bool busy_for_other(int leaf, int req) const {
    const int h = holder_[static_cast<size_t>(leaf)];
    return h != kNone && h != req;
  }
  void acquire(int leaf, int req) {
    if (busy_for_other(leaf, req)) fail("leaf " + std::to_string(leaf_of(leaf)) + " taken twice");
    if (holder_[static_cast<size_t>(leaf)] == kNone) held_since_[static_cast<size_t>(leaf)] = now_;
    holder_[static_cast<size_t>(leaf)] = req;
  }

  void send_cr(int req) {
    Req& r = reqs_[static_cast<size_t>(req)];
    // The paper's race needs another CR of this input switch not yet acknowledged.
    int& out = outstanding_[static_cast<size_t>(sw(r.orig))];
    ++s_.crs_sent;
    if (out > 0) ++s_.crs_sent_while_outstanding;
    ++out;
    const int mi = new_msg(ClosMsgType::kCR, req);
    msgs_[static_cast<size_t>(mi)].iv = iv_[static_cast<size_t>(sw(r.orig))];
    if (ClosHnodeOp* op = log_op(h_o(r), ClosHnodeOpCode::kCr)) {
      op->sw = sw(r.orig) / p_.hnodes();
      op->iv = iv_[static_cast<size_t>(sw(r.orig))];
    }
    send(h_o(r), h_d(r), mi);
  }

  // (2) h_o: an up-going CR takes the originating leaf first; the others go to h_d at once.
  void origin_start(int req) {
    Req& r = reqs_[static_cast<size_t>(req)];
    if (r.up) {
      log_take(r.orig, req, 0, busy_for_other(ro(r), req));
      if (busy_for_other(ro(r), req)) {
        r.waited = true;
        waitq_[static_cast<size_t>(ro(r))].push_back({Waiting::kCrAtOrig, req});
        s_.max_waiting = std::max(s_.max_waiting, waitq_[static_cast<size_t>(ro(r))].size());
        return;
      }
      acquire(ro(r), req);
    }
    send_cr(req);
  }

  // (3) h_d: wait for the destination leaf or take it, then select a middle switch.
  void at_dest_cr(int req, std::vector<char> iv) {
    Req& r = reqs_[static_cast<size_t>(req)];
    r.iv = std::move(iv);
    std::fill(r.tried.begin(), r.tried.end(), 0);
    r.cancels = 0;
    r.cr_waited = false;
    log_take(r.dest, req, 1, busy_for_other(rd(r), req));
    if (busy_for_other(rd(r), req)) {
      r.waited = true;
      r.cr_waited = true;
      waitq_[static_cast<size_t>(rd(r))].push_back({Waiting::kCrAtDest, req});
      s_.max_waiting = std::max(s_.max_waiting, waitq_[static_cast<size_t>(rd(r))].size());
      return;
    }
    acquire(rd(r), req);
    select(req);
  }

  void select(int req) {
    Req& r = reqs_[static_cast<size_t>(req)];
    ++s_.selections;
    const size_t in_sw = static_cast<size_t>(sw(r.orig)), out_sw = static_cast<size_t>(sw(r.dest));
    const auto& ov = ov_[out_sw];
    int ms = kNone;
    // Ascending from the first middle switch h_d itself controls (the paper's reference order,
    // "ascending order of the id numbers of the nodes starting from h_d").
    int start = h_d(r) % p_.m;
    if (o_.select == ClosSelectStart::kPair) start = static_cast<int>((in_sw + out_sw) % static_cast<size_t>(p_.m));
    else if (o_.select == ClosSelectStart::kRandom) start = std::uniform_int_distribution<int>(0, p_.m - 1)(rng_);
    else if (o_.select == ClosSelectStart::kNearest) start = static_cast<int>((in_sw + out_sw) % static_cast<size_t>(p_.m));
    int best = 0;
    for (int i = 0; i < p_.m; ++i) {
      const int k = (start + i) % p_.m;
      const size_t kk = static_cast<size_t>(k);
      if (r.iv[kk] || ov[kk] || r.tried[kk]) continue;
      if (o_.select != ClosSelectStart::kNearest) {
        ms = k;
        break;
      }
      // d(h_d, h_m) + d(h_m, h_o): the CO's hops and the ACK's.
      const int hm = hnode_of_middle(k);
      const int d = std::popcount(static_cast<unsigned>(h_d(r) ^ hm)) + std::popcount(static_cast<unsigned>(hm ^ h_o(r)));
      if (ms == kNone || d < best) ms = k, best = d;
    }
    if (ClosHnodeOp* op = log_op(h_d(r), ClosHnodeOpCode::kSelect)) {
      op->sw = static_cast<int>(out_sw) / p_.hnodes();
      op->start = start;
      op->iv = r.iv;
      op->tried = r.tried;
      op->found = ms != kNone;
      op->res_ms = ms;
    }
    if (ms == kNone) {
      // Blocked as far as h_d can see. The oracle: had any middle switch a free input s-link (its
      // RelayTable) and a free output s-link (h_d's own OutputVector, exact: only h_d sets it)?
      ++s_.blocked;
      r.was_blocked = true;
      bool any_free = false;
      for (int k = 0; k < p_.m && !any_free; ++k)
        any_free = relay_in_[static_cast<size_t>(k)][in_sw] == kNone && !ov[static_cast<size_t>(k)];
      if (!any_free) ++s_.truly_blocked;
      release_leaf(rd(r));
      const int mi = new_msg(ClosMsgType::kRESEND, req);
      msgs_[static_cast<size_t>(mi)].blocked = true;
      send(h_d(r), h_o(r), mi);
      return;
    }
    r.ms = ms;
    ov_[out_sw][static_cast<size_t>(ms)] = 1;
    hw_.out_sel[out_sw][static_cast<size_t>(port(r.dest))] = ms;  // hardware signals to the output switch
    cfg(p_.out_cfg_base() + r.dest, ms);
    ++s_.cos;
    const bool retry = std::find(r.tried.begin(), r.tried.end(), 1) != r.tried.end();
    if (r.cr_waited) ++s_.cos_after_wait;
    else if (retry) ++s_.cos_retry;
    const int mi = new_msg(ClosMsgType::kCO, req);
    msgs_[static_cast<size_t>(mi)].ms = ms;
    send(h_d(r), hnode_of_middle(ms), mi);
  }

  // (4) h_m checks its RelayTable: connect and ACK h_o, or CANCEL back to h_d (the race).
  void at_middle_co(int h, int req, int ms) {
    Req& r = reqs_[static_cast<size_t>(req)];
    if (h != hnode_of_middle(ms)) fail("CO at the wrong hnode");
    const size_t k = static_cast<size_t>(ms), in_sw = static_cast<size_t>(sw(r.orig)),
                 out_sw = static_cast<size_t>(sw(r.dest));
    if (ClosHnodeOp* op = log_op(h, ClosHnodeOpCode::kCo)) {
      op->k = ms / p_.hnodes();
      op->ms = ms;
      op->in_sw = static_cast<int>(in_sw);
      op->out_sw = static_cast<int>(out_sw);
      op->accept = relay_in_[k][in_sw] == kNone && relay_out_[k][out_sw] == kNone;
    }
    if (relay_in_[k][in_sw] != kNone || relay_out_[k][out_sw] != kNone) {
      ++s_.cancels;
      const bool retry = std::find(r.tried.begin(), r.tried.end(), 1) != r.tried.end();
      if (r.cr_waited) ++s_.cancels_after_wait;
      else if (retry) ++s_.cancels_retry;
      else if (!r.raced_fresh) {
        r.raced_fresh = true;
        ++s_.requests_raced_fresh;
      }
      if (relay_out_[k][out_sw] != kNone) fail("output s-link conflict (OutputVector out of date)");
      if (!r.raced) ++s_.requests_raced;
      r.raced = true;
      const int mi = new_msg(ClosMsgType::kCANCEL, req);
      msgs_[static_cast<size_t>(mi)].ms = ms;
      send(h, h_d(r), mi);
      return;
    }
    relay_in_[k][in_sw] = req;
    relay_out_[k][out_sw] = req;
    hw_.mid_sel[k][out_sw] = static_cast<int>(in_sw);
    cfg(p_.mid_cfg_base() + ms * p_.r + static_cast<int>(out_sw), static_cast<int>(in_sw));
    const int mi = new_msg(ClosMsgType::kACK, req);
    msgs_[static_cast<size_t>(mi)].ms = ms;
    send(h, h_o(r), mi);
  }

  void at_dest_cancel(int req, int ms) {
    Req& r = reqs_[static_cast<size_t>(req)];
    const size_t out_sw = static_cast<size_t>(sw(r.dest)), k = static_cast<size_t>(ms);
    ov_[out_sw][k] = 0;
    log_switch_op(h_d(r), ClosHnodeOpCode::kClearOv, static_cast<int>(out_sw), ms);
    hw_.out_sel[out_sw][static_cast<size_t>(port(r.dest))] = kNone;
    cfg(p_.out_cfg_base() + r.dest, -1);
    r.ms = kNone;
    r.tried[k] = 1;
    if (++r.cancels > p_.cancel_limit) {
      ++s_.resends;
      send(h_d(r), h_o(r), new_msg(ClosMsgType::kRESEND, req));
      return;
    }
    select(req);
  }

  void at_origin_resend(int req, bool blocked) {
    Req& r = reqs_[static_cast<size_t>(req)];
    --outstanding_[static_cast<size_t>(sw(r.orig))];
    if (!blocked) {
      send_cr(req);  // start over with the current InputVector; h_d still holds the destination
      return;
    }
    if (holder_[static_cast<size_t>(ro(r))] == req) release_leaf(ro(r));
    // The timed re-try: a fresh CSR at h_o later.
    const int mi = new_msg(ClosMsgType::kCSR, req);
    --s_.messages[static_cast<int>(ClosMsgType::kCSR)];  // not a leaf's message: counted as RESEND
    if (out_) {
      record(h_o(r), mi);
      return;
    }
    push(now_ + o_.retry_us, Ev::kArrive, h_o(r), mi);
  }

  // (5) h_o: the InputVector bit, then (once it has the originating leaf) the input switch and READY.
  void at_origin_ack(int req, int ms) {
    Req& r = reqs_[static_cast<size_t>(req)];
    --outstanding_[static_cast<size_t>(sw(r.orig))];
    r.ms = ms;
    iv_[static_cast<size_t>(sw(r.orig))][static_cast<size_t>(ms)] = 1;
    log_switch_op(h_o(r), ClosHnodeOpCode::kAck, sw(r.orig), ms);
    log_take(r.orig, req, 2, busy_for_other(ro(r), req));
    if (!r.up && busy_for_other(ro(r), req)) {
      r.waited = true;
      waitq_[static_cast<size_t>(ro(r))].push_back({Waiting::kAckAtOrig, req});
      s_.max_waiting = std::max(s_.max_waiting, waitq_[static_cast<size_t>(ro(r))].size());
      return;
    }
    acquire(ro(r), req);
    connect(req);
  }

  void connect(int req) {
    Req& r = reqs_[static_cast<size_t>(req)];
    hw_.in_sel[static_cast<size_t>(sw(r.orig))][static_cast<size_t>(r.ms)] = port(r.orig);
    cfg(p_.in_cfg_base() + sw(r.orig) * p_.m + r.ms, port(r.orig));
    connected_[static_cast<size_t>(r.orig)] = r.dest;
    ++s_.messages[static_cast<int>(ClosMsgType::kREADY)];
    if (out_) {
      const int mi = new_msg(ClosMsgType::kREADY, req);
      msgs_[static_cast<size_t>(mi)].ms = r.ms;
      record(h_o(r), mi);
      return;
    }
    push(now_ + o_.tree_hops * o_.hop_us, Ev::kLeafReady, req);
  }

  // (6) the originating leaf has its circuit: check it against the switch settings.
  void leaf_ready(int req) {
    Req& r = reqs_[static_cast<size_t>(req)];
    r.hops += o_.tree_hops;
    ++s_.ready;
    const double lat = now_ - r.t_issue;
    s_.latency_us.push_back(lat);
    r.t_ready = now_;
    if (!r.waited && !r.raced && !r.was_blocked) {
      s_.direct_latency_us.push_back(lat);
      s_.direct_hops.push_back(r.hops);
    }
    if (r.waited) ++s_.waited;
    if (r.was_blocked) ++s_.requests_blocked;
    // The circuit, followed through the settings the hnodes wrote.
    const size_t u = static_cast<size_t>(sw(r.orig)), v = static_cast<size_t>(sw(r.dest)), k = static_cast<size_t>(r.ms);
    if (hw_.in_sel[u][k] != port(r.orig) || hw_.mid_sel[k][v] != static_cast<int>(u) ||
        hw_.out_sel[v][static_cast<size_t>(port(r.dest))] != r.ms)
      fail("circuit " + std::to_string(r.orig) + " -> " + std::to_string(r.dest) + " is not in the switch settings");
    if (holder_[static_cast<size_t>(ro(r))] != req || holder_[static_cast<size_t>(rd(r))] != req)
      fail("circuit established without both leaves");
    established_[static_cast<size_t>(r.orig)] = r.dest;
    account_circuits();
    s_.max_circuits = std::max(s_.max_circuits, ++circuits_);
    if (o_.full_trace_every > 0 && s_.ready % static_cast<uint64_t>(o_.full_trace_every) == 0) {
      const ClosTrace t = trace(p_, hw_);
      if (!t.error.empty()) fail(t.error);
      // Every input reaches exactly the output of its connected circuit (input switch set, not
      // yet released at h_o), or nothing: partial paths of set-ups and tear-downs reach no output.
      for (size_t i = 0; i < connected_.size(); ++i)
        if (t.reached[i] != connected_[i])
          fail("input " + std::to_string(i) + " reaches " + std::to_string(t.reached[i]) + ", its circuit goes to " +
               std::to_string(connected_[i]));
    }
    if (o_.snapshot_every > 0 && s_.ready % static_cast<uint64_t>(o_.snapshot_every) == 0 &&
        s_.snapshots.size() < o_.max_snapshots)
      s_.snapshots.push_back(ClosSnapshot{now_, connected_, hw_});
    push(now_ + exp_time(o_.hold_us), Ev::kLeafRelease, req);
  }

  // (7) the leaf releases its circuit: ODCR up the subtree.
  void leaf_release(int req) {
    Req& r = reqs_[static_cast<size_t>(req)];
    established_[static_cast<size_t>(r.orig)] = kNone;
    account_circuits();
    --circuits_;
    s_.delivery_us.push_back(now_ - r.t_gen);
    s_.hold_sum_us += now_ - r.t_ready;
    const int mi = new_msg(ClosMsgType::kODCR, req);
    push(now_ + o_.tree_hops * o_.hop_us, Ev::kArrive, h_o(r), mi);
    // Open loop: the leaf's next message asks for its circuit (r is not used after: issue() grows reqs_).
    const int orig = r.orig;
    own_active_[static_cast<size_t>(orig)] = 0;
    auto& b = backlog_[static_cast<size_t>(orig)];
    if (!b.empty()) {
      const double t = b.front();
      b.pop_front();
      issue(orig, t);
    }
  }

  // (8) h_o: free the input s-link, IDCR to h_m, the leaf to its WaitingQueue or idle.
  void at_origin_odcr(int req) {
    Req& r = reqs_[static_cast<size_t>(req)];
    const size_t u = static_cast<size_t>(sw(r.orig)), k = static_cast<size_t>(r.ms);
    iv_[u][k] = 0;
    log_switch_op(h_o(r), ClosHnodeOpCode::kOdcr, static_cast<int>(u), r.ms);
    hw_.in_sel[u][k] = kNone;
    cfg(p_.in_cfg_base() + static_cast<int>(u) * p_.m + r.ms, -1);
    connected_[static_cast<size_t>(r.orig)] = kNone;
    const int mi = new_msg(ClosMsgType::kIDCR, req);
    msgs_[static_cast<size_t>(mi)].ms = r.ms;
    send(h_o(r), hnode_of_middle(r.ms), mi);
    release_leaf(ro(r));
  }

  // (9) h_m: free the RelayTable entry, DDCR to h_d.
  void at_middle_idcr(int req, int ms) {
    Req& r = reqs_[static_cast<size_t>(req)];
    const size_t k = static_cast<size_t>(ms), in_sw = static_cast<size_t>(sw(r.orig)), out_sw = static_cast<size_t>(sw(r.dest));
    if (relay_in_[k][in_sw] != req || relay_out_[k][out_sw] != req) fail("IDCR for links the request does not hold");
    relay_in_[k][in_sw] = kNone;
    relay_out_[k][out_sw] = kNone;
    if (ClosHnodeOp* op = log_op(hnode_of_middle(ms), ClosHnodeOpCode::kIdcr)) {
      op->k = ms / p_.hnodes();
      op->ms = ms;
      op->in_sw = static_cast<int>(in_sw);
      op->out_sw = static_cast<int>(out_sw);
    }
    hw_.mid_sel[k][out_sw] = kNone;
    cfg(p_.mid_cfg_base() + ms * p_.r + static_cast<int>(out_sw), -1);
    const int mi = new_msg(ClosMsgType::kDDCR, req);
    msgs_[static_cast<size_t>(mi)].ms = ms;
    send(hnode_of_middle(ms), h_d(r), mi);
  }

  // (10) h_d: free the output s-link and the destination leaf. The request is over.
  void at_dest_ddcr(int req, int ms) {
    Req& r = reqs_[static_cast<size_t>(req)];
    const size_t v = static_cast<size_t>(sw(r.dest));
    ov_[v][static_cast<size_t>(ms)] = 0;
    log_switch_op(h_d(r), ClosHnodeOpCode::kClearOv, static_cast<int>(v), ms);
    hw_.out_sel[v][static_cast<size_t>(port(r.dest))] = kNone;
    cfg(p_.out_cfg_base() + r.dest, -1);
    release_leaf(rd(r));
    r.live = false;
    ++s_.torn_down;
    if (!o_.open_loop && !out_) schedule_request(r.orig, exp_time(o_.think_us));
  }

  // The busy bit goes to the first request in the leaf's WaitingQueue, or the leaf is idle.
  // `leaf`: the busy bit (ro / rd).
  void release_leaf(int leaf) {
    if (holder_[static_cast<size_t>(leaf)] != kNone) s_.leaf_busy_us += now_ - held_since_[static_cast<size_t>(leaf)];
    holder_[static_cast<size_t>(leaf)] = kNone;
    auto& q = waitq_[static_cast<size_t>(leaf)];
    if (o_.log_hnode_ops) {
      ClosLeafOp op;
      op.hnode = hnode_of_switch(sw(leaf_of(leaf)));
      op.leaf = (sw(leaf_of(leaf)) / p_.hnodes()) * p_.n + port(leaf_of(leaf));
      op.release = true;
      op.resume = !q.empty();
      if (!q.empty()) {
        op.res_req = q.front().req;
        op.res_kind = static_cast<int>(q.front().kind);
      }
      s_.leaf_ops.push_back(op);
    }
    if (q.empty()) return;
    const Waiting w = q.front();
    q.pop_front();
    acquire(leaf, w.req);
    switch (w.kind) {
      case Waiting::kCrAtOrig:
        send_cr(w.req);
        break;
      case Waiting::kCrAtDest:
        if (o_.resend_after_wait) {
          // The CR's InputVector is as old as its wait: ask h_o for a current one (the paper's
          // RESEND); the destination leaf stays taken by this request.
          ++s_.wait_resends;
          send(h_d(reqs_[static_cast<size_t>(w.req)]), h_o(reqs_[static_cast<size_t>(w.req)]),
               new_msg(ClosMsgType::kRESEND, w.req));
        } else {
          select(w.req);
        }
        break;
      case Waiting::kAckAtOrig:
        connect(w.req);
        break;
    }
  }

  void check_idle() {
    check_idle_state();
    if (!(hw_ == ClosSettings::empty(p_))) fail("switch settings are left after every tear-down");
  }
  void check_idle_state() {
    for (const auto& v : iv_)
      if (std::count(v.begin(), v.end(), 1)) fail("an InputVector bit is left set");
    for (const auto& v : ov_)
      if (std::count(v.begin(), v.end(), 1)) fail("an OutputVector bit is left set");
    for (const auto& v : relay_in_)
      if (std::count(v.begin(), v.end(), kNone) != static_cast<long>(v.size())) fail("a RelayTable entry is left");
    for (size_t i = 0; i < holder_.size(); ++i)
      if (holder_[i] != kNone || !waitq_[i].empty()) fail("leaf " + std::to_string(i) + " is left busy");
  }
};

}  // namespace

ClosSetupOptions clos_protocol_options(const ClosParams& p) {
  ClosSetupOptions o;
  o.select = p.select_pair ? ClosSelectStart::kPair : ClosSelectStart::kDest;
  o.resend_after_wait = p.resend_after_wait;
  return o;
}

struct ClosProtocolModel::Impl {
  Impl(const ClosParams& p, const ClosSetupOptions& o) : p(p), o(o), sim(this->p, this->o) {}
  ClosParams p;
  ClosSetupOptions o;
  SetupSim sim;
};

ClosProtocolModel::ClosProtocolModel(const ClosParams& p, const ClosSetupOptions& o) {
  validate(p, "clos");
  impl_ = std::make_unique<Impl>(p, o);
}
ClosProtocolModel::~ClosProtocolModel() = default;
std::vector<ClosMsg> ClosProtocolModel::handle(int hnode, const ClosMsg& m) { return impl_->sim.drive(hnode, m); }
const std::string& ClosProtocolModel::error() const { return impl_->sim.error(); }
bool ClosProtocolModel::idle() const { return impl_->sim.idle(); }
const std::vector<std::pair<int, int>>& ClosProtocolModel::config_writes() const { return impl_->sim.config_writes(); }

std::string ClosMsg::str() const {
  std::string s = to_string(type);
  s.append(" to ").append(std::to_string(to)).append(" ").append(std::to_string(orig)).append("->");
  s.append(std::to_string(dest)).append(" ms ").append(std::to_string(ms));
  if (blocked) s.append(" blocked");
  if (!iv.empty()) {
    s.append(" iv ");
    for (char c : iv) s.push_back(c ? '1' : '0');
  }
  return s;
}

ClosSetupStats run_clos_setup(const ClosParams& p, const ClosSetupOptions& opt) {
  validate(p, "clos");
  SetupSim sim(p, opt);
  return sim.run();
}

}  // namespace cmnet
