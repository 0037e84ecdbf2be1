#include "sim/cm5ctl/cm5ctl_model.h"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <string>

namespace cmnet {

using cm5::Packet;

uint64_t expected_result_count(const Cm5Workload& w) {
  return static_cast<uint64_t>(w.leaf.size()) * (w.multi_ops() + w.broadcasts());
}

uint64_t expected_result_count(const Cm5Workload& w, const Cm5Topology& t) {
  std::vector<uint64_t> bc(t.roots.size(), 0);
  for (size_t i = 0; i < t.part.size() && i < w.leaf.size(); ++i)
    if (t.part[i] >= 0)
      for (const Cm5Op& o : w.leaf[i]) bc[static_cast<size_t>(t.part[i])] += o.broadcast ? 1 : 0;
  uint64_t n = 0;
  for (size_t i = 0; i < t.part.size() && i < w.leaf.size(); ++i)
    if (t.part[i] >= 0) {
      for (const Cm5Op& o : w.leaf[i]) n += o.broadcast ? 0 : 1;
      n += bc[static_cast<size_t>(t.part[i])];
    }
  return n;
}

namespace {

// What a node (or a leaf) keeps for the way down.
struct Aside {
  uint8_t kind = 0, comb = 0;
  bool segd = false;
  bool f = false;     // the kept child's segment flag (leaf: its own segment bit)
  uint64_t v = 0;     // the kept child's value (unused at a leaf)
  bool abstained = false;  // leaf only
  bool rd = false;         // leaf only: a router-done round
  bool carry = false;      // node: the up carry this combination left (restored by a flush)
};

struct RootEntry {
  Packet p;  // what the root sends down as if it came from a parent (prefix or total)
  Aside e;   // the root's put-aside value
};

struct Sent {
  Cm5Op op;
  Aside e;
};

struct Leaf {
  std::deque<Cm5Op> cq, bq;  // outgoing FIFOs: combine (pushed, not sent), broadcast
  std::deque<Sent> inflight; // sent, result not back: kept for a flush
  bool stop = false;
  int ss_out = 0;            // broadcasts sent and not yet seen coming back
  Packet tx;                 // the packet on the up link this frame
  size_t next = 0;           // next op of the workload to push
  uint64_t last_push = 0;
  bool pushed_any = false;
  bool rd_wait = false;      // a router-done round is in the tree: no other combining operation goes
  size_t cnt_next = 0;       // the next counter event
  int64_t cnt = 0;           // the data network counter now
  bool halted = false;       // flushed, not restarted
  bool ep = false;           // flush epoch
  bool flushed_now = false;
  uint8_t gin = 0;           // global inputs now
  uint8_t gout = 0;          // global outputs
};

struct Node {
  std::deque<Packet> q[2];
  std::deque<Aside> aside;
  bool stop = false;
  Packet tx;                 // up link this frame
  Packet down[2];            // down links this frame
  std::deque<Packet> ssq;    // partition roots only
  std::deque<RootEntry> msq; // partition roots only
  bool ucarry = false;       // the carry of the last addition going up (multi-word additions)
  bool ccarry = false;       // the up carry after the last completed operation (a flush restores it)
  bool dcarry = false;       // and of the last one coming down (multi-word scans)
  bool ep = false;           // flush epoch
  uint8_t gl = 0, gr = 0, gp = 0;  // the last good global bits from each child and the parent
};

class Model {
 public:
  Model(const Cm5ctlParams& p, const Cm5Workload& w) : p_(p), w_(w), topo_(cm5_topology(p)) {
    n_ = p.leaves;
    h_ = p.height();
    W_ = p.word_bits;
    D_ = p.effective_queue_depth();
    M_ = p.stop_margin();
    leaves_.resize(static_cast<size_t>(n_));
    nodes_.resize(static_cast<size_t>(n_));  // index 1..N-1
    aside_cap_.resize(static_cast<size_t>(n_));
    for (int i = 1; i < n_; ++i) aside_cap_[static_cast<size_t>(i)] = p.aside_depth_at(h_ - floor_log2(i));
    leaf_aside_cap_ = p.aside_depth_at(0);
    up_mask_.assign(static_cast<size_t>(2 * n_), 0);
    down_mask_.assign(static_cast<size_t>(2 * n_), 0);
    lerr_.assign(static_cast<size_t>(2 * n_), false);
    r_.injected.resize(static_cast<size_t>(n_));
    // Alignment: when each end's frames start (the first whole frame after its alignment
    // packet came); without the packet, all from reset.
    const uint64_t never = ~0ull;
    run_u_.assign(static_cast<size_t>(2 * n_), p.alignment ? never : 0);
    run_d_ = run_u_;
    r_.aligned.assign(static_cast<size_t>(n_), p.alignment ? -1 : 0);
    if (p.alignment) {
      const uint64_t L = static_cast<uint64_t>(p.frame_lcm());
      auto up_to = [](uint64_t x, uint64_t m) { return (x + m - 1) / m * m; };
      std::vector<uint64_t> at(static_cast<size_t>(2 * n_), never);
      for (int k = 1; k < 2 * n_; ++k) {
        const size_t s = static_cast<size_t>(k);
        if (!used(k)) continue;
        if (is_root(k)) at[s] = 0;
        else if (at[s / 2] != never) at[s] = up_to(at[s / 2], L) + 5;  // the parent's packet: 5 cycles
        if (at[s] == never) continue;
        run_u_[s] = up_to(at[s], static_cast<uint64_t>(p.up_frame()));
        run_d_[s] = up_to(at[s], static_cast<uint64_t>(p.down_frame()));
        if (k >= n_) r_.aligned[static_cast<size_t>(k - n_)] = static_cast<int64_t>(at[s]);
      }
    }
    init_ = static_cast<uint64_t>(p.init_cycles());
  }

