// The clos functional oracle (sim/clos/oracle) on cases worked by hand from the paper (no RTL):
// the paper's V = InputVector OR OutputVector example, routings that keep or break the s-links'
// exclusivity and the refusal rules of Clos's two properties, settings traced port to port, data
// words delivered or corrupted, and a set-up over time with each kind of fault put in.
#include "sim/clos/oracle/clos_oracle.h"
#include "sim/clos/oracle/clos_tree_oracle.h"

#include <gtest/gtest.h>

#include "tests/clos/clos_oracle_check.h"

namespace cmnet::clos_oracle {
namespace {

const Net kN224{2, 2, 4};  // N(2, 2, 4): ports 0..7, input/output switch of port x = x / 2

bool has(const std::vector<std::string>& v, const std::string& what) {
  for (const auto& s : v)
    if (s.find(what) != std::string::npos) return true;
  return false;
}

// The paper: InputVector 01001100 (s-links to middles 2, 3, 6 taken), OutputVector 11001010
// (1, 3, 6, 7): V = 11001110, so 0, 4 and 5 are free.
TEST(ClosOracle, ThePapersSelectionExample) {
  const Net net{8, 8, 8};
  const std::vector<char> v = {0, 1, 1, 1, 0, 0, 1, 1};  // bit k = middle k, V's bits read from the right
  for (int k : {0, 4, 5}) EXPECT_TRUE(check_selection(net, v, true, k).empty()) << k;
  for (int k : {1, 2, 3, 6, 7}) EXPECT_FALSE(check_selection(net, v, true, k).empty()) << k;
  EXPECT_FALSE(check_selection(net, v, true, 8).empty());
  EXPECT_TRUE(check_selection(net, v, false, -1).empty());  // "none": V alone does not say (the OutputVector is h_d's)
}

TEST(ClosOracle, RoutingsKeepTheSLinksExclusive) {
  const Options o;
  // 0 -> 7 and 2 -> 5 through middle 0 (different input and output switches), 1 -> 6 through 1.
  EXPECT_TRUE(check_routing(kN224, {{0, 7, 0}, {2, 5, 0}, {1, 6, 1}}, o).empty());
  // 0 and 1 share input switch 0: both through middle 0 share its input s-link.
  const auto in = check_routing(kN224, {{0, 7, 0}, {1, 4, 0}}, o);
  ASSERT_EQ(in.size(), 1u);
  EXPECT_TRUE(has(in, "circuit 1 (1 -> 4): input s-link (input switch 0, middle 0) already carries circuit 0")) << in[0];
  // 6 and 7 share output switch 3.
  EXPECT_TRUE(has(check_routing(kN224, {{0, 7, 1}, {2, 6, 1}}, o), "output s-link (middle 1, output switch 3)"));
  // Two circuits from one port, a middle out of range.
  EXPECT_TRUE(has(check_routing(kN224, {{0, 7, 0}, {0, 6, 1}}, o), "input port 0 is already the source"));
  EXPECT_TRUE(has(check_routing(kN224, {{0, 7, 2}}, o), "middle switch 2 out of range"));
}

TEST(ClosOracle, RefusalsFollowClossProperties) {
  Options o;
  // m = n: every pairing routes when the router rearranges; a refusal is a fault.
  EXPECT_TRUE(has(check_routing(kN224, {{0, 7, -1}}, o), "refused although m >= n"));
  // Without rearranging (the hnodes set up one at a time), m = n < 2n - 1 may refuse when no
  // middle has both s-links free: 4 -> 6 finds output switch 3's s-link to middle 0 taken by 0 -> 7
  // and input switch 2's to middle 1 by 5 -> 4.
  o.rearranging = false;
  EXPECT_TRUE(check_routing(kN224, {{0, 7, 0}, {1, 3, 1}, {5, 4, 1}, {4, 6, -1}}, o).empty());
  EXPECT_TRUE(has(check_routing(kN224, {{0, 7, 0}, {3, 6, -1}}, o), "middle switch 1 had both its s-links free"));
  // m >= 2n - 1: never refused.
  EXPECT_TRUE(has(check_routing(Net{3, 2, 4}, {{0, 7, -1}}, o), "strictly non-blocking"));
  // Blocking N(1, 2, 2): 0 -> 2 via 0 takes input switch 0's only s-link, so 1 -> 3 may be
  // refused; 3 -> 1 may not (input switch 1 and output switch 0 are free on middle 0).
  const Net b{1, 2, 2};
  EXPECT_TRUE(check_routing(b, {{0, 2, 0}, {1, 3, -1}}, o).empty());
  EXPECT_TRUE(has(check_routing(b, {{0, 2, 0}, {3, 1, -1}}, o), "circuit 1 (3 -> 1): refused while middle switch 0"));
}

// 0 -> 7 through middle 1 on N(2, 2, 4): input switch 0's output 1 copies its c-link 0, middle
// 1's output 3 copies input switch 0, output switch 3's output 1 copies middle 1.
Settings zero_to_seven() {
  Settings s = Settings::empty(kN224);
  s.in_sel[0][1] = 0;
  s.mid_sel[1][3] = 0;
  s.out_sel[3][1] = 1;
  return s;
}

TEST(ClosOracle, SettingsAreTracedPortToPort) {
  Settings s = zero_to_seven();
  const std::vector<Reach> r = reach(kN224, s, 0);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].dst, 7);
  EXPECT_EQ(r[0].middle, 1);
  EXPECT_TRUE(check_settings(kN224, s, {{0, 7, 1}}).empty());
  EXPECT_TRUE(has(check_settings(kN224, s, {{0, 7, 0}}), "not to 7 through middle 0 alone"));
  EXPECT_TRUE(has(check_settings(kN224, s, {}), "input 0 has no circuit but the settings carry it to 7"));
  s.out_sel[3][0] = 1;  // output 6 copies middle 1 too: 0 fans out to 6 and 7
  EXPECT_TRUE(has(check_settings(kN224, s, {{0, 7, 1}}), "carry its source to 6 (middle 1), 7 (middle 1)"));
  // The same settings through the configuration port's layout: input switches at 0.., middles at
  // r*m = 8.., output switches at 2*r*m = 16...
  Settings w = Settings::empty(kN224);
  std::string why;
  for (const ConfigWrite& x : {ConfigWrite{1, 0}, ConfigWrite{8 + 1 * 4 + 3, 0}, ConfigWrite{16 + 7, 1}})
    EXPECT_TRUE(apply(kN224, w, x, &why)) << why;
  EXPECT_EQ(w.in_sel, zero_to_seven().in_sel);
  EXPECT_EQ(w.mid_sel, zero_to_seven().mid_sel);
  EXPECT_EQ(w.out_sel, zero_to_seven().out_sel);
  EXPECT_FALSE(apply(kN224, w, {24, 0}, &why));
  EXPECT_NE(why.find("no such address"), std::string::npos) << why;
  EXPECT_FALSE(apply(kN224, w, {16, 2}, &why));  // an output switch has m = 2 inputs
}

