#include "sim/cm5data/cm5data_ni.h"

#include <algorithm>
#include <stdexcept>

#include "gen/core/errors.h"
#include "sim/cm5data/cm5data_traffic.h"

namespace cmnet {

Cm5DataNi::Cm5DataNi(const Cm5DataParams& p, uint32_t leaf, const Cm5DataNiConfig& cfg) : p_(p), leaf_(leaf) {
  send_cap_ = cfg.send_words;
  const int longest = p.message_flits(p.max_words);
  recv_cap_ = cfg.recv_flits > 0 ? cfg.recv_flits : p.buffer_flits() + 2 * longest;
  if (send_cap_ < p.message_words(p.max_words))
    throw ConfigError("ni: send_words = " + std::to_string(send_cap_) + " is less than the longest message (" +
                      std::to_string(p.message_words(p.max_words)) + " words)");
  if (recv_cap_ < longest)
    throw ConfigError("ni: recv_flits = " + std::to_string(recv_cap_) + " is less than the longest message (" +
                      std::to_string(longest) + " flits)");
  for (Side& s : side_) {
    s.credits = p.buffer_flits();
    s.net_credits = p.buffer_flits();
  }
}

bool Cm5DataNi::send(int side, uint32_t dst, int tag, const std::vector<uint32_t>& data) {
  Side& s = side_[side];
  Cm5DataMessage m;
  m.src = leaf_;
  m.dst = dst;
  m.len = static_cast<int>(data.size());
  m.tag = tag;
  m.data = data;
  check_cm5_traffic(Cm5DataTraffic{{m}}, p_, "ni send");
  if (cm5_refused(p_, m)) {
    ++s.cnt.address_errors;
    return false;
  }
  const std::vector<uint32_t> w = cm5_message_words(p_, m);
  if (static_cast<int>(s.send_fifo.size() + w.size()) > send_cap_) {
    ++s.cnt.refused;
    return false;
  }
  s.send_fifo.insert(s.send_fifo.end(), w.begin(), w.end());
  return true;
}

bool Cm5DataNi::can_receive(int side) const { return !side_[side].rx_msgs.empty(); }

Cm5DataNiMessage Cm5DataNi::peek(int side) const {
  const Side& s = side_[side];
  if (s.rx_msgs.empty()) throw std::logic_error("ni: nothing to receive");
  const int n = s.rx_msgs.front();
  const int FPW = p_.flits_per_word(), W = p_.link_bits;
  std::vector<uint32_t> words(static_cast<size_t>(n / FPW), 0);
  for (int k = 0; k < n; ++k) words[static_cast<size_t>(k / FPW)] |= s.rx[static_cast<size_t>(k)] << ((k % FPW) * W);
  Cm5DataNiMessage m;
  m.len = static_cast<int>(words[0] & 7u);
  m.tag = static_cast<int>((words[0] >> 8) & 15u);
  m.fell = (words[0] & 8u) != 0;
  m.data.assign(words.begin() + 1, words.end() - 1);
  m.crc = cm5_crc_status(words, W);
  m.src = m.data.empty() ? 0 : m.data[0];
  return m;
}

Cm5DataNiMessage Cm5DataNi::receive(int side) {
  Cm5DataNiMessage m = peek(side);
  Side& s = side_[side];
  const int n = s.rx_msgs.front();
  s.rx_msgs.pop_front();
  s.rx.erase(s.rx.begin(), s.rx.begin() + n);
  return m;
}

void Cm5DataNi::cycle(int side, Cm5DataNetwork& net) {
  Side& s = side_[side];
  const int FPW = p_.flits_per_word(), W = p_.link_bits;
  const uint32_t wmask = W == 32 ? 0xFFFFFFFFu : ((1u << W) - 1u);
  // Send a flit of the front message while the network has room for it.
  bool tx = false;
  uint32_t f = 0;
  if (net.tx_credit(leaf_)) ++s.credits;
  if (!s.send_fifo.empty() && s.credits > 0) {
    const int total = (static_cast<int>(s.send_fifo.front() & 7u) + 2) * FPW;
    f = (s.send_fifo[static_cast<size_t>(s.flit / FPW)] >> ((s.flit % FPW) * W)) & wmask;
    tx = true;
    --s.credits;
    if (s.flit == 0) ++s.cnt.sent;
    if (++s.flit == total) {
      s.send_fifo.erase(s.send_fifo.begin(), s.send_fifo.begin() + total / FPW);
      s.flit = 0;
    }
  }
  // Receive; a credit goes back while every flit the network may still send has room.
  if (net.rx_valid(leaf_)) {
    const uint32_t r = net.rx_data(leaf_);
    if (static_cast<int>(s.rx.size()) >= recv_cap_) throw std::logic_error("ni: receive FIFO overflow");
    if (s.rx_partial == 0) s.rx_total = (static_cast<int>(r & 7u) + 2) * FPW;
    s.rx.push_back(r);
    --s.net_credits;
    if (++s.rx_partial == s.rx_total) {
      s.rx_msgs.push_back(s.rx_total);
      ++s.cnt.received;
      // The tag is in the head word's bits [11:8]: flits from the back of rx.
      uint32_t head = 0;
      for (int k = 0; k < FPW; ++k) head |= s.rx[s.rx.size() - static_cast<size_t>(s.rx_total) + static_cast<size_t>(k)] << (k * W);
      std::vector<uint32_t> words(static_cast<size_t>(s.rx_total / FPW), 0);
      for (int k = 0; k < s.rx_total; ++k)
        words[static_cast<size_t>(k / FPW)] |= s.rx[s.rx.size() - static_cast<size_t>(s.rx_total) + static_cast<size_t>(k)] << ((k % FPW) * W);
      if (cm5_crc_status(words, W) != Cm5Crc::ok) ++s.cnt.crc_errors;
      if ((tag_mask >> ((head >> 8) & 15u)) & 1u) {
        interrupt = true;
        ++s.cnt.interrupts;
      }
      s.rx_partial = 0;
    }
  }
  const bool credit = s.net_credits < p_.buffer_flits() && static_cast<int>(s.rx.size()) + s.net_credits + 1 <= recv_cap_;
  if (credit) ++s.net_credits;
  net.drive(leaf_, tx, f, tx ? static_cast<int64_t>(leaf_) : -1, credit);
}

bool Cm5DataNi::idle() const {
  for (const Side& s : side_)
    if (!s.send_fifo.empty() || !s.rx.empty()) return false;
  return true;
}

namespace {
uint64_t mix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
}  // namespace

Cm5DataRoundTripResult run_cm5data_roundtrip(const Cm5DataParams& p, const Cm5DataRoundTripOptions& o) {
  const uint32_t N = p.leaves();
  // The right network: the same tree, its own LFSR seeds (a named choice: seed + 1).
  Cm5DataParams pr = p;
  pr.seed = (p.seed + 1) & 0xFFFFu;
  std::vector<Cm5DataNetwork> nets;
  nets.emplace_back(p);
  nets.emplace_back(pr);
  std::vector<Cm5DataNi> nis;
  for (uint32_t x = 0; x < N; ++x) nis.emplace_back(p, x, o.ni);
  const int reply_side = o.two_networks ? 1 : 0;
  // Data words: [0] sender, [1] kind (0 request, 1 reply), [2] the requester's serial.
  struct Proc {
    int next_req = 0;
    std::deque<std::pair<uint32_t, uint32_t>> replies;  // (to, serial) waiting for the send FIFO
    int answered = 0;
  };
  std::vector<Proc> procs(N);
  uint64_t s = o.seed;
  std::vector<std::vector<uint32_t>> dest(N);
  // Processors in the address space (mapped-out leaves neither ask nor are asked).
  std::vector<uint32_t> live;
  for (uint32_t x = 0; x < N; ++x)
    if (!p.leaf_mapped_out(x)) live.push_back(x);
  for (uint32_t x = 0; x < N; ++x) {
    if (p.leaf_mapped_out(x)) {
      procs[x].next_req = o.requests;
      continue;
    }
    // With partitions a processor asks only the processors it may address (its partition's).
    std::vector<uint32_t> mine;
    if (!p.partitions.empty())
      for (uint32_t y : live)
        if (y != x && p.may_address(x, y)) mine.push_back(y);
    for (int k = 0; k < o.requests; ++k) {
      uint32_t d = x;
      if (!mine.empty()) {
        d = mine[static_cast<size_t>(mix(s) % mine.size())];
      } else if (live.size() == N) {
        d = static_cast<uint32_t>(mix(s) % (N - 1));
        d = d >= x ? d + 1 : d;  // never itself
      } else {
        while (d == x) d = live[static_cast<size_t>(mix(s) % live.size())];
      }
      dest[x].push_back(d);
    }
  }
  Cm5DataRoundTripResult r;
  const uint64_t want = static_cast<uint64_t>(live.size()) * static_cast<uint64_t>(o.requests);
  uint64_t last_move = 0, last_hops = 0;
  for (uint64_t cyc = 0; cyc < o.max_cycles; ++cyc) {
    for (uint32_t x = 0; x < N; ++x) {
      Cm5DataNi& ni = nis[x];
      Proc& pc = procs[x];
      // Replies are always taken (the contract on the reply side); requests only while a reply
      // slot is free.
      // A request needs a free reply slot. On one network the processor cannot tell a request
      // from a reply without taking it, so it stops taking anything while its slots are full.
      auto take = [&](int side) {
        while (ni.can_receive(side)) {
          if (side == 0 && pc.replies.size() >= static_cast<size_t>(o.reply_slots)) break;
          const Cm5DataNiMessage m = ni.receive(side);
          if (m.data.size() < 3) throw std::logic_error("roundtrip: short message");
          if (m.data[1] == 1) {
            ++pc.answered;
            ++r.replies_received;
          } else {
            pc.replies.emplace_back(m.data[0], m.data[2]);
          }
        }
      };
      take(1);  // replies (nothing arrives there on one network)
      take(0);
      while (!pc.replies.empty() && ni.send(reply_side, pc.replies.front().first, 0, {x, 1u, pc.replies.front().second}))
        pc.replies.pop_front();
      if (pc.next_req < o.requests &&
          ni.send(0, dest[x][static_cast<size_t>(pc.next_req)], 0, {x, 0u, static_cast<uint32_t>(pc.next_req)})) {
        ++pc.next_req;
        ++r.requests_sent;
      }
    }
    for (int side = 0; side < 2; ++side) {
      for (uint32_t x = 0; x < N; ++x) nis[x].cycle(side, nets[static_cast<size_t>(side)]);
      nets[static_cast<size_t>(side)].step();
    }
    r.cycles = cyc + 1;
    if (r.replies_received == want) {
      r.completed = true;
      break;
    }
    const uint64_t hops = nets[0].flit_hops() + nets[1].flit_hops();
    if (hops != last_hops) {
      last_hops = hops;
      last_move = cyc;
    } else if (cyc - last_move >= o.stall_cycles) {
      r.deadlocked = true;
      break;
    }
  }
  for (uint32_t x = 0; x < N; ++x) {
    r.left.push_back(nis[x].counters(0));
    r.right.push_back(nis[x].counters(1));
  }
  r.left_chips = nets[0].counters();
  r.right_chips = nets[1].counters();
  return r;
}

}  // namespace cmnet
