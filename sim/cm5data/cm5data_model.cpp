#include "sim/cm5data/cm5data_model.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace cmnet {

uint16_t cm5_lfsr_step(uint16_t s) {
  const uint16_t bit = static_cast<uint16_t>(((s >> 15) ^ (s >> 13) ^ (s >> 12) ^ (s >> 10)) & 1u);
  return static_cast<uint16_t>((s << 1) | bit);
}

namespace {

// One 32-bit word into the CRC-32 (0x04C11DB7, MSB first).
uint32_t crc32_word(uint32_t crc, uint32_t w) {
  for (int b = 31; b >= 0; --b) {
    const uint32_t in = ((w >> b) & 1u) ^ (crc >> 31);
    crc = (crc << 1) ^ (in ? 0x04C11DB7u : 0u);
  }
  return crc;
}

// The other end of a chip port: a leaf, or a chip's port.
struct Peer {
  bool leaf = false;
  uint32_t id = 0;
  int port = 0;
};

// An input buffer: a ring of flits, each with the message it belongs to and whether it is a head.
struct Buffer {
  std::vector<uint32_t> flit;
  std::vector<int64_t> msg;
  std::vector<uint8_t> head;
  int first = 0, size = 0;
  void init(int cap) {
    flit.assign(static_cast<size_t>(cap), 0);
    msg.assign(static_cast<size_t>(cap), -1);
    head.assign(static_cast<size_t>(cap), 0);
  }
  int cap() const { return static_cast<int>(flit.size()); }
  size_t at(int k) const {
    const int i = first + k;
    return static_cast<size_t>(i >= cap() ? i - cap() : i);
  }
};

// A message slot of an input (slots mode): one whole message, written and read in order.
struct Slot {
  std::vector<uint32_t> flit;
  int64_t msg = -1;
  int total = 0;  // the message's flits (0: free)
  int wr = 0, rd = 0;
  bool started = false;  // granted an output (its flits leave in order from rd)
};

struct Chip {
  int level = 1, parents = 0, ports = 4;
  // slots mode: per input its slots, the slot being read (when busy), the round-robin pointer
  std::vector<std::vector<Slot>> sl;
  std::vector<int> as, sptr, ws;
  uint16_t lfsr = 0;
  std::vector<Peer> peer;
  std::vector<Buffer> buf;
  // inputs
  std::vector<uint8_t> busy, up, fall;
  std::vector<int> dest, left, sent, wr_left, wr_idx, crc_from;
  // CRC check of what leaves each input: the word being assembled, the CRC so far, the state
  // (0 matching, 1 complemented from some flit, 2 neither)
  std::vector<uint32_t> acc, crc;
  std::vector<uint8_t> cst;
  uint64_t afd_at = kCm5Never;
  int rot = 0;
  Cm5DataChipMapOut mo;
  std::vector<Cm5DataPortStats> stats;
  // request_stage 1: each input's request made in the cycle before (-1: none) and whether it falls
  std::vector<int> req_q, req_slot_q;
  std::vector<uint8_t> fall_q;
  // outputs
  std::vector<uint8_t> obusy;
  std::vector<int> credit, ptr;
  // registers seen by the neighbours, [cycle & 1]
  std::vector<uint8_t> out_valid[2], in_credit[2];
  std::vector<uint32_t> out_data[2];
  std::vector<int64_t> out_msg[2];
  uint8_t dirty[2] = {0, 0};  // out_valid / in_credit [k] may hold ones
  Cm5DataChipCounters cnt;
};

struct Leaf {
  std::vector<size_t> queue;  // messages in order
  size_t next = 0;
  int flit = 0;               // next flit of queue[next]
  std::vector<uint32_t> words;
  int credits = 0;
  bool rx_credit = false;  // a flit came in the last cycle: its credit goes back in this one
  // this cycle's flit on the leaf link
  bool tx_valid = false;
  uint32_t tx_data = 0;
  int64_t tx_msg = -1;
  // receiving
  int rx_flits = 0, rx_total = 0;
  std::vector<uint32_t> rx_words;
};

}  // namespace