  Cm5RunResult run(const Cm5ModelOptions& opt) {
    const uint64_t want = expected_result_count(w_, topo_);
    const uint64_t drain = opt.drain_cycles ? opt.drain_cycles : 4ull * static_cast<uint64_t>(p_.packet_time());
    const int Tu = p_.up_frame(), Td = p_.down_frame();
    uint64_t done_at = 0;
    bool done = want == 0;
    uint64_t t = 0;
    for (; t < opt.max_cycles; ++t) {
      if (done && t >= done_at + drain && t >= opt.min_cycles) break;
      cycle(t, Tu, Td);
      if (!done && r_.results.size() >= want) {
        done = true;
        done_at = r_.results[want - 1].cycle;
      }
    }
    return finish(t);
  }

  // Leaf i's data network counter from cycle t on (the stepper: instead of the workload's events).
  void set_counter(int i, uint64_t t, int64_t v) {
    if (w_.counters.size() < static_cast<size_t>(n_)) w_.counters.resize(static_cast<size_t>(n_));
    w_.counters[static_cast<size_t>(i)].emplace_back(t, v);
  }
  const Cm5RunResult& result() const { return r_; }

  // The results presented before cycle t (what a harness stopped there sees).
  Cm5RunResult finish(uint64_t t) {
    while (!r_.results.empty() && r_.results.back().cycle >= t) r_.results.pop_back();
    while (!r_.globals.empty() && r_.globals.back().cycle >= t) r_.globals.pop_back();
    r_.cycles = t;
    r_.completed = r_.results.size() == expected_result_count(w_, topo_);
    if (!r_.results.empty()) r_.last_result_cycle = r_.results.back().cycle;
    return r_;
  }