TEST(ClosOracle, WordsArriveUnchangedInOrderAndNowhereElse) {
  const Options o;
  const std::vector<Sent> sent = {{0, 7, true, {1, 2, 3}}, {1, 6, false, {4, 5, 6}}};
  EXPECT_TRUE(check_delivery(kN224, sent, {{7, {1, 2, 3}}, {6, {0, 0, 0}}}, o).empty());
  EXPECT_TRUE(has(check_delivery(kN224, sent, {{7, {1, 9, 3}}}, o), "circuit 0 -> 7 word 1: got 9, sent 2"));
  EXPECT_TRUE(has(check_delivery(kN224, sent, {{7, {1, 3, 2}}}, o), "word 1: got 3, sent 2"));
  EXPECT_TRUE(has(check_delivery(kN224, sent, {{7, {1, 2}}}, o), "2 words arrived, 3 sent"));
  EXPECT_TRUE(has(check_delivery(kN224, sent, {{7, {1, 2, 3, 3}}}, o), "4 words arrived, 3 sent"));
  EXPECT_TRUE(has(check_delivery(kN224, sent, {{7, {1, 2, 3}}, {5, {1, 2, 3}}}, o), "output 5 (no circuit) word 0: got 1"));
  // the refused circuit's words arrive nowhere, its destination included
  EXPECT_TRUE(has(check_delivery(kN224, sent, {{7, {1, 2, 3}}, {6, {4, 5, 6}}}, o), "output 6 (no circuit)"));
  EXPECT_TRUE(has(check_delivery(kN224, sent, {{6, {0, 0, 0}}}, o), "nothing seen at its destination"));
}

// Two requests set up through the hnodes on N(2, 2, 4): 0 -> 7 through middle 1 (held 2 steps)
// and 2 -> 5 through middle 1 (other switches), with the writes that set their paths.
std::vector<Event> two_circuits() {
  using K = EventKind;
  return {{K::kEnter, 0, 0, -1, {}}, {K::kEnter, 0, 1, -1, {}},
          {K::kWrite, 1, -1, -1, {16 + 7, 1}}, {K::kWrite, 2, -1, -1, {8 + 4 + 3, 0}}, {K::kWrite, 3, -1, -1, {1, 0}},
          {K::kReady, 3, 0, 1, {}},
          {K::kWrite, 2, -1, -1, {16 + 5, 1}}, {K::kWrite, 3, -1, -1, {8 + 4 + 2, 1}}, {K::kWrite, 4, -1, -1, {1 * 2 + 1, 0}},
          {K::kReady, 4, 1, 1, {}},
          {K::kRelease, 6, 0, -1, {}}, {K::kWrite, 6, -1, -1, {1, -1}},
          {K::kRelease, 6, 1, -1, {}}};
}
const std::vector<Request> kTwo = {{0, 7, 2}, {2, 5, 1}};