struct Cm5DataNetwork::Impl {
  Cm5DataParams p;
  Cm5DataModelOptions opt;
  int W = 4, FPW = 8, D = 16;
  uint32_t wmask = 0xF, N = 0, NC = 0;
  int u_flit = 1, u_off = 0;
  int K = 0;  // slots per input (0: FIFO inputs)
  std::vector<Chip> chips;
  std::vector<uint32_t> leaf_chip;  // leaf x's chip
  // What the leaves drive in the current cycle.
  std::vector<uint8_t> leaf_tx_valid, leaf_rx_credit;
  std::vector<uint32_t> leaf_tx_data;
  std::vector<int64_t> leaf_tx_msg;
  uint64_t cyc = 0;
  uint64_t flit_hops = 0, kirchhoff_violations = 0, max_held = 0;
  // One chip's arbitration this cycle, per input: the output requested (-1: none), the slot
  // asking (slots mode), whether it falls, the output granted (-1: none).
  struct Arbitration {
    int req[8], req_slot[8], grant_in[8];
    uint8_t fall_in[8];
  };
  void step();
  int route(const Chip& ch, int i, uint32_t head, bool& fall) const;
  // The steps of one chip's cycle, in step()'s order.
  bool idle(const Chip& ch, int cur) const;
  void request(const Chip& ch, Arbitration& a) const;
  void request_slot(const Chip& ch, int i, Arbitration& a) const;
  void stage_requests(Chip& ch, Arbitration& a) const;
  void grant(const Chip& ch, Arbitration& a) const;
  void move(Chip& ch, int nxt);
  uint32_t outgoing_flit(Chip& ch, size_t si, uint32_t raw) const;
  void take_grants(Chip& ch, const Arbitration& a) const;
  void receive(Chip& ch, uint32_t c, int cur) const;
  void store_in_slot(Chip& ch, size_t sk, uint32_t f, int64_t m) const;
  void store_in_buffer(Chip& ch, size_t sk, uint32_t f, int64_t m) const;
  void count_port_stats(Chip& ch, const Arbitration& a, int nxt) const;
  void check_conservation(const Chip& ch);
};

// The output a head at input i asks for (-1: none, a climbing message with no unobstructed
// parent); fall: it falls (all-fall-down).
int Cm5DataNetwork::Impl::route(const Chip& ch, int i, uint32_t head, bool& fall) const {
  const uint32_t U = (head >> 4) & 15u;
  const int digit = static_cast<int>((head >> (12 + 2 * (ch.level - 1))) & 3u);
  fall = false;
  if ((head & 8u) || cyc >= ch.afd_at) {
    fall = true;
    return ((i < 4 ? i : i - 4) + ch.rot) % 4;
  }
  if (i < 4 && U != 0 && ch.parents > 0) {
    uint32_t out_mask = ch.mo.up_mask;
    const uint32_t dnode = (head >> 12) >> (2 * ch.level);
    for (const auto& e : ch.mo.down)
      if (e.first == dnode) out_mask |= e.second;
    int free_ports[4], n = 0;
    for (int q = 0; q < ch.parents; ++q)
      if (!ch.obusy[static_cast<size_t>(4 + q)] && ch.credit[static_cast<size_t>(4 + q)] > 0 && !((out_mask >> q) & 1u))
        free_ports[n++] = q;
    if (n == 0) return -1;
    const int rbits = (ch.lfsr >> (4 * (i % 4))) & 15;
    return 4 + free_ports[rbits % n];
  }
  return digit;
}