  // One cycle.
  void cycle(uint64_t t, int Tu, int Td) {
    const bool up = t % static_cast<uint64_t>(Tu) == static_cast<uint64_t>(Tu - 1);
    const bool down = t % static_cast<uint64_t>(Td) == static_cast<uint64_t>(Td - 1);
    // 1. Pushes offered this cycle, accepted against the FIFOs' counts at the cycle's start.
    std::vector<std::pair<int, const Cm5Op*>> accepted;
    for (int i = 0; i < n_; ++i) {
      Leaf& L = leaves_[static_cast<size_t>(i)];
      L.flushed_now = false;
      const auto& ops = w_.leaf[static_cast<size_t>(i)];
      if (L.next >= ops.size()) continue;
      const Cm5Op& o = ops[L.next];
      if (t < o.release || (L.pushed_any && t <= L.last_push)) continue;
      const auto& fifo = o.broadcast ? L.bq : L.cq;
      if (static_cast<int>(fifo.size()) < p_.leaf_fifo_depth) accepted.emplace_back(i, &o);
    }
    // The leaves' global inputs from this cycle on.
    while (global_next_ < w_.globals.size() && w_.globals[global_next_].cycle <= t) {
      const Cm5GlobalIn& g = w_.globals[global_next_++];
      if (g.leaf < static_cast<uint32_t>(n_)) leaves_[g.leaf].gin = g.value & 7;
    }
    // Faults injected on the links this cycle: wire 0 carries bit (phase x width).
    while (flip_next_ < w_.flips.size() && w_.flips[flip_next_].cycle <= t) {
      const Cm5Flip& f = w_.flips[flip_next_++];
      if (f.cycle < t || f.link < 2 || f.link >= static_cast<uint32_t>(2 * n_)) continue;
      const int T = f.up ? Tu : Td, width = f.up ? p_.up_width : p_.down_width;
      // With the CM-5's frame, wire 0 carries the major stream's bit 4 x phase.
      const int per = p_.cm5_frame() ? cm5::kMajorWires : width;
      const int pos = static_cast<int>(t % static_cast<uint64_t>(T)) * per;
      if (pos < (p_.cm5_frame() ? 52 : p_.packet_bits())) (f.up ? up_mask_ : down_mask_)[f.link] ^= 1ull << pos;
    }
    if (up || down) {
      // 2. What the up tick reads that the down tick of the same cycle changes: registers.
      snap_stop_.resize(static_cast<size_t>(2 * n_));
      snap_aside_.resize(static_cast<size_t>(2 * n_));
      snap_ss_.resize(static_cast<size_t>(n_));
      snap_rd_.resize(static_cast<size_t>(n_));
      snap_ssq_.resize(static_cast<size_t>(n_));
      snap_lerr_ = lerr_;
      for (int i = 1; i < n_; ++i) {
        const Node& N = nodes_[static_cast<size_t>(i)];
        snap_stop_[static_cast<size_t>(i)] = N.stop;
        snap_aside_[static_cast<size_t>(i)] = is_root(i) ? N.msq.size() : N.aside.size();
        snap_ssq_[static_cast<size_t>(i)] = N.ssq.size();
      }
      for (int i = 0; i < n_; ++i) {
        const Leaf& L = leaves_[static_cast<size_t>(i)];
        snap_stop_[static_cast<size_t>(n_ + i)] = L.stop;
        snap_aside_[static_cast<size_t>(n_ + i)] = L.inflight.size();
        snap_ss_[static_cast<size_t>(i)] = L.ss_out;
        snap_rd_[static_cast<size_t>(i)] = L.rd_wait;
      }
      if (down) down_tick(t);
      if (up) up_tick(t);
    }
    // 3. The accepted pushes land; restarts take effect (a flush arriving in the same cycle wins).
    for (const auto& [i, o] : accepted) {
      Leaf& L = leaves_[static_cast<size_t>(i)];
      (o->broadcast ? L.bq : L.cq).push_back(*o);
      r_.injected[static_cast<size_t>(i)].push_back(t);
      L.last_push = t;
      L.pushed_any = true;
      ++L.next;
    }
    while (restart_next_ < w_.restarts.size() && w_.restarts[restart_next_].first <= t) {
      const auto& [c, leaf] = w_.restarts[restart_next_++];
      if (c == t && leaf < static_cast<uint32_t>(n_) && !leaves_[leaf].flushed_now) leaves_[leaf].halted = false;
    }
  }

 private:
  static int floor_log2(int x) {
    int l = 0;
    while (x > 1) {
      x >>= 1;
      ++l;
    }
    return l;
  }
  bool is_root(int k) const { return topo_.role[static_cast<size_t>(k)] == 2; }
  // Whether end k processes the up (down) frame that ends in cycle t: its frames have started.
  bool up_runs(int k, uint64_t t) const {
    const uint64_t r = run_u_[static_cast<size_t>(k)];
    return r != ~0ull && t + 1 >= r + static_cast<uint64_t>(p_.up_frame());
  }
  bool down_runs(int k, uint64_t t) const {
    const uint64_t r = run_d_[static_cast<size_t>(k)];
    return r != ~0ull && t + 1 >= r + static_cast<uint64_t>(p_.down_frame());
  }
  bool used(int k) const { return topo_.role[static_cast<size_t>(k)] != 0; }
  static bool is_flush(const Packet& x) { return x.type == cm5::kSingle && x.comb == cm5::kFlushComb; }

