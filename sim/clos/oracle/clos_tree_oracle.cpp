#include "sim/clos/oracle/clos_tree_oracle.h"

#include <bit>
#include <map>

namespace cmnet::clos_oracle {
namespace {

struct Tree {
  int depth = 0, per_tree = 1;
  std::vector<int> under;  // leaves under a node of each level (under[depth] = 1)
  explicit Tree(const TreeShape& s) : depth(static_cast<int>(s.degrees.size())), under(s.degrees.size() + 1, 1) {
    for (int l = depth - 1; l >= 0; --l) under[static_cast<size_t>(l)] = under[static_cast<size_t>(l) + 1] * s.degrees[static_cast<size_t>(l)];
    per_tree = under[0];
  }
  // Hops of the paper's route: {inside trees, between hnodes}.
  std::pair<int, int> hops(int src, int dst) const {
    if (dst < 0) return {depth, 0};
    const int ts = src / per_tree, td = dst / per_tree;
    if (ts != td) return {2 * depth, std::popcount(static_cast<unsigned>(ts ^ td))};
    int l = depth;  // the deepest level whose node holds both
    while (l > 0 && (src % per_tree) / under[static_cast<size_t>(l)] != (dst % per_tree) / under[static_cast<size_t>(l)]) --l;
    return {2 * (depth - l), 0};
  }
};

std::string dec(int64_t x) { return std::to_string(x); }

}  // namespace

std::vector<std::string> check_packets(const TreeShape& shape, const std::vector<Packet>& sent,
                                       const std::vector<PacketArrival>& arrived) {
  const Tree t(shape);
  std::vector<std::string> bad;
  std::map<uint64_t, size_t> of_payload;
  for (size_t i = 0; i < sent.size(); ++i) of_payload[sent[i].payload] = i;
  std::vector<int> times(sent.size(), 0);
  for (const PacketArrival& a : arrived) {
    const auto it = of_payload.find(a.payload);
    if (it == of_payload.end()) {
      bad.push_back("a packet no one sent arrived (payload " + dec(static_cast<int64_t>(a.payload)) + ")");
      continue;
    }
    const Packet& p = sent[it->second];
    const std::string what = "packet " + dec(static_cast<int64_t>(it->second)) + " (" + dec(p.src) + " -> " +
                             (p.dst < 0 ? std::string("its hnode") : dec(p.dst)) + ")";
    if (times[it->second]++) bad.push_back(what + ": arrived again");
    const bool ctl = p.dst < 0;
    const int want = ctl ? p.src / t.per_tree : p.dst;
    if (a.at_hnode != ctl || a.where != want)
      bad.push_back(what + ": arrived at " + (a.at_hnode ? "hnode " : "leaf ") + dec(a.where) + ", not at " +
                    (ctl ? "hnode " : "leaf ") + dec(want));
    if (a.src != p.src || (!ctl && a.dst != p.dst))
      bad.push_back(what + ": header arrived as " + dec(a.src) + " -> " + dec(a.dst));
    const auto [th, ch] = t.hops(p.src, p.dst);
    if ((a.tree_hops >= 0 && a.tree_hops != th) || (a.cube_hops >= 0 && a.cube_hops != ch))
      bad.push_back(what + ": " + dec(a.tree_hops) + " tree and " + dec(a.cube_hops) + " hypercube hops, the shortest route " +
                    dec(th) + " and " + dec(ch));
  }
  for (size_t i = 0; i < sent.size(); ++i)
    if (!times[i]) bad.push_back("packet " + dec(static_cast<int64_t>(i)) + " (" + dec(sent[i].src) + " -> " + dec(sent[i].dst) + "): never arrived");
  return bad;
}

}  // namespace cmnet::clos_oracle