Cm5DataNetwork::Cm5DataNetwork(const Cm5DataParams& params, const Cm5DataModelOptions& opt) : m_(std::make_unique<Impl>()) {
  Impl& s = *m_;
  validate(params, "model");
  s.p = params;
  s.opt = opt;
  const Cm5DataParams& p = s.p;
  const int D = p.buffer_flits();
  s.W = p.link_bits;
  s.FPW = p.flits_per_word();
  s.D = D;
  s.wmask = s.W == 32 ? 0xFFFFFFFFu : ((1u << s.W) - 1u);
  s.N = p.leaves();
  s.NC = p.total_chips();
  s.u_flit = 4 / s.W;
  s.u_off = 4 % s.W;
  s.K = p.slots;
  const uint32_t N = s.N, NC = s.NC;
  std::vector<Chip>& chips = s.chips;
  // The tree.
  chips.resize(NC);
  for (uint32_t c = 0; c < NC; ++c) {
    Chip& ch = chips[c];
    const Cm5DataChipPos pos = cm5_chip_pos(p, c);
    ch.level = pos.level;
    ch.parents = p.parents_at(pos.level);
    ch.ports = 4 + ch.parents;
    const size_t n = static_cast<size_t>(ch.ports);
    ch.lfsr = cm5_chip_seed(p.seed, c);
    ch.peer.resize(n);
    ch.buf.resize(n);
    for (auto& b : ch.buf) b.init(s.K > 0 ? 1 : D);
    if (s.K > 0) {
      ch.sl.assign(n, std::vector<Slot>(static_cast<size_t>(s.K)));
      for (auto& v : ch.sl)
        for (auto& sl : v) sl.flit.assign(static_cast<size_t>(p.slot_flits()), 0);
      ch.as.assign(n, 0);
      ch.ws.assign(n, 0);
      ch.sptr.assign(n, 0);
    }
    ch.busy.assign(n, 0);
    ch.req_q.assign(n, -1);
    ch.req_slot_q.assign(n, -1);
    ch.fall_q.assign(n, 0);
    ch.up.assign(n, 0);
    ch.fall.assign(n, 0);
    ch.wr_idx.assign(n, 0);
    ch.crc_from.assign(n, 0);
    ch.acc.assign(n, 0);
    ch.crc.assign(n, 0);
    ch.cst.assign(n, 0);
    if (c < opt.afd_at.size()) ch.afd_at = opt.afd_at[c];
    ch.rot = cm5_afd_rot(p.seed, c);
    ch.mo = cm5_chip_mapout(p, c);
    ch.dest.assign(n, 0);
    ch.left.assign(n, 0);
    ch.sent.assign(n, 0);
    ch.wr_left.assign(n, 0);
    ch.obusy.assign(n, 0);
    ch.credit.assign(n, p.link_credits());
    ch.ptr.assign(n, 0);
    for (int k = 0; k < 2; ++k) {
      ch.out_valid[k].assign(n, 0);
      ch.in_credit[k].assign(n, 0);
      ch.out_data[k].assign(n, 0);
      ch.out_msg[k].assign(n, -1);
    }
    ch.cnt.in.assign(n, 0);
    ch.cnt.out.assign(n, 0);
  }
  for (uint32_t x = 0; x < N; ++x) {
    Chip& ch = chips[cm5_chip_id(p, 1, x / 4, 0)];
    ch.peer[x % 4] = Peer{true, x, 0};
  }
  for (int l = 1; l < p.height; ++l) {
    const int pl = p.parents_at(l);
    for (uint32_t n = 0; n < p.nodes_at(l); ++n)
      for (int j = 0; j < p.chips_per_node(l); ++j)
        for (int q = 0; q < pl; ++q) {
          const uint32_t a = cm5_chip_id(p, l, n, j), b = cm5_chip_id(p, l + 1, n / 4, j * pl + q);
          chips[a].peer[static_cast<size_t>(4 + q)] = Peer{false, b, static_cast<int>(n % 4)};
          chips[b].peer[n % 4] = Peer{false, a, 4 + q};
        }
  }
  s.leaf_chip.resize(N);
  for (uint32_t x = 0; x < N; ++x) s.leaf_chip[x] = cm5_chip_id(p, 1, x / 4, 0);
  s.leaf_tx_valid.assign(N, 0);
  s.leaf_rx_credit.assign(N, 0);
  s.leaf_tx_data.assign(N, 0);
  s.leaf_tx_msg.assign(N, -1);
}

Cm5DataNetwork::~Cm5DataNetwork() = default;
Cm5DataNetwork::Cm5DataNetwork(Cm5DataNetwork&&) noexcept = default;