  // What arrives at the end of a frame on a link at receiver `k`: the packet sent, with the CRC
  // (crc_bits 8) and the bits the faults flipped; a wrong CRC makes it an idle packet and a
  // link error (`*ok` false), counted unless the sender is mapped out (`count` false).
  Packet receive(const Packet& sent, uint64_t* mask, int k, bool count, bool* ok) {
    if (p_.cm5_frame()) {  // the CM-5's 65 bits (cm5ctl_packet.h); the mask is on the major stream
      cm5::Frame f = cm5::to_frame(sent);
      f.major ^= *mask;
      *mask = 0;
      const Packet x = cm5::from_frame(f, ok);
      if (!*ok && count) {
        ++r_.faults.link_errors;
        lerr_[static_cast<size_t>(k)] = true;
      }
      return x;
    }
    const int pb = p_.payload_bits();
    uint64_t word = sent.pack();
    if (p_.crc_bits) word |= static_cast<uint64_t>(cm5::crc8(word, pb)) << pb;
    word ^= *mask;
    *mask = 0;
    const uint64_t payload = word & cm5::mask(pb);
    *ok = true;
    if (p_.crc_bits && cm5::crc8(payload, pb) != ((word >> pb) & 0xff)) {
      *ok = false;
      if (count) {
        ++r_.faults.link_errors;
        lerr_[static_cast<size_t>(k)] = true;
      }
      return Packet{};
    }
    return Packet::unpack(payload, W_);
  }

  // The up packet child `c` (heap index) sends this frame, as its parent receives it.
  Packet up_of(int c, bool* ok) {
    return receive(c >= n_ ? leaves_[static_cast<size_t>(c - n_)].tx : nodes_[static_cast<size_t>(c)].tx,
                   &up_mask_[static_cast<size_t>(c)], c / 2, used(c), ok);
  }
  // The down packet node or leaf `c` receives this frame.
  Packet down_of(int c, bool* ok) {
    return receive(nodes_[static_cast<size_t>(c / 2)].down[c % 2], &down_mask_[static_cast<size_t>(c)], c, true, ok);
  }

  Packet combine(const Packet& L, const Packet& R, Aside* e, bool* carry) const {
    const bool aL = L.type == cm5::kAbstain, aR = R.type == cm5::kAbstain;
    const Packet& base = aL ? R : L;
    Packet o;
    o.type = aL && aR ? cm5::kAbstain : cm5::kMulti;
    o.kind = base.kind;
    o.comb = base.comb;
    o.segd = base.segd;
    const uint8_t comb = base.kind == cm5::kSync ? cm5::kOr : base.comb;
    const uint64_t id = cm5::identity(comb, W_);
    const uint64_t vL = aL ? id : L.data, vR = aR ? id : R.data;
    const bool fL = !aL && L.seg, fR = !aR && R.seg;
    const bool mismatch = !aL && !aR && (L.kind != R.kind || L.comb != R.comb || L.segd != R.segd);
    bool ovf = false, cout = false;
    const bool cut = (base.kind == cm5::kScanFwd && base.segd && fR) || (base.kind == cm5::kScanBwd && base.segd && fL);
    if (base.kind == cm5::kScanFwd && base.segd && fR) o.data = vR;
    else if (base.kind == cm5::kScanBwd && base.segd && fL) o.data = vL;
    else o.data = cm5::apply(comb, vL, vR, W_, &ovf, *carry, &cout);
    *carry = cm5::is_add(comb) && !cut && cout;
    o.seg = fL || fR;
    o.ovf = (!aL && L.ovf) || (!aR && R.ovf) || ovf;
    o.err = (!aL && L.err) || (!aR && R.err) || mismatch;
    e->kind = base.kind;
    e->comb = base.comb;
    e->segd = base.segd;
    e->carry = *carry;
    if (base.kind == cm5::kScanFwd) {
      e->f = fL;
      e->v = vL;
    } else if (base.kind == cm5::kScanBwd) {
      e->f = fR;
      e->v = vR;
    }
    return o;
  }

