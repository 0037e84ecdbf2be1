#include "sim/cm5/oracle/cm5_oracle.h"

#include <map>
#include <tuple>

#include "sim/cm5ctl/oracle/cm5ctl_oracle.h"

namespace cmnet::cm5_oracle {
namespace {

using Key = std::tuple<uint32_t, int, int, std::vector<uint32_t>>;  // leaf, side, tag, data

std::string describe(const Key& k) {
  std::string s = "leaf " + std::to_string(std::get<0>(k)) + (std::get<1>(k) ? " right" : " left") + ", tag " +
                  std::to_string(std::get<2>(k)) + ", data {";
  for (size_t i = 0; i < std::get<3>(k).size(); ++i) s += (i ? " " : "") + std::to_string(std::get<3>(k)[i]);
  return s + "}";
}

void check_reads(const Machine& m, const Run& r, std::vector<std::string>& out) {
  std::map<Key, int> want;  // + sent, - read
  for (const auto& x : m.sent) ++want[{x.dst, x.side, x.tag, x.data}];
  for (const auto& x : r.reads) {
    --want[{x.leaf, x.side, x.tag, x.data}];
    if (!x.crc_ok) out.push_back("a read at leaf " + std::to_string(x.leaf) + " with a failing CRC");
  }
  for (const auto& [k, n] : want) {
    if (n > 0) out.push_back(describe(k) + ": sent " + std::to_string(n) + " more time(s) than read");
    if (n < 0) out.push_back(describe(k) + ": read " + std::to_string(-n) + " more time(s) than sent");
  }
}

// Each leaf's count: + a message its processor sent, - one whole at its interface, a lost one
// not counted, a duplicated one counted twice.
std::vector<int64_t> counts(const Machine& m, const Run& r) {
  std::vector<int64_t> c(m.leaves, 0);
  for (const auto& x : m.sent) ++c.at(x.src);
  for (const auto& x : r.reads) --c.at(x.leaf);
  for (const auto& f : m.faults) c.at(f.leaf) += f.duplicate ? -1 : 1;
  return c;
}

void check_router_done(const Machine& m, const Run& r, const std::vector<int64_t>& c, std::vector<std::string>& out) {
  cm5ctl_oracle::Input in;
  in.leaves = static_cast<int>(m.leaves);
  in.combining.resize(1);
  for (uint32_t l = 0; l < m.leaves; ++l) {
    cm5ctl_oracle::LeafInput li;
    li.kind = cm5ctl_oracle::Kind::kRouterDone;
    li.messages = c[l];
    in.combining[0].leaf.push_back(li);
  }
  cm5ctl_oracle::Options opt;
  opt.word_bits = m.word_bits;
  const cm5ctl_oracle::Output o = cm5ctl_oracle::evaluate(in, opt);
  int64_t sum = 0;
  for (int64_t x : c) sum += x;
  std::map<uint32_t, const RouterDone*> got;
  for (const auto& x : r.router_done)
    if (!got.emplace(x.leaf, &x).second) out.push_back("leaf " + std::to_string(x.leaf) + ": router-done twice");
  for (uint32_t l = 0; l < m.leaves; ++l) {
    const auto& want = o.combining.at(l);
    const std::string who = "leaf " + std::to_string(l) + ": router-done ";
    if (want.empty() != !got.count(l)) {
      out.push_back(who + (want.empty() ? "completed, but a message is missing from the counts (it never completes)"
                                        : "never completed, but every message is accounted for"));
      continue;
    }
    if (want.empty()) continue;
    const RouterDone& g = *got[l];
    if (g.error != want[0].error) out.push_back(who + (want[0].error ? "without" : "with") + " the error bit, wrongly");
    if (g.sum != sum) out.push_back(who + "sum " + std::to_string(g.sum) + ", the counts give " + std::to_string(sum));
  }
}

}  // namespace

std::vector<std::string> disagreements(const Machine& m, const Run& r) {
  std::vector<std::string> out;
  for (const auto& x : m.sent)
    if (x.src >= m.leaves || x.dst >= m.leaves) return {"a message between leaves outside the machine"};
  for (const auto& x : r.reads)
    if (x.leaf >= m.leaves) return {"a read at leaf " + std::to_string(x.leaf) + ", outside the machine"};
  check_reads(m, r, out);
  const std::vector<int64_t> c = counts(m, r);
  if (!r.counters.empty()) {
    for (uint32_t l = 0; l < m.leaves && l < r.counters.size(); ++l)
      if (r.counters[l] != c[l])
        out.push_back("leaf " + std::to_string(l) + ": its interface counted " + std::to_string(r.counters[l]) +
                      ", the messages give " + std::to_string(c[l]));
  }
  if (r.router_done_pushed) check_router_done(m, r, c, out);
  return out;
}

}  // namespace cmnet::cm5_oracle