const Cm5DataParams& Cm5DataNetwork::params() const { return m_->p; }
uint64_t Cm5DataNetwork::cycle() const { return m_->cyc; }
bool Cm5DataNetwork::tx_credit(uint32_t x) const {
  return m_->chips[m_->leaf_chip[x]].in_credit[m_->cyc & 1][x % 4] != 0;
}
bool Cm5DataNetwork::rx_valid(uint32_t x) const {
  return m_->chips[m_->leaf_chip[x]].out_valid[m_->cyc & 1][x % 4] != 0;
}
uint32_t Cm5DataNetwork::rx_data(uint32_t x) const { return m_->chips[m_->leaf_chip[x]].out_data[m_->cyc & 1][x % 4]; }
int64_t Cm5DataNetwork::rx_msg(uint32_t x) const { return m_->chips[m_->leaf_chip[x]].out_msg[m_->cyc & 1][x % 4]; }
void Cm5DataNetwork::drive(uint32_t x, bool tx_valid, uint32_t tx_data, int64_t tx_msg, bool rx_credit) {
  m_->leaf_tx_valid[x] = tx_valid;
  m_->leaf_tx_data[x] = tx_data;
  m_->leaf_tx_msg[x] = tx_msg;
  m_->leaf_rx_credit[x] = rx_credit;
}
void Cm5DataNetwork::step() {
  m_->step();
  for (uint32_t x = 0; x < m_->N; ++x) {
    m_->leaf_tx_valid[x] = 0;
    m_->leaf_rx_credit[x] = 0;
  }
}
uint64_t Cm5DataNetwork::flit_hops() const { return m_->flit_hops; }
uint64_t Cm5DataNetwork::kirchhoff_violations() const { return m_->kirchhoff_violations; }
uint64_t Cm5DataNetwork::max_held() const { return m_->max_held; }
std::vector<std::vector<Cm5DataPortStats>> Cm5DataNetwork::port_stats() const {
  std::vector<std::vector<Cm5DataPortStats>> v;
  for (const auto& ch : m_->chips) v.push_back(ch.stats);
  return v;
}

std::vector<Cm5DataChipCounters> Cm5DataNetwork::counters() const {
  std::vector<Cm5DataChipCounters> v;
  for (const auto& ch : m_->chips) v.push_back(ch.cnt);
  return v;
}

void Cm5DataNetwork::Impl::step() {
  const int cur = static_cast<int>(cyc & 1), nxt = cur ^ 1;
  Arbitration a;
  for (uint32_t c = 0; c < NC; ++c) {
    Chip& ch = chips[c];
    // A chip with nothing buffered, nothing allocated and nothing arriving (no flit, no
    // credit) only steps its LFSR: skip the rest (exactly what the full step would do).
    if (!opt.check_every_cycle && !opt.link_stats && idle(ch, cur)) {
      if (ch.dirty[nxt]) {
        std::fill(ch.out_valid[nxt].begin(), ch.out_valid[nxt].end(), 0);
        std::fill(ch.in_credit[nxt].begin(), ch.in_credit[nxt].end(), 0);
        ch.dirty[nxt] = 0;
      }
      if (p.request_stage) std::fill(ch.req_q.begin(), ch.req_q.end(), -1);  // nothing asked this cycle
      ch.lfsr = cm5_lfsr_step(ch.lfsr);
      continue;
    }
    ch.dirty[nxt] = 1;
    request(ch, a);
    if (p.request_stage) stage_requests(ch, a);
    grant(ch, a);
    move(ch, nxt);
    take_grants(ch, a);
    receive(ch, c, cur);
    ch.lfsr = cm5_lfsr_step(ch.lfsr);
    if (opt.link_stats) count_port_stats(ch, a, nxt);
    if (opt.check_every_cycle) check_conservation(ch);
  }
  ++cyc;
}

bool Cm5DataNetwork::Impl::idle(const Chip& ch, int cur) const {
  bool quiet = true;
  for (int k = 0; k < ch.ports && quiet; ++k) {
    const size_t sk = static_cast<size_t>(k);
    if (ch.busy[sk] || ch.buf[sk].size) quiet = false;
    if (K > 0)
      for (const Slot& sl : ch.sl[sk]) quiet = quiet && sl.total == 0;
    const Peer& pe = ch.peer[sk];
    if (pe.leaf) {
      if (leaf_tx_valid[pe.id] || leaf_rx_credit[pe.id]) quiet = false;
    } else {
      const Chip& o = chips[pe.id];
      const size_t op = static_cast<size_t>(pe.port);
      if (o.out_valid[cur][op] || o.in_credit[cur][op]) quiet = false;
    }
  }
  return quiet;
}

// 1. Requests, from the state at the start of the cycle.
void Cm5DataNetwork::Impl::request(const Chip& ch, Arbitration& a) const {
  for (int i = 0; i < ch.ports; ++i) {
    a.req[i] = -1;
    a.grant_in[i] = -1;
    a.fall_in[i] = 0;
    a.req_slot[i] = -1;
    const Buffer& b = ch.buf[static_cast<size_t>(i)];
    if (ch.busy[static_cast<size_t>(i)]) continue;
    if (K > 0) {
      request_slot(ch, i, a);
      continue;
    }
    if (b.size < FPW) continue;
    uint32_t head = 0;
    for (int k = 0; k < FPW; ++k) head |= b.flit[b.at(k)] << (k * W);
    bool fl = false;
    a.req[i] = route(ch, i, head, fl);
    a.fall_in[i] = fl;
  }
}