  // A combining result from the parent (prefix or total) and the value put aside: the two
  // packets for the children.
  void split(const Packet& p, const Aside& e, bool underflow, bool* carry, Packet* left, Packet* right) const {
    Packet o;
    o.type = cm5::kMulti;
    o.kind = p.kind;
    o.comb = p.comb;
    o.segd = p.segd;
    o.ovf = p.ovf;
    o.err = p.err || underflow || e.kind != p.kind || e.comb != p.comb || e.segd != p.segd;
    o.data = p.data;
    *left = o;
    *right = o;
    const uint8_t comb = p.kind == cm5::kSync ? cm5::kOr : p.comb;
    const bool cut = p.segd && e.f;
    bool cout = false;
    const uint64_t pass = cut ? e.v : cm5::apply(comb, p.data, e.v, W_, nullptr, *carry, &cout);
    const bool scan = p.kind == cm5::kScanFwd || p.kind == cm5::kScanBwd;
    *carry = scan && cm5::is_add(comb) && !cut && cout;
    if (p.kind == cm5::kScanFwd) right->data = pass;
    if (p.kind == cm5::kScanBwd) left->data = pass;
  }

  // A flush passing node i on its way down.
  void flush_node(Node& N) {
    N.q[0].clear();
    N.q[1].clear();
    N.aside.clear();
    N.msq.clear();
    N.ucarry = N.ccarry;
    N.ep = !N.ep;
  }

  void leaf_down(int i, uint64_t t) {
    Leaf& L = leaves_[static_cast<size_t>(i)];
    bool ok = true;
    const Packet in = down_of(n_ + i, &ok);
    L.stop = in.fc;
    if (ok && in.g != L.gout) {
      L.gout = in.g;
      r_.globals.push_back({static_cast<uint32_t>(i), t + 1, in.g});
    }
    if (in.type == cm5::kSingle) {
      L.ss_out = std::max(0, L.ss_out - 1);
      Cm5Result r;
      r.leaf = static_cast<uint32_t>(i);
      r.cycle = t + 1;
      r.broadcast = true;
      r.kind = in.kind;
      r.comb = in.comb;
      r.data = in.data;
      r.ovf = in.ovf;
      r.err = in.err;
      r_.results.push_back(r);
      if (is_flush(in)) {
        // Everything not completed goes back in front of the queue, in order, until a restart.
        for (auto it = L.inflight.rbegin(); it != L.inflight.rend(); ++it) L.cq.push_front(it->op);
        r_.flushed_ops += L.inflight.size();
        L.inflight.clear();
        L.halted = true;
        L.flushed_now = true;
        L.ep = !L.ep;
        L.rd_wait = false;
      }
    } else if (in.type == cm5::kMulti || in.type == cm5::kAbstain) {
      Aside e;
      const bool under = L.inflight.empty();
      if (under) ++r_.faults.aside_underflows;
      else e = L.inflight.front().e;
      Cm5Result r;
      r.leaf = static_cast<uint32_t>(i);
      r.cycle = t + 1;
      r.kind = in.kind;
      r.comb = in.comb;
      const uint8_t comb = in.kind == cm5::kSync ? cm5::kOr : in.comb;
      const bool scan = in.kind == cm5::kScanFwd || in.kind == cm5::kScanBwd;
      r.data = scan && in.segd && e.f ? cm5::identity(comb, W_) : in.data;
      r.ovf = in.ovf;
      r.err = in.err || under || e.kind != in.kind || e.comb != in.comb || e.segd != in.segd;
      r.abstained = e.abstained;
      if (e.rd) {
        // Router-done: done when the counters summed to zero (or below: a message counted out
        // twice); otherwise the operation goes back to the head of the queue for another round.
        L.rd_wait = false;
        const int64_t sum = cm5::to_signed(in.data, W_);
        if (!(r.err || sum <= 0)) {
          L.cq.push_front(L.inflight.front().op);
          L.inflight.pop_front();
          return;
        }
        r.comb = cm5::kRouterDone;
        r.err = r.err || sum < 0;
      }
      if (!under) L.inflight.pop_front();
      r_.results.push_back(r);
    }
  }

