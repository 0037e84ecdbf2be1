// The CM-5 machine's functional oracle (sim/cm5/oracle) on hand-worked cases from the paper:
// every message read once with its tag and data, the interfaces' counts, and router-done as
// Kirchhoff's current law (done at zero, under way while a message is missing from the counts,
// the error bit when one was counted twice); each kind of wrong run is caught.
#include "sim/cm5/oracle/cm5_oracle.h"

#include <gtest/gtest.h>

#include <string>

namespace cmnet {
namespace {

using namespace cm5_oracle;

Machine two_messages() {
  Machine m;
  m.leaves = 4;
  m.word_bits = 16;
  m.sent = {{0, 3, 0, 5, {7, 8}}, {2, 1, 1, 0, {9}}};
  return m;
}

cm5_oracle::Run as_sent(const Machine& m) {
  cm5_oracle::Run r;
  for (const auto& x : m.sent) r.reads.push_back({x.dst, x.side, x.tag, x.data, true});
  r.counters.assign(m.leaves, 0);  // + a message sent, - one taken
  for (const auto& x : m.sent) {
    ++r.counters[x.src];
    --r.counters[x.dst];
  }
  for (uint32_t l = 0; l < m.leaves; ++l) r.router_done.push_back({l, 0, false});
  return r;
}

std::string all(const Machine& m, const cm5_oracle::Run& r) {
  std::string s;
  for (const auto& d : disagreements(m, r)) s += d + "\n";
  return s;
}

TEST(Cm5Oracle, EverythingReadRouterDoneAtZero) {
  const Machine m = two_messages();
  EXPECT_EQ(all(m, as_sent(m)), "");
}

TEST(Cm5Oracle, AMissingReadKeepsRouterDoneUnderWay) {
  const Machine m = two_messages();
  cm5_oracle::Run r = as_sent(m);
  r.reads.pop_back();
  r.counters = {1, 0, 1, -1};  // leaf 2 sent it; leaf 1 never took it
  EXPECT_NE(all(m, r).find("leaf 1 right, tag 0, data {9}: sent 1 more time(s) than read"), std::string::npos) << all(m, r);
  EXPECT_NE(all(m, r).find("leaf 0: router-done completed, but a message is missing"), std::string::npos) << all(m, r);
  r.router_done.clear();
  EXPECT_EQ(all(m, r).find("router-done"), std::string::npos) << all(m, r);
}

TEST(Cm5Oracle, ChangedTagDataOrCrcIsSeen) {
  const Machine m = two_messages();
  cm5_oracle::Run r = as_sent(m);
  r.reads[0].tag = 4;
  r.reads[1].data = {10};
  r.reads[1].crc_ok = false;
  const std::string s = all(m, r);
  EXPECT_NE(s.find("leaf 3 left, tag 4, data {7 8}: read 1 more time(s) than sent"), std::string::npos) << s;
  EXPECT_NE(s.find("leaf 1 right, tag 0, data {10}: read 1 more time(s) than sent"), std::string::npos) << s;
  EXPECT_NE(s.find("a read at leaf 1 with a failing CRC"), std::string::npos) << s;
}

TEST(Cm5Oracle, LostCountNeverCompletesDuplicatedCountSignalsTheError) {
  Machine m = two_messages();
  m.faults = {{3, false}};
  cm5_oracle::Run r = as_sent(m);
  r.counters = {1, -1, 1, 0};  // leaf 3 took its message uncounted
  r.router_done.clear();
  EXPECT_EQ(all(m, r), "");
  r.counters = {1, -1, 1, -1};
  EXPECT_NE(all(m, r).find("leaf 3: its interface counted -1, the messages give 0"), std::string::npos) << all(m, r);

  m.faults = {{1, true}};
  r = as_sent(m);
  r.counters = {1, -2, 1, -1};  // leaf 1 counted its message twice
  for (auto& x : r.router_done) x = {x.leaf, -1, true};
  EXPECT_EQ(all(m, r), "");
  r.router_done[2].error = false;
  EXPECT_NE(all(m, r).find("leaf 2: router-done without the error bit, wrongly"), std::string::npos) << all(m, r);
  r.router_done[2] = {2, 0, true};
  EXPECT_NE(all(m, r).find("leaf 2: router-done sum 0, the counts give -1"), std::string::npos) << all(m, r);
}

}  // namespace
}  // namespace cmnet