// request_stage 1: the arbiter sees the requests made in the cycle before, of the inputs still
// not allocated (one granted then is busy now); this cycle's wait for the next.
void Cm5DataNetwork::Impl::stage_requests(Chip& ch, Arbitration& a) const {
  for (int i = 0; i < ch.ports; ++i) {
    const size_t si = static_cast<size_t>(i);
    const int now = a.req[i], slot_now = a.req_slot[i];
    const uint8_t fall_now = a.fall_in[i];
    a.req[i] = ch.busy[si] ? -1 : ch.req_q[si];
    a.req_slot[i] = ch.req_slot_q[si];
    a.fall_in[i] = ch.fall_q[si];
    ch.req_q[si] = now;
    ch.req_slot_q[si] = slot_now;
    ch.fall_q[si] = fall_now;
  }
}

// Slots: the first slot of input i, from the pointer, whose head word is in and whose output is
// free with a credit (for a climbing message: some unobstructed parent).
void Cm5DataNetwork::Impl::request_slot(const Chip& ch, int i, Arbitration& a) const {
  for (int k = 0; k < K && a.req[i] < 0; ++k) {
    const int sidx = (ch.sptr[static_cast<size_t>(i)] + k) % K;
    const Slot& sl = ch.sl[static_cast<size_t>(i)][static_cast<size_t>(sidx)];
    if (sl.total == 0 || sl.started || sl.wr < FPW) continue;
    uint32_t head = 0;
    for (int f = 0; f < FPW; ++f) head |= sl.flit[static_cast<size_t>(f)] << (f * W);
    bool fl = false;
    const int o = route(ch, i, head, fl);
    if (o < 0) continue;
    if (o < 4 || fl) {
      if (ch.obusy[static_cast<size_t>(o)] || ch.credit[static_cast<size_t>(o)] == 0) continue;
    }
    a.req[i] = o;
    a.fall_in[i] = fl;
    a.req_slot[i] = sidx;
  }
}

// 2. Round-robin grants on the free outputs.
void Cm5DataNetwork::Impl::grant(const Chip& ch, Arbitration& a) const {
  const int NI = ch.ports;
  for (int o = 0; o < NI; ++o) {
    if (ch.obusy[static_cast<size_t>(o)]) continue;
    for (int k = 0, i = ch.ptr[static_cast<size_t>(o)]; k < NI; ++k, i = i + 1 == NI ? 0 : i + 1) {
      if (a.req[i] == o) {
        a.grant_in[i] = o;
        break;
      }
    }
  }
}

// 3. Moves: every allocated input with a flit and a credit at its output.
void Cm5DataNetwork::Impl::move(Chip& ch, int nxt) {
  const int NI = ch.ports;
  for (int o = 0; o < NI; ++o) {
    ch.out_valid[nxt][static_cast<size_t>(o)] = 0;
    ch.in_credit[nxt][static_cast<size_t>(o)] = 0;
  }
  for (int i = 0; i < NI; ++i) {
    const size_t si = static_cast<size_t>(i);
    Buffer& b = ch.buf[si];
    if (!ch.busy[si]) continue;
    const size_t o = static_cast<size_t>(ch.dest[si]);
    Slot* sl = K > 0 ? &ch.sl[si][static_cast<size_t>(ch.as[si])] : nullptr;
    if (sl ? sl->rd == sl->wr : (b.size == 0 || ch.credit[o] == 0)) continue;  // slots: the credit was taken at the grant
    const uint32_t raw = sl ? sl->flit[static_cast<size_t>(sl->rd)] : b.flit[b.at(0)];
    ch.out_valid[nxt][o] = 1;
    ch.out_data[nxt][o] = outgoing_flit(ch, si, raw);
    if (ch.sent[si] == 0) ++ch.cnt.out[o];
    if (sl) {
      ch.out_msg[nxt][o] = sl->msg;
      ++sl->rd;
    } else {
      ch.out_msg[nxt][o] = b.msg[b.at(0)];
      b.head[b.at(0)] = 0;
      b.first = b.first + 1 == b.cap() ? 0 : b.first + 1;
      --b.size;
      ch.in_credit[nxt][si] = 1;
      --ch.credit[o];
    }
    ++ch.sent[si];
    ++flit_hops;
    if (--ch.left[si] == 0) {
      ch.busy[si] = 0;
      ch.obusy[o] = 0;
      if (sl) {  // the slot is free: its credit goes back
        sl->total = sl->wr = sl->rd = 0;
        sl->started = false;
        sl->msg = -1;
        ch.in_credit[nxt][si] = 1;
      }
    }
  }
}