  void down_tick(uint64_t t) {
    // Leaves first (they read their parents' down links before the parents change them).
    for (int i = 0; i < n_; ++i)
      if (down_runs(n_ + i, t)) leaf_down(i, t);
    // Nodes bottom-up.
    for (int i = n_ - 1; i >= 1; --i) {
      if (!used(i) || !down_runs(i, t)) continue;
      Node& N = nodes_[static_cast<size_t>(i)];
      Packet l, r;
      bool flush = false;
      uint8_t g = 0;
      if (is_root(i)) {
        g = static_cast<uint8_t>(N.gl | N.gr | (snap_lerr_[static_cast<size_t>(i)] ? 4 : 0));
        if (!N.ssq.empty()) {
          l = r = N.ssq.front();
          flush = is_flush(l);
          N.ssq.pop_front();
        } else if (!N.msq.empty()) {
          split(N.msq.front().p, N.msq.front().e, false, &N.dcarry, &l, &r);
          N.ccarry = N.msq.front().e.carry;
          N.msq.pop_front();
        }
      } else {
        bool ok = true;
        const Packet in = down_of(i, &ok);
        if (ok) N.gp = in.g;
        g = N.gp;
        N.stop = in.fc;
        if (in.type == cm5::kSingle) {
          l = r = in;
          flush = is_flush(in);
        } else if (in.type == cm5::kMulti || in.type == cm5::kAbstain) {
          Aside e;
          const bool under = N.aside.empty();
          if (under) ++r_.faults.aside_underflows;
          else {
            e = N.aside.front();
            N.aside.pop_front();
            N.ccarry = e.carry;
          }
          split(in, e, under, &N.dcarry, &l, &r);
        }
      }
      const int stop_at = D_ - M_;
      l.fc = static_cast<int>(N.q[0].size()) >= stop_at;
      r.fc = static_cast<int>(N.q[1].size()) >= stop_at;
      l.g = r.g = g;
      N.down[0] = used(2 * i) ? l : Packet{};
      N.down[1] = used(2 * i + 1) ? r : Packet{};
      if (flush) flush_node(N);
    }
  }

  // Leaf i's data network counter in cycle t (t never decreases).
  int64_t counter(int i, uint64_t t) {
    Leaf& L = leaves_[static_cast<size_t>(i)];
    if (static_cast<size_t>(i) >= w_.counters.size()) return 0;
    const auto& ev = w_.counters[static_cast<size_t>(i)];
    while (L.cnt_next < ev.size() && ev[L.cnt_next].first <= t) L.cnt = ev[L.cnt_next++].second;
    return L.cnt;
  }

