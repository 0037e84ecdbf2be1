#include "sim/cm1/oracle/cm1_oracle.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>

namespace cmnet::cm1_oracle {
namespace {

struct Bits {
  uint64_t vp = 0, data = 0;
  bool operator<(const Bits& o) const { return std::tie(vp, data) < std::tie(o.vp, o.data); }
  bool operator==(const Bits& o) const { return vp == o.vp && data == o.data; }
  bool within(const Bits& o) const { return (vp & ~o.vp) == 0 && (data & ~o.data) == 0; }
};

std::string hexnum(uint64_t v) {
  std::ostringstream s;
  s << std::hex << v;
  return s.str();
}

std::string hex(const Bits& b) {
  std::ostringstream s;
  s << "vp " << b.vp << " data 0x" << std::hex << b.data;
  return s.str();
}

// Exact OR-mode check for one processor: can the messages be split into one nonempty group per
// reception, each group's OR being that reception? Depth-first, message by message.
struct Partition {
  const std::vector<Bits>& msgs;
  const std::vector<Bits>& rx;
  std::vector<Bits> acc;
  std::vector<int> size;
  uint64_t steps = 0, budget;

  bool place(size_t i) {
    if (++steps > budget) return false;
    if (i == msgs.size()) {
      for (size_t r = 0; r < rx.size(); ++r)
        if (size[r] == 0 || !(acc[r] == rx[r])) return false;
      return true;
    }
    size_t empty = 0;  // receptions still empty must each get one of the messages left
    for (int s : size) empty += s == 0;
    if (empty > msgs.size() - i) return false;
    for (size_t r = 0; r < rx.size(); ++r) {
      if (!msgs[i].within(rx[r])) continue;
      const Bits keep = acc[r];
      acc[r] = {acc[r].vp | msgs[i].vp, acc[r].data | msgs[i].data};
      ++size[r];
      if (place(i + 1)) return true;
      --size[r];
      acc[r] = keep;
    }
    return false;
  }
};

void check_processor(uint32_t dst, const std::vector<Bits>& msgs, const std::vector<Received>& rx,
                     const DeliveryCycle& d, std::vector<std::string>& out) {
  const std::string who = "processor " + std::to_string(dst) + ": ";
  const size_t before = out.size();
  std::vector<Bits> got;
  for (const auto& r : rx) got.push_back({r.vp, r.data});
  std::map<uint64_t, int> per_petit;
  for (const auto& r : rx)
    if (++per_petit[r.petit] == 2) out.push_back(who + "two receptions in petit cycle " + std::to_string(r.petit));
  if (d.ejection == Ejection::kOnePerPetit) {
    std::vector<Bits> a = msgs, b = got;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a != b)
      out.push_back(who + std::to_string(msgs.size()) + " messages sent, " + std::to_string(rx.size()) +
                    " received, not the same VP-ADDRESS and DATA one for one");
    return;
  }
  if (got.size() > msgs.size() || (got.empty() != msgs.empty())) {
    out.push_back(who + std::to_string(got.size()) + " receptions for " + std::to_string(msgs.size()) + " messages");
    return;
  }
  for (const auto& m : msgs)
    if (std::none_of(got.begin(), got.end(), [&](const Bits& r) { return m.within(r); }))
      out.push_back(who + "message " + hex(m) + " is in no reception");
  for (const auto& r : got)
    if (std::none_of(msgs.begin(), msgs.end(), [&](const Bits& m) { return m.within(r); }))
      out.push_back(who + "reception " + hex(r) + " covers no message sent to it");
  if (out.size() != before) return;  // the exact split is only worth searching for a plausible one
  Partition p{msgs, got, std::vector<Bits>(got.size()), std::vector<int>(got.size(), 0), 0, d.search_budget};
  if (!p.place(0) && p.steps <= d.search_budget)
    out.push_back(who + "its receptions are not the ORs of a split of the " + std::to_string(msgs.size()) +
                  " messages sent to it");
}

// OR mode from a tally: is there a split of `words` into `groups` nonempty groups whose ORs XOR
// to `want` (low 32 bits)? Groups are numbered in order of first use (each split once).
struct TallySplit {
  const std::vector<uint64_t>& words;
  uint64_t want;
  size_t groups;
  std::vector<uint64_t> acc;
  uint64_t steps = 0, budget;