// The flit input si sends for the buffered flit raw: the up-count decremented on the way up, the
// fall bit on a falling head, and the CRC word checked and replaced.
uint32_t Cm5DataNetwork::Impl::outgoing_flit(Chip& ch, size_t si, uint32_t raw) const {
  uint32_t f = raw;
  if (ch.up[si] && ch.sent[si] == u_flit) f = (f - (1u << u_off)) & wmask;
  if (ch.fall[si] && ch.sent[si] == 0) f |= 8u;
  // CRC: assemble the words that leave; the CRC word's flits are checked and replaced.
  const int pos = ch.sent[si] % FPW;
  if (ch.sent[si] < ch.crc_from[si]) {
    const uint32_t acc = W == 32 ? raw : (ch.acc[si] >> W) | (raw << (32 - W));
    ch.acc[si] = acc;
    if (pos == FPW - 1) ch.crc[si] = crc32_word(ch.crc[si], ch.sent[si] < FPW ? acc & kCm5HeadCrcMask : acc);
  } else {
    const uint32_t pf = (ch.crc[si] >> (pos * W)) & wmask, nf = ~pf & wmask;
    if (ch.cst[si] == 0 && raw != pf) ch.cst[si] = raw == nf ? 1 : 2;
    else if (ch.cst[si] == 1 && raw != nf) ch.cst[si] = 2;
    f = ch.cst[si] == 0 ? pf : nf;
    if (ch.left[si] == 1) {
      if (ch.cst[si] == 1) ++ch.cnt.crc_secondary;
      if (ch.cst[si] == 2) ++ch.cnt.crc_primary;
    }
  }
  return f;
}

// 4. The grants take effect.
void Cm5DataNetwork::Impl::take_grants(Chip& ch, const Arbitration& a) const {
  const int NI = ch.ports;
  for (int i = 0; i < NI; ++i) {
    const int o = a.grant_in[i];
    if (o < 0) continue;
    const size_t si = static_cast<size_t>(i);
    const Buffer& b = ch.buf[si];
    int len = 0;
    if (K > 0) {
      Slot& sl = ch.sl[si][static_cast<size_t>(a.req_slot[i])];
      sl.started = true;
      len = static_cast<int>(sl.flit[0] & 7u);
      ch.as[si] = a.req_slot[i];
      ch.sptr[si] = (a.req_slot[i] + 1) % K;
      --ch.credit[static_cast<size_t>(o)];  // a slot of the receiver, for the whole message
    } else {
      len = static_cast<int>(b.flit[b.at(0)] & 7u);
    }
    ch.busy[si] = 1;
    ch.up[si] = o >= 4;
    ch.fall[si] = a.fall_in[i];
    ch.dest[si] = o;
    ch.left[si] = (len + 2) * FPW;
    ch.crc_from[si] = (len + 1) * FPW;
    ch.sent[si] = 0;
    ch.crc[si] = 0xFFFFFFFFu;
    ch.cst[si] = 0;
    ch.obusy[static_cast<size_t>(o)] = 1;
    ch.ptr[static_cast<size_t>(o)] = (i + 1) % NI;
  }
}

// 5. Credits and flits from the neighbours (their registers at the start of the cycle).
void Cm5DataNetwork::Impl::receive(Chip& ch, uint32_t c, int cur) const {
  const bool fault_here = p.fault.on && p.fault.chip == c;
  for (int k = 0; k < ch.ports; ++k) {
    const size_t sk = static_cast<size_t>(k);
    const Peer& pe = ch.peer[sk];
    bool v;
    uint32_t f;
    int64_t m;
    if (pe.leaf) {
      ch.credit[sk] += leaf_rx_credit[pe.id];
      v = leaf_tx_valid[pe.id];
      f = leaf_tx_data[pe.id];
      m = leaf_tx_msg[pe.id];
    } else {
      const Chip& o = chips[pe.id];
      const size_t op = static_cast<size_t>(pe.port);
      ch.credit[sk] += o.in_credit[cur][op];
      v = o.out_valid[cur][op];
      f = o.out_data[cur][op];
      m = o.out_msg[cur][op];
    }
    if (!v) continue;
    const int idx = ch.wr_left[sk] == 0 ? 0 : ch.wr_idx[sk];
    if (fault_here && k == p.fault.port && idx == p.fault.flit) f ^= p.fault.mask;
    ch.wr_idx[sk] = idx + 1;
    if (K > 0) store_in_slot(ch, sk, f, m);
    else store_in_buffer(ch, sk, f, m);
  }
}