TEST(ClosOracle, ASetUpOverTime) {
  const Options o;
  const auto ok = check_setup(kN224, kTwo, two_circuits(), true, o);
  EXPECT_TRUE(ok.empty()) << ok.front();
  auto ev = two_circuits();
  ev[9].at = 2;  // READY of request 1 only 2 steps after its CSR
  EXPECT_TRUE(has(check_setup(kN224, kTwo, ev, false, o), "request 1 (2 -> 5) READY at 2: sooner than 3 steps"));
  ev = two_circuits();
  ev[10].at = 5;  // released before its 2 steps of hold
  EXPECT_TRUE(has(check_setup(kN224, kTwo, ev, true, o), "request 0 (0 -> 7) released at 5: its source holds it 2"));
  ev = two_circuits();
  ev.erase(ev.begin() + 7);  // middle 1's output 2 never set: 2's data goes nowhere
  EXPECT_TRUE(has(check_setup(kN224, kTwo, ev, true, o), "request 1 (2 -> 5) released at 6: the settings carry its source to nothing"));
  ev = two_circuits();
  ev.pop_back();
  EXPECT_TRUE(has(check_setup(kN224, kTwo, ev, true, o), "request 1 (2 -> 5): never released"));
  ev = two_circuits();
  ev.push_back({EventKind::kReady, 7, 1, 1, {}});
  EXPECT_TRUE(has(check_setup(kN224, kTwo, ev, false, o), "established a second time"));
  // Request 1 from 1 through middle 1: input switch 0's s-link to middle 1 is request 0's.
  std::vector<Request> shared = kTwo;
  shared[1].src = 1;
  EXPECT_TRUE(has(check_setup(kN224, shared, two_circuits(), false, o), "input s-link (input switch 0, middle 1) held by request 0"));
  // 7 -> 0 while 0 -> 7 holds both leaves: one status per leaf refuses it, one per c-link does not.
  std::vector<Request> back = kTwo;
  back[1] = {7, 0, 1};
  ev = two_circuits();
  ev[9].middle = 0;
  EXPECT_TRUE(has(check_setup(kN224, back, ev, false, o), "leaf 7 is busy in request 0"));
  Options duplex;
  duplex.leaf_status = LeafStatus::kPerCLink;
  EXPECT_TRUE(check_setup(kN224, back, ev, false, duplex).empty());
}

// Two hnodes, each the root of a tree of 2 tnodes of 2 leaves: tree 0 holds leaves 0..3, tree 1
// 4..7. 0 -> 1 turns at their tnode (1 up, 1 down), 0 -> 2 at the hnode (2 + 2), 0 -> 5 crosses
// the hypercube (2 + 2 in trees, 1 between hnodes); 6's control message stops at hnode 1 (2 up).
TEST(ClosOracle, TreePacketsTakeThePapersRoutes) {
  const TreeShape t{1, {2, 2}};
  const std::vector<Packet> sent = {{0, 1, 10}, {0, 2, 11}, {0, 5, 12}, {6, -1, 13}};
  const std::vector<PacketArrival> ok = {
      {false, 1, 0, 1, 10, 2, 0}, {false, 2, 0, 2, 11, 4, 0}, {false, 5, 0, 5, 12, 4, 1}, {true, 1, 6, -1, 13, 2, 0}};
  const auto none = check_packets(t, sent, ok);
  EXPECT_TRUE(none.empty()) << none.front();
  // The arrivals with one thing changed.
  auto with = [&](auto change) {
    auto a = ok;
    change(a);
    return check_packets(t, sent, a);
  };
  EXPECT_TRUE(has(with([](auto& a) { a[0].where = 3; }), "packet 0 (0 -> 1): arrived at leaf 3, not at leaf 1"));
  EXPECT_TRUE(has(with([](auto& a) { a[2].cube_hops = 2; }),
                  "packet 2 (0 -> 5): 4 tree and 2 hypercube hops, the shortest route 4 and 1"));
  EXPECT_TRUE(has(with([](auto& a) { a[3].where = 0; }), "arrived at hnode 0, not at hnode 1"));
  EXPECT_TRUE(has(with([](auto& a) { a[1].src = 3; }), "packet 1 (0 -> 2): header arrived as 3 -> 2"));
  const auto v = with([](auto& a) { a[1] = a[0]; });
  EXPECT_TRUE(has(v, "packet 0 (0 -> 1): arrived again"));
  EXPECT_TRUE(has(v, "packet 1 (0 -> 2): never arrived"));
}

}  // namespace
}  // namespace cmnet::clos_oracle