  bool place(size_t i, size_t used) {
    if (++steps > budget) return false;
    if (groups - used > words.size() - i) return false;  // too few messages left for the empty groups
    if (i == words.size()) {
      uint64_t x = 0;
      for (uint64_t a : acc) x ^= a;
      return (x & 0xffffffffu) == want;
    }
    for (size_t g = 0; g < std::min(used + 1, groups); ++g) {
      const uint64_t keep = acc[g];
      acc[g] |= words[i];
      if (place(i + 1, std::max(used, g + 1))) return true;
      acc[g] = keep;
    }
    return false;
  }
};

void check_tally(uint32_t proc, const std::vector<uint64_t>& words, const Tally& t, const TalliedCycle& d,
                 std::vector<std::string>& out) {
  const std::string who = "processor " + std::to_string(proc) + ": ";
  const uint64_t r = t.receptions, k = words.size(), n = d.petit_cycles;
  if (r > n) out.push_back(who + std::to_string(r) + " receptions in " + std::to_string(n) + " petit cycles (one a petit cycle)");
  // r distinct petit cycles of 0..n-1 (checked while the board's 32-bit sum cannot have wrapped).
  const uint64_t lo = r * (r - (r > 0)) / 2, hi = r <= n ? r * (n > 0 ? n - 1 : 0) - lo : ~0ull;
  if (r <= n && hi <= 0xffffffffu && (t.petit_sum < lo || t.petit_sum > hi))
    out.push_back(who + "petit cycles summing to " + std::to_string(t.petit_sum) + ", " + std::to_string(r) +
                  " distinct ones of 0.." + std::to_string(n ? n - 1 : 0) + " sum to " + std::to_string(lo) + ".." +
                  std::to_string(hi));
  uint64_t x = 0;
  for (uint64_t w : words) x ^= w;
  x &= 0xffffffffu;
  if (d.ejection == Ejection::kOnePerPetit) {
    if (r != k) out.push_back(who + std::to_string(r) + " receptions for " + std::to_string(k) + " messages (one each)");
    else if (t.xor_word != x)
      out.push_back(who + "check words XOR to 0x" + hexnum(t.xor_word) + ", its messages' to 0x" + hexnum(x));
    return;
  }
  if (r > k || (r == 0) != (k == 0)) {
    out.push_back(who + std::to_string(r) + " receptions for " + std::to_string(k) + " messages");
    return;
  }
  if (r == 0) return;
  TallySplit s{words, t.xor_word, static_cast<size_t>(r), std::vector<uint64_t>(static_cast<size_t>(r), 0), 0, d.search_budget};
  if (!s.place(0, 0) && s.steps <= d.search_budget)
    out.push_back(who + "check words XOR to 0x" + hexnum(t.xor_word) + ": no split of its " + std::to_string(k) +
                  " messages into " + std::to_string(r) + " ORed receptions gives that");
}

}  // namespace

std::vector<std::string> disagreements(const TalliedCycle& d) {
  std::vector<std::string> out;
  const size_t procs = d.processors.size();
  std::vector<std::vector<uint64_t>> to(procs);
  std::vector<uint64_t> from(procs, 0);
  for (const auto& m : d.sent) {
    if (m.src >= procs || m.dst >= procs) {
      out.push_back("a message from processor " + std::to_string(m.src) + " to " + std::to_string(m.dst) +
                    " on a machine of " + std::to_string(procs) + " processors");
      continue;
    }
    to[m.dst].push_back((m.data << d.vp_bits) | m.vp);
    ++from[m.src];
  }
  for (size_t p = 0; p < procs; ++p) {
    const std::string who = "processor " + std::to_string(p) + ": ";
    if (d.processors[p].injected != from[p])
      out.push_back(who + "injected " + std::to_string(d.processors[p].injected) + " messages, it has " +
                    std::to_string(from[p]) + " to send");
    if (from[p] > d.petit_cycles)
      out.push_back(who + "sent " + std::to_string(from[p]) + " messages in " + std::to_string(d.petit_cycles) +
                    " petit cycles (at most one a petit cycle)");
    check_tally(static_cast<uint32_t>(p), to[p], d.processors[p], d, out);
  }
  return out;
}

std::vector<std::string> disagreements(const DeliveryCycle& d) {
  std::vector<std::string> out;
  std::map<uint32_t, std::vector<Bits>> to;
  std::map<uint32_t, uint64_t> from;
  for (const auto& m : d.sent) {
    to[m.dst].push_back({m.vp, m.data});
    ++from[m.src];
  }
  std::map<uint32_t, std::vector<Received>> at;
  for (const auto& r : d.received) {
    at[r.dst].push_back(r);
    if (r.petit >= d.petit_cycles)
      out.push_back("processor " + std::to_string(r.dst) + ": a reception in petit cycle " + std::to_string(r.petit) +
                    " of a delivery cycle of " + std::to_string(d.petit_cycles));
  }
  for (const auto& [dst, rx] : at)
    if (!to.count(dst)) out.push_back("processor " + std::to_string(dst) + ": received, but nothing was sent to it");
  for (const auto& [dst, msgs] : to) check_processor(dst, msgs, at[dst], d, out);
  for (const auto& [src, n] : from)
    if (n > d.petit_cycles)
      out.push_back("processor " + std::to_string(src) + " sent " + std::to_string(n) + " messages in " +
                    std::to_string(d.petit_cycles) + " petit cycles (at most one a petit cycle)");
  return out;
}

}  // namespace cmnet::cm1_oracle