void Cm5DataNetwork::Impl::store_in_slot(Chip& ch, size_t sk, uint32_t f, int64_t m) const {
  std::vector<Slot>& v = ch.sl[sk];
  if (ch.wr_left[sk] == 0) {  // a head: the first free slot takes the message
    int k = 0;
    while (k < K && v[static_cast<size_t>(k)].total != 0) ++k;
    if (k == K) throw std::logic_error("cm5data model: no free slot (flow control broken)");
    ch.ws[sk] = k;
    v[static_cast<size_t>(k)].total = (static_cast<int>(f & 7u) + 2) * FPW;
    v[static_cast<size_t>(k)].msg = m;
    ++ch.cnt.in[sk];
    ch.wr_left[sk] = (static_cast<int>(f & 7u) + 2) * FPW;
  }
  Slot& sl = v[static_cast<size_t>(ch.ws[sk])];
  sl.flit[static_cast<size_t>(sl.wr++)] = f;
  --ch.wr_left[sk];
}

void Cm5DataNetwork::Impl::store_in_buffer(Chip& ch, size_t sk, uint32_t f, int64_t m) const {
  Buffer& b = ch.buf[sk];
  if (b.size == b.cap()) throw std::logic_error("cm5data model: input buffer overflow (flow control broken)");
  const size_t at = b.at(b.size);
  b.flit[at] = f;
  b.msg[at] = m;
  b.head[at] = ch.wr_left[sk] == 0;
  ++b.size;
  if (ch.wr_left[sk] == 0) {
    ++ch.cnt.in[sk];
    ch.wr_left[sk] = (static_cast<int>(f & 7u) + 2) * FPW;
  }
  --ch.wr_left[sk];
}

// What each output port did this cycle (Cm5DataModelOptions::link_stats).
void Cm5DataNetwork::Impl::count_port_stats(Chip& ch, const Arbitration& a, int nxt) const {
  const int NI = ch.ports;
  if (ch.stats.empty()) ch.stats.resize(static_cast<size_t>(NI));
  for (int o = 0; o < NI; ++o) {
    const size_t so = static_cast<size_t>(o);
    Cm5DataPortStats& st = ch.stats[so];
    int owner = -1;
    for (int i = 0; i < NI; ++i)
      if (ch.busy[static_cast<size_t>(i)] && ch.dest[static_cast<size_t>(i)] == o) owner = i;
    bool granted_now = false;
    for (int i = 0; i < NI; ++i) granted_now = granted_now || a.grant_in[i] == o;
    if (ch.out_valid[nxt][so]) ++st.moving;
    else if (granted_now) ++st.granting;
    else if (owner < 0) ++st.free;
    else if (ch.credit[so] == 0) ++st.no_credit;
    else ++st.no_flit;
  }
}

// Kirchhoff: messages in minus messages out = heads held in the buffers.
void Cm5DataNetwork::Impl::check_conservation(const Chip& ch) {
  uint64_t in = 0, out = 0, held = 0;
  for (int k = 0; k < ch.ports; ++k) {
    in += ch.cnt.in[static_cast<size_t>(k)];
    out += ch.cnt.out[static_cast<size_t>(k)];
    const Buffer& b = ch.buf[static_cast<size_t>(k)];
    for (int j = 0; j < b.size; ++j) held += b.head[b.at(j)];
    if (K > 0)
      for (const Slot& sl : ch.sl[static_cast<size_t>(k)]) held += sl.total > 0 && sl.rd == 0;
  }
  if (in != out + held) ++kirchhoff_violations;
  max_held = std::max(max_held, held);
}