  void up_tick(uint64_t t) {
    // Nodes top-down (each reads its children's links before they change), then the leaves.
    for (int i = 1; i < n_; ++i) {
      if (!used(i) || !up_runs(i, t)) continue;
      Node& N = nodes_[static_cast<size_t>(i)];
      const bool outL = !used(2 * i), outR = !used(2 * i + 1);
      bool okL = true, okR = true;
      const Packet L = up_of(2 * i, &okL);
      const Packet R = up_of(2 * i + 1, &okR);
      // Global bits: the last good ones from each child, and this node's hard errors.
      N.gl = outL ? 0 : (okL ? L.g : N.gl);
      N.gr = outR ? 0 : (okR ? R.g : N.gr);
      const uint8_t gup = static_cast<uint8_t>(N.gl | N.gr | (snap_lerr_[static_cast<size_t>(i)] ? 4 : 0));
      const bool ssL = !outL && L.type == cm5::kSingle, ssR = !outR && R.type == cm5::kSingle;
      const bool msL = !outL && (L.type == cm5::kMulti || L.type == cm5::kAbstain) && L.fc == N.ep;
      const bool msR = !outR && (R.type == cm5::kMulti || R.type == cm5::kAbstain) && R.fc == N.ep;
      const bool qL = !N.q[0].empty(), qR = !N.q[1].empty();
      const bool room = is_root(i) ? static_cast<int>(snap_aside_[static_cast<size_t>(i)]) < p_.root_queue_depth
                                   : static_cast<int>(snap_aside_[static_cast<size_t>(i)]) < aside_cap_[static_cast<size_t>(i)] &&
                                         !snap_stop_[static_cast<size_t>(i)];
      // A mapped-out child always has an abstain packet: the node proceeds without it.
      const bool fire = !ssL && !ssR && (outL || qL || msL) && (outR || qR || msR) && room;
      Packet out;
      if (fire) {
        // A mapped-out child abstains from the other child's operation.
        const Packet rl = qL ? N.q[0].front() : L, rr = qR ? N.q[1].front() : R;
        Packet hl = outL ? rr : rl, hr = outR ? rl : rr;
        if (outL) hl.type = cm5::kAbstain;
        if (outR) hr.type = cm5::kAbstain;
        Aside e;
        const Packet c = combine(hl, hr, &e, &N.ucarry);
        if (is_root(i)) {
          RootEntry re;
          re.e = e;
          re.p = c;
          re.p.type = cm5::kMulti;
          re.p.seg = false;
          const bool total = c.kind == cm5::kReduce || c.kind == cm5::kSync;
          if (!total) re.p.data = cm5::identity(c.kind == cm5::kSync ? cm5::kOr : c.comb, W_);
          N.msq.push_back(re);
          ++r_.root_fires;
        } else {
          out = c;
          N.aside.push_back(e);
        }
        if (qL) N.q[0].pop_front();
        if (qR) N.q[1].pop_front();
      }
      // What arrived and was not combined at once waits.
      for (int s = 0; s < 2; ++s) {
        const bool ms = s == 0 ? msL : msR;
        const bool had = s == 0 ? qL : qR;
        if (!ms || (fire && !had)) continue;
        if (static_cast<int>(N.q[s].size()) >= D_) {
          ++r_.faults.queue_overflows;
        } else {
          Packet x = s == 0 ? L : R;
          x.fc = false;
          N.q[s].push_back(x);
          r_.max_queue = std::max<uint64_t>(r_.max_queue, N.q[s].size());
        }
      }
      if (ssL || ssR) {
        Packet ss = ssL ? L : R;
        ss.err = ss.err || (ssL && ssR);
        ss.fc = false;
        if (is_root(i)) {
          if (static_cast<int>(snap_ssq_[static_cast<size_t>(i)]) < p_.broadcast_window) N.ssq.push_back(ss);
          else ++r_.faults.bcast_drops;
        } else {
          out = ss;
        }
      }
      if (!is_root(i)) {
        out.fc = N.ep;
        out.g = gup;
        N.tx = out;
      }
    }
    for (int i = 0; i < n_; ++i) {
      if (!up_runs(n_ + i, t)) continue;
      Leaf& L = leaves_[static_cast<size_t>(i)];
      const size_t s = static_cast<size_t>(n_ + i);
      Packet out;
      const bool init = t >= init_;  // before init_cycles: idle packets without global bits
      if (!init) {
        out.fc = L.ep;
        L.tx = out;
        continue;
      }
      if (!L.bq.empty() && snap_ss_[static_cast<size_t>(i)] < p_.broadcast_window) {
        const Cm5Op& o = L.bq.front();
        const bool flush = o.comb == cm5::kFlushComb;
        out.type = cm5::kSingle;
        out.kind = flush ? cm5::kSupervisor : o.kind & 3;
        out.comb = flush ? cm5::kFlushComb : 0;
        out.data = o.data & cm5::mask(W_);
        L.bq.pop_front();
        ++L.ss_out;
      } else if (!L.cq.empty() && !snap_stop_[s] && static_cast<int>(snap_aside_[s]) < leaf_aside_cap_ &&
                 !snap_rd_[static_cast<size_t>(i)] && !L.halted) {
        const Cm5Op& o = L.cq.front();
        Aside e;
        if (o.kind == cm5::kReduce && o.comb == cm5::kRouterDone) {
          // A router-done round: an ADD reduction of this interface's counter, now.
          out.type = cm5::kMulti;
          out.kind = cm5::kReduce;
          out.comb = cm5::kAdd;
          out.data = static_cast<uint64_t>(counter(i, t)) & cm5::mask(W_);
          e.kind = cm5::kReduce;
          e.comb = cm5::kAdd;
          e.rd = true;
          L.rd_wait = true;
        } else {
          const bool scan = o.kind == cm5::kScanFwd || o.kind == cm5::kScanBwd;
          out.type = o.abstain ? cm5::kAbstain : cm5::kMulti;
          out.kind = o.kind & 3;
          out.comb = o.kind == cm5::kSync ? cm5::kOr : (o.comb & 7);
          out.segd = scan && o.segmented;
          out.seg = out.segd && o.seg && !o.abstain;
          out.data = o.abstain ? 0 : (o.kind == cm5::kSync ? o.data & 1 : o.data & cm5::mask(W_));
          e.kind = out.kind;
          e.comb = out.comb;
          e.segd = out.segd;
          e.f = out.seg;
          e.abstained = o.abstain;
        }
        L.inflight.push_back({o, e});
        L.cq.pop_front();
      }
      out.fc = L.ep;
      out.g = static_cast<uint8_t>((L.gin & 3) | ((L.gin & 4) || snap_lerr_[s] ? 4 : 0));
      L.tx = out;
    }
  }

