// hcube's oracle (sim/hcube/oracle/) on hand-worked cases from the paper, no RTL: its
// packetization (section 5.3), the earliest arrivals no schedule beats, and the comparison
// catching a corrupted run (a byte flipped, a message missing, duplicated, misdelivered, early,
// off its e-cube first hop, out of order, or handed over in the wrong packets).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "sim/hcube/oracle/hcube_oracle.h"

namespace cmnet::hcube_oracle {
namespace {

std::vector<uint8_t> bytes(size_t n, uint8_t from) {
  std::vector<uint8_t> b(n);
  for (size_t i = 0; i < n; ++i) b[i] = static_cast<uint8_t>(from + i);
  return b;
}

Message msg(uint32_t src, uint32_t dst, uint64_t gen, uint16_t type, size_t len) {
  Message m;
  m.src = src;
  m.dst = dst;
  m.gen = gen;
  m.type = type;
  m.data = bytes(len, static_cast<uint8_t>(16 * src + type));
  return m;
}

Delivery arrived(const Message& m, uint64_t first, uint64_t last, int first_dim = -1) {
  Delivery d;
  d.at = m.dst;
  d.src = m.src;
  d.type = m.type;
  d.len = static_cast<uint32_t>(m.data.size());
  d.first_dim = first_dim;
  d.first = first;
  d.last = last;
  d.data = m.data;
  return d;
}

bool mentions(const std::vector<std::string>& v, const std::string& what) {
  return std::any_of(v.begin(), v.end(), [&](const std::string& s) { return s.find(what) != std::string::npos; });
}

std::string all(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

// 20-byte packets: 4 header bytes (destination, source) in each, length and type in the first,
// so 10 data bytes there and 16 in each later one; 30 bytes: 10 + 16 + 4.
TEST(HcubeOracle, PacketizationIsThePapers) {
  Net net;
  net.dims = 9;
  Message m = msg(3, 0x105, 0, 7, 30);
  const auto w = wire_of(net, m);
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[0].size(), 20u);
  EXPECT_EQ(w[1].size(), 20u);
  EXPECT_EQ(w[2].size(), 8u);
  EXPECT_EQ(std::vector<uint8_t>(w[0].begin(), w[0].begin() + 10),
            (std::vector<uint8_t>{0x05, 0x01, 0x03, 0x00, 30, 0, 0, 0, 7, 0}));
  EXPECT_EQ(w[0][10], m.data[0]);
  EXPECT_EQ(std::vector<uint8_t>(w[1].begin(), w[1].begin() + 5), (std::vector<uint8_t>{0x05, 0x01, 0x03, 0x00, m.data[10]}));
  EXPECT_EQ(w[2][4], m.data[26]);
  EXPECT_EQ(reassemble(w), m.data);
  // A later packet of another source does not reassemble into this message.
  auto bad = w;
  bad[1][2] = 4;
  EXPECT_TRUE(reassemble(bad).empty());
  Options big;
  big.byte_order = ByteOrder::kBigEndian;
  const auto wb = wire_of(net, m, big);
  EXPECT_EQ(std::vector<uint8_t>(wb[0].begin(), wb[0].begin() + 10),
            (std::vector<uint8_t>{0x01, 0x05, 0x00, 0x03, 0, 0, 0, 30, 0, 7}));
  // The worm: the same 10 header bytes, then all the data.
  net.scheme = Scheme::kWormhole;
  const auto worm = wire_of(net, m);
  ASSERT_EQ(worm.size(), 1u);
  EXPECT_EQ(worm[0].size(), 40u);
  EXPECT_EQ(reassemble(worm), m.data);
}

// 2 ticks a byte, 4 of arbitration, from tick 1 after generation: one hop of a 20-byte packet
// 1 + 4 + 20 x 2 = 45; two hops cut through after the 2 destination bytes: 1 + 2 x 8 + 18 x 2 = 53;
// 100 bytes in 7 packets (6 of 20, one of 14) across one channel: 1 + 7 x 4 + 134 x 2 = 297. The
// worm of 100 bytes over one hop: header there at 9, the first 16 data bytes (bytes 10..25) at
// 9 + 24 x 2 = 57, its last byte at 9 + 108 x 2 = 225.
TEST(HcubeOracle, EarliestArrivalsByHand) {
  Net pk;
  EXPECT_EQ(earliest_first(pk, msg(0, 1, 0, 0, 10)), 45u);
  EXPECT_EQ(earliest_last(pk, msg(0, 1, 0, 0, 10)), 45u);
  EXPECT_EQ(earliest_last(pk, msg(0, 3, 0, 0, 10)), 53u);
  EXPECT_EQ(earliest_first(pk, msg(0, 1, 0, 0, 100)), 45u);
  EXPECT_EQ(earliest_last(pk, msg(0, 1, 0, 0, 100)), 297u);
  EXPECT_EQ(earliest_last(pk, msg(4, 5, 1000, 0, 10)), 1045u);
  Net wh;
  wh.scheme = Scheme::kWormhole;
  EXPECT_EQ(earliest_first(wh, msg(0, 1, 0, 0, 100)), 57u);
  EXPECT_EQ(earliest_last(wh, msg(0, 1, 0, 0, 100)), 225u);
  // 1 data byte across all 12 dimensions: 1 + 12 x 8 + 9 x 2 = 115 (issue 26's worm).
  wh.dims = 12;
  EXPECT_EQ(earliest_last(wh, msg(0, 4095, 0, 0, 1)), 115u);
}

// A packet run on a 3-cube (fixed routing) that agrees, then one corruption at a time.
TEST(HcubeOracle, CatchesACorruptedPacketRun) {
  Net net;
  std::vector<Message> sent = {msg(0, 1, 0, 0, 10), msg(0, 3, 0, 1, 30), msg(5, 2, 10, 0, 4)};
  for (Message& m : sent) m.wire = wire_of(net, m);
  // Earliest: 45/45, 53/117 (packets of 20, 20, 8 bytes over the first channel, then one hop of
  // 8), 59/59 (14 bytes over 3 hops from 11).
  const std::vector<Delivery> good = {arrived(sent[2], 59, 59, 0), arrived(sent[0], 45, 45, 0),
                                      arrived(sent[1], 60, 140, 0)};
  EXPECT_TRUE(disagreements(net, sent, good).empty()) << all(disagreements(net, sent, good));

  auto flipped = good;
  flipped[2].data[17] ^= 0x10;
  EXPECT_TRUE(mentions(disagreements(net, sent, flipped), "message 1 (0 -> 3, 30 bytes, gen 0, type 1): data differs from byte 17"));
  auto missing = good;
  missing.pop_back();
  EXPECT_TRUE(mentions(disagreements(net, sent, missing), "message 1 (0 -> 3, 30 bytes, gen 0, type 1): never arrived"));
  auto twice = good;
  twice.push_back(good[1]);
  EXPECT_TRUE(mentions(disagreements(net, sent, twice), "an extra message arrived at node 1 (source 0, type 0, 10 bytes: it had arrived already)"));
  auto stranger = good;
  stranger.push_back(arrived(msg(6, 7, 0, 0, 3), 50, 50));
  EXPECT_TRUE(mentions(disagreements(net, sent, stranger), "no such message was sent"));
  auto elsewhere = good;
  elsewhere[1].at = 3;
  EXPECT_TRUE(mentions(disagreements(net, sent, elsewhere), "message 0 (0 -> 1, 10 bytes, gen 0, type 0): arrived at node 3"));
  auto early = good;
  early[2].last = 116;
  EXPECT_TRUE(mentions(disagreements(net, sent, early), "last byte at 116, before the earliest 117"));
  early = good;
  early[0].first = early[0].last = 58;
  EXPECT_TRUE(mentions(disagreements(net, sent, early), "first arrival at 58, before the earliest 59"));
  auto off_ecube = good;
  off_ecube[2].first_dim = 1;  // 0 -> 3 differs in dimensions 0 and 1: e-cube takes 0
  EXPECT_TRUE(mentions(disagreements(net, sent, off_ecube), "first hop in dimension 1, e-cube takes 0"));
  // Quasi-adaptive: dimension 1 takes it closer, dimension 2 does not.
  net.routing = Routing::kQuasi;
  EXPECT_TRUE(disagreements(net, sent, off_ecube).empty()) << all(disagreements(net, sent, off_ecube));
  off_ecube[2].first_dim = 2;
  EXPECT_TRUE(mentions(disagreements(net, sent, off_ecube), "first hop in dimension 2, which does not take it closer"));
  // Handed over in packets of 19 bytes (15 data bytes after the first): not the paper's.
  net.routing = Routing::kFixed;
  auto short_packets = sent;
  short_packets[1].wire = {sent[1].wire[0], std::vector<uint8_t>(sent[1].wire[1].begin(), sent[1].wire[1].end() - 1),
                           sent[1].wire[1]};
  EXPECT_TRUE(mentions(disagreements(net, short_packets, good), "message 1 (0 -> 3, 30 bytes, gen 0, type 1): packet 1 has 19 bytes, the paper's packetization gives 20"));
}

// Worms from one source to one destination follow one path and do not interleave on a channel:
// the second's first data cannot arrive before the first's last byte.
TEST(HcubeOracle, WormsOfOnePairArriveInOrder) {
  Net net;
  net.scheme = Scheme::kWormhole;
  const std::vector<Message> sent = {msg(0, 3, 0, 0, 20), msg(0, 3, 0, 1, 20)};
  // Earliest: 1 + 2 x 8 + 28 x 2 = 73 for the last byte of the first worm.
  EXPECT_EQ(earliest_last(net, sent[0]), 73u);
  const std::vector<Delivery> good = {arrived(sent[0], 65, 73, 0), arrived(sent[1], 150, 160, 0)};
  EXPECT_TRUE(disagreements(net, sent, good).empty()) << all(disagreements(net, sent, good));
  const std::vector<Delivery> overtaken = {arrived(sent[0], 65, 200, 0), arrived(sent[1], 150, 160, 0)};
  EXPECT_TRUE(mentions(disagreements(net, sent, overtaken),
                       "message 1 (0 -> 3, 20 bytes, gen 0, type 1): its first data arrived at 150, not after the last byte of message 0"));
  Options o;
  o.worm_pair_order = false;
  EXPECT_TRUE(disagreements(net, sent, overtaken, o).empty());
  // A message to itself is none of the paper's.
  EXPECT_TRUE(mentions(disagreements(net, {msg(2, 2, 0, 0, 5)}, {}), "to itself"));
}

}  // namespace
}  // namespace cmnet::hcube_oracle