Cm5DataRunResult run_cm5data_model(const Cm5DataParams& p, const Cm5DataTraffic& t, const Cm5DataModelOptions& opt) {
  validate(p, "model");
  check_cm5_traffic(t, p, "model traffic");
  const int W = p.link_bits, FPW = p.flits_per_word();
  const uint32_t wmask = W == 32 ? 0xFFFFFFFFu : ((1u << W) - 1u);
  const uint32_t N = p.leaves();
  Cm5DataNetwork net(p, opt);
  std::vector<Leaf> leaves(N);
  for (auto& lf : leaves) lf.credits = p.link_credits();
  const bool slots = p.slots > 0;  // credits are slots: one per message, taken at its first flit
  Cm5DataRunResult r;
  r.deliveries.resize(t.messages.size());
  for (size_t i = 0; i < t.messages.size(); ++i) {
    if (cm5_refused(p, t.messages[i])) {
      r.deliveries[i].refused = true;
      ++r.refused;
    } else {
      leaves[t.messages[i].src].queue.push_back(i);
    }
  }
  const auto t0 = std::chrono::steady_clock::now();
  for (uint64_t cyc = 0; cyc < opt.max_cycles; ++cyc) {
    // Leaves: what each sends this cycle, its credits, what it receives.
    for (uint32_t x = 0; x < N; ++x) {
      Leaf& lf = leaves[x];
      lf.tx_valid = false;
      bool head_now = false;
      if (lf.next < lf.queue.size() && (lf.credits > 0 || (slots && lf.flit > 0))) {
        const size_t m = lf.queue[lf.next];
        if (t.messages[m].inject_at <= cyc) {
          if (lf.flit == 0) {
            head_now = true;
            lf.words = cm5_message_words(p, t.messages[m]);
            r.deliveries[m].sent = cyc;
            ++r.leaf_injected;
          }
          const int wi = lf.flit / FPW, sh = (lf.flit % FPW) * W;
          lf.tx_valid = true;
          lf.tx_data = (lf.words[static_cast<size_t>(wi)] >> sh) & wmask;
          lf.tx_msg = static_cast<int64_t>(m);
          ++r.flit_hops;
          if (++lf.flit == static_cast<int>(lf.words.size()) * FPW) {
            lf.flit = 0;
            ++lf.next;
          }
        }
      }
      lf.credits += (net.tx_credit(x) ? 1 : 0) - (lf.tx_valid && (!slots || head_now) ? 1 : 0);
      // Receive.
      const bool rx_credit = lf.rx_credit;
      // FIFO links: a credit per flit taken; slots: one when a message's last flit is in.
      lf.rx_credit = net.rx_valid(x) && (!slots || (lf.rx_flits > 0 && lf.rx_flits + 1 == lf.rx_total));
      net.drive(x, lf.tx_valid, lf.tx_data, lf.tx_msg, rx_credit);
      if (net.rx_valid(x)) {
        const uint32_t f = net.rx_data(x);
        if (lf.rx_flits == 0) {
          lf.rx_total = (static_cast<int>(f & 7u) + 2) * FPW;
          lf.rx_words.assign(static_cast<size_t>(lf.rx_total / FPW), 0);
        }
        lf.rx_words[static_cast<size_t>(lf.rx_flits / FPW)] |= f << ((lf.rx_flits % FPW) * W);
        if (++lf.rx_flits == lf.rx_total) {
          const int64_t m = net.rx_msg(x);
          if (m < 0) throw std::logic_error("cm5data model: a flit without a message");
          Cm5DataDelivery& d = r.deliveries[static_cast<size_t>(m)];
          if (d.copies++ == 0) {
            d.delivered = true;
            d.arrived = cyc;
            d.at_leaf = x;
            d.words = lf.rx_words;
            d.crc = cm5_crc_status(d.words, W);
            d.crc_ok = d.crc == Cm5Crc::ok;
            ++r.delivered;
          }
          lf.rx_flits = 0;
        }
      }
    }
    net.step();
    r.cycles = cyc + 1;
    if (opt.stop_when_done && r.delivered + r.refused == t.messages.size()) {
      r.completed = true;
      break;
    }
  }
  r.completed = r.delivered + r.refused == t.messages.size();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.flit_hops += net.flit_hops();
  r.kirchhoff_violations = net.kirchhoff_violations();
  r.max_held = net.max_held();
  r.chips = net.counters();
  if (opt.link_stats) r.port_stats = net.port_stats();
  return r;
}

}  // namespace cmnet