  const Cm5ctlParams& p_;
  Cm5Workload w_;  // a copy: the stepper adds counter events as it runs
  Cm5Topology topo_;
  int n_ = 0, h_ = 0, W_ = 0, D_ = 0, M_ = 0;
  std::vector<Leaf> leaves_;
  std::vector<Node> nodes_;
  std::vector<int> aside_cap_;
  int leaf_aside_cap_ = 0;
  std::vector<bool> snap_stop_;
  std::vector<size_t> snap_aside_;
  std::vector<int> snap_ss_;
  std::vector<bool> snap_rd_;
  std::vector<size_t> snap_ssq_;
  std::vector<bool> lerr_, snap_lerr_;         // sticky link errors per receiver (heap index)
  std::vector<uint64_t> run_u_, run_d_;        // the first whole up (down) frame of each end
  uint64_t init_ = 0;
  std::vector<uint64_t> up_mask_, down_mask_;  // bits flipped on each link this frame
  size_t flip_next_ = 0, restart_next_ = 0, global_next_ = 0;
  Cm5RunResult r_;
};

}  // namespace

uint64_t cm5ctl_global_settle(const Cm5ctlParams& p) {
  return static_cast<uint64_t>(2 * ((p.height() + 1) * (p.up_frame() + p.down_frame()) + 2) + 4 * p.packet_time());
}

Cm5RunResult run_cm5ctl_model(const Cm5ctlParams& p, const Cm5Workload& w, const Cm5ModelOptions& opt) {
  check_workload(w, cm5_topology(p));
  Model m(p, w);
  return m.run(opt);
}

struct Cm5ctlStepper::Impl {
  Impl(const Cm5ctlParams& params, const Cm5Workload& w) : p(params), m(p, w) {}  // m keeps a reference to p
  Cm5ctlParams p;
  Model m;
};

Cm5ctlStepper::Cm5ctlStepper(const Cm5ctlParams& p, const Cm5Workload& w) {
  check_workload(w, cm5_topology(p));
  m_ = std::make_unique<Impl>(p, w);
}
Cm5ctlStepper::~Cm5ctlStepper() = default;
Cm5ctlStepper::Cm5ctlStepper(Cm5ctlStepper&&) noexcept = default;

void Cm5ctlStepper::set_counter(uint32_t leaf, int64_t value) {
  if (leaf >= static_cast<uint32_t>(m_->p.leaves))
    throw std::invalid_argument("cm5ctl stepper: leaf " + std::to_string(leaf) + " out of range");
  m_->m.set_counter(static_cast<int>(leaf), t_, value);
}
void Cm5ctlStepper::step() { m_->m.cycle(t_++, m_->p.up_frame(), m_->p.down_frame()); }
const Cm5RunResult& Cm5ctlStepper::so_far() const { return m_->m.result(); }
Cm5RunResult Cm5ctlStepper::finish() const {
  Model copy = m_->m;
  return copy.finish(t_);
}

}  // namespace cmnet
