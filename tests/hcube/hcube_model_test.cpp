// The hcube config and the two reference models: config errors name file, field and value;
// hand-checked arrival ticks of small cases (hcube_model.h gives the timing these follow);
// quasi-adaptive routing leaves by the shorter queue; every message reassembled bit-exact
// whatever the interleaving; no loss and no deadlock under saturation, with the contrary-packet
// limit never exceeded; the paper's workload generator and its ideal link utilization.
#include <gtest/gtest.h>

#include "gen/core/errors.h"
#include "gen/hcube/hcube_config.h"
#include "sim/hcube/hcube_model.h"

namespace cmnet {
namespace {

std::string config_error(const std::string& body) {
  try {
    (void)parse_hcube_config(R"({"network": "hcube", "hcube": )" + body + "}", "net.json");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(HcubeConfig, BadConfigsGiveClearErrors) {
  EXPECT_NE(config_error(R"({"dims": 0})").find("net.json: hcube: dims = 0 out of range 1..12"), std::string::npos);
  EXPECT_NE(config_error(R"({"scheme": "circuit"})").find("net.json: hcube: scheme = \"circuit\" is not a scheme"),
            std::string::npos);
  EXPECT_NE(config_error(R"({"routing": "adaptive"})").find("routing = \"adaptive\" is not a routing"),
            std::string::npos);
  EXPECT_NE(config_error(R"({"scheme": "wormhole", "routing": "quasi"})").find("the wormhole baseline is e-cube"),
            std::string::npos);
  EXPECT_NE(config_error(R"({"packet_bytes": 10})").find("packet_bytes = 10 out of range 11..255"), std::string::npos);
  EXPECT_NE(config_error(R"({"routing": "quasi", "buffers": 1})").find("buffers = 1 out of range 2..256"),
            std::string::npos);
  EXPECT_EQ(config_error(R"({"buffers": 1})"), "(accepted)");
  EXPECT_NE(config_error(R"({"ticks_per_byte": 0})").find("ticks_per_byte = 0 out of range 1..64"), std::string::npos);
  EXPECT_NE(config_error(R"({"arb_ticks": -1})").find("arb_ticks = -1 out of range 0..1024"), std::string::npos);
  EXPECT_NE(config_error(R"({"seed": 70000})").find("seed = 70000 out of range 0..65535"), std::string::npos);
  EXPECT_NE(config_error(R"({"dims": "six"})").find("dims must be an integer, got \"six\""), std::string::npos);
  EXPECT_NE(config_error(R"({"buffer": 4})").find("unknown field 'buffer'"), std::string::npos);
  const HcubeConfig a = parse_hcube_config(R"({"network": "hcube", "name": "x", "hcube": {"dims": 4, "routing": "quasi"}})", "a");
  EXPECT_EQ(config_to_json(parse_hcube_config(config_to_json(a), "b")), config_to_json(a));
  EXPECT_EQ(a.hc.packet_bytes, 20);
  EXPECT_EQ(a.hc.buffers, 16);
}

TEST(HcubeParams, Packetization) {
  HcubeParams p;  // 20-byte packets: 10 data bytes in the first, 16 in the others
  EXPECT_EQ(p.packets_of(1), 1u);
  EXPECT_EQ(p.packets_of(10), 1u);
  EXPECT_EQ(p.packets_of(11), 2u);
  EXPECT_EQ(p.packets_of(26), 2u);
  EXPECT_EQ(p.packets_of(27), 3u);
  EXPECT_EQ(p.packets_of(512), 33u);
  EXPECT_EQ(p.packet_wire(100, 0), 20);
  EXPECT_EQ(p.packet_wire(100, 6), 4 + 10);
  EXPECT_EQ(p.packet_wire(5, 0), 15);
  EXPECT_EQ(hcube_ecube_dim(0, 6), 1);
  EXPECT_EQ(hcube_hops(0, 7), 3);
}

HcubeParams params(const std::string& scheme, const std::string& routing = "fixed", int dims = 3) {
  HcubeParams p;
  p.dims = dims;
  p.scheme = scheme;
  p.routing = routing;
  return p;
}

HcubeTraffic one(uint32_t src, uint32_t dst, uint32_t len, uint64_t gen = 0) {
  HcubeTraffic t;
  t.messages.push_back({src, dst, gen, len, 0});
  return t;
}

struct Ticks {
  uint64_t first, last;
};

Ticks run1(const HcubeParams& p, const HcubeTraffic& t, size_t i = 0) {
  const HcubeRunResult r = run_hcube_model(p, t);
  EXPECT_TRUE(r.completed);
  EXPECT_TRUE(r.deliveries.at(i).data_ok);
  return {r.deliveries.at(i).first, r.deliveries.at(i).last};
}

// One packet of 20 bytes over one link: handed over at 0, sent from 1, 4 ticks of arbitration
// and 2 ticks per byte: 1 + 4 + 40 = 45. The wormhole: header granted at 1, destination bytes
// there at 1 + 4 + 4 = 9, its 20th byte 18 x 2 ticks later: 45 too.
TEST(HcubeModel, HandCheckedSingleMessages) {
  for (const char* s : {"packet", "wormhole"}) {
    const Ticks a = run1(params(s), one(0, 1, 10));
    EXPECT_EQ(a.first, 45u) << s;
    EXPECT_EQ(a.last, 45u) << s;
    // Two hops: the second channel starts when the destination bytes are in (tick 9).
    const Ticks b = run1(params(s), one(0, 3, 10));
    EXPECT_EQ(b.last, 53u) << s;
  }
  // 100 bytes, one hop: packets of 20 x 6 and 14 bytes back to back, 44 ticks each, the last 32.
  const Ticks pk = run1(params("packet"), one(0, 1, 100));
  EXPECT_EQ(pk.first, 45u);
  EXPECT_EQ(pk.last, 45u + 5 * 44 + 32);
  // The worm: 110 bytes; the first 16 data bytes are bytes 10..25.
  const Ticks wh = run1(params("wormhole"), one(0, 1, 100));
  EXPECT_EQ(wh.first, 9u + 2 * 24);
  EXPECT_EQ(wh.last, 9u + 2 * 108);
  // Generated later: everything shifts.
  EXPECT_EQ(run1(params("packet"), one(5, 4, 10, 1000)).last, 1045u);
}

// Two worms meet on channel (1, dim 1): the older one holds it until its tail has passed, the
// other waits (blocked ticks on that channel). Packets of the two interleave instead.
TEST(HcubeModel, WormBlocksWhilePacketsInterleave) {
  HcubeTraffic t;
  t.messages.push_back({0, 3, 0, 200, 0});   // 0 -> 1 -> 3
  t.messages.push_back({1, 3, 9, 10, 0});    // 1 -> 3, ready at 10: channel (1, d1) went to the first at 9
  const HcubeRunResult w = run_hcube_model(params("wormhole"), t);
  ASSERT_TRUE(w.completed);
  // The first worm: grants at 1 and 9, destination bytes at 17, last byte at 17 + 2 x 208.
  EXPECT_EQ(w.deliveries[0].last, 17u + 2 * 208);
  // Channel (1, d1) is released at that tick; the second worm is granted then.
  EXPECT_EQ(w.deliveries[1].last, w.deliveries[0].last + 8 + 2 * 18);
  EXPECT_GT(w.ports[1 * 3 + 1].blocked_ticks, 400u);
  EXPECT_EQ(w.ports[1 * 3 + 1].messages, 2u);
  const HcubeRunResult pk = run_hcube_model(params("packet"), t);
  ASSERT_TRUE(pk.completed);
  EXPECT_LT(pk.deliveries[1].last, 200u);  // slips in between the long message's packets
  EXPECT_EQ(pk.ports[1 * 3 + 1].packets, params("packet").packets_of(200) + 1);
}

// A worm shorter than its path (issue 26): 11 bytes across all 12 dimensions span 9 channels
// behind the header, so the tail leaves channel (0, d0) T after the header reaches the 9th node
// (granted at 1, 8 ticks a hop: 1 + 9 x 8 + 2 = 75), not when the header reaches node 4,095 (97).
// The model used to schedule that release at 93, in its past: the clock stepped back to 93 and the
// blocked ticks of (0, d0) came from a negative interval. The second worm (0 -> 1, waiting from 2)
// is granted at 75: first and last byte at 75 + 8 + 9 x 2 = 101.
TEST(HcubeModel, WormShorterThanItsPathReleasesOnTheWayAndTheClockNeverStepsBack) {
  HcubeTraffic t;
  t.messages.push_back({0, 4095, 0, 1, 0});
  t.messages.push_back({0, 1, 0, 1, 1});
  const HcubeRunResult w = run_hcube_model(params("wormhole", "fixed", 12), t);
  ASSERT_TRUE(w.completed);
  EXPECT_EQ(w.deliveries[0].started, 1u);
  EXPECT_EQ(w.deliveries[0].last, 1u + 12 * 8 + 9 * 2);
  EXPECT_EQ(w.deliveries[1].started, 75u);
  EXPECT_EQ(w.deliveries[1].last, 101u);
  uint64_t blocked = 0;
  for (const auto& k : w.ports) {
    EXPECT_LE(k.blocked_ticks, w.ticks);  // a negative interval wraps to about 2^64
    blocked += k.blocked_ticks;
  }
  EXPECT_EQ(w.ports[0].blocked_ticks, 75u - 2);
  EXPECT_EQ(blocked, 75u - 2);
  // Short worms across all 12 dimensions from every node, every release on the way: the model throws if its clock would
  // step back; every message starts after its generation and arrives after it started.
  {
    const int n = 12;
    const HcubeTraffic u = make_hcube_workload(n, "bit-complement", 3, 20, 1, 5);
    const HcubeRunResult r = run_hcube_model(params("wormhole", "fixed", n), u);
    ASSERT_TRUE(r.completed) << n;
    for (size_t i = 0; i < u.messages.size(); ++i) {
      EXPECT_GT(r.deliveries[i].started, u.messages[i].gen) << n << " message " << i;
      EXPECT_GT(r.deliveries[i].first, r.deliveries[i].started) << n << " message " << i;
    }
    for (const auto& k : r.ports) EXPECT_LE(k.blocked_ticks, r.ticks) << n;
  }
}

// Quasi-adaptive: the second message from node 0 to node 3 finds dimension 0's port full of the
// first message's packets and leaves by dimension 1 (a contrary packet); fixed routing queues it
// behind the first.
TEST(HcubeModel, QuasiLeavesByTheShorterQueue) {
  HcubeTraffic t;
  t.messages.push_back({0, 3, 0, 160, 0});
  t.messages.push_back({0, 3, 0, 10, 1});
  const HcubeRunResult f = run_hcube_model(params("packet", "fixed"), t);
  const HcubeRunResult q = run_hcube_model(params("packet", "quasi"), t);
  ASSERT_TRUE(f.completed);
  ASSERT_TRUE(q.completed);
  EXPECT_EQ(f.deliveries[1].first_dim, 0);
  EXPECT_EQ(q.deliveries[0].first_dim, 0);
  EXPECT_EQ(q.deliveries[1].first_dim, 1);
  EXPECT_LT(q.deliveries[1].last, f.deliveries[1].last);
  EXPECT_EQ(q.max_contrary, 1);
  EXPECT_EQ(f.max_contrary, 0);
  // Both messages reassembled by source at node 3 although they overlap in time.
  EXPECT_TRUE(q.deliveries[0].data_ok && q.deliveries[1].data_ok);
}

HcubeParams saturating(const std::string& scheme, const std::string& routing, int buffers) {
  HcubeParams p = params(scheme, routing, 4);
  p.buffers = buffers;
  return p;
}

// Far beyond saturation (ideal link utilization several times 1), small buffers: every message
// arrives, bit-exact, whatever the interleaving; no deadlock; at most buffers - 1 contrary
// packets in any port.
TEST(HcubeModel, NoLossNoDeadlockUnderSaturation) {
  for (const char* pattern : {"uniform", "bit-complement", "hotspot"}) {
    const HcubeTraffic t = make_hcube_workload(4, pattern, 96, 40, 24, 5);
    for (int b : {2, 3, 16})
      for (const auto& [s, rt] : {std::pair<const char*, const char*>{"packet", "fixed"}, {"packet", "quasi"},
                                  {"wormhole", "fixed"}}) {
        const HcubeParams p = saturating(s, rt, b);
        EXPECT_GT(hcube_ideal_utilization(t, p), 1.5) << pattern;
        HcubeModelOptions o;
        o.keep_received = true;
        const HcubeRunResult r = run_hcube_model(p, t, o);
        const std::string what = std::string(pattern) + " " + s + "/" + rt + " buffers " + std::to_string(b);
        EXPECT_TRUE(r.completed) << what;
        EXPECT_FALSE(r.deadlock) << what;
        EXPECT_EQ(r.delivered, t.messages.size()) << what;
        EXPECT_EQ(r.bad_reassembly, 0u) << what;
        EXPECT_EQ(r.received.size(), t.messages.size()) << what;
        EXPECT_LE(r.max_buffer_used, b) << what;
        EXPECT_LT(r.max_contrary, b) << what;
        uint64_t sent = 0;
        for (const auto& c : r.ports) sent += c.messages;
        EXPECT_GE(sent, t.messages.size()) << what;
        for (const auto& d : r.deliveries) EXPECT_TRUE(d.data_ok) << what;
      }
  }
}

// The buffer rule is what keeps quasi-adaptive routing deadlock-free: the same saturating traffic
// with contrary packets free to fill a port's buffers ends in a deadlock (channels idle, packets
// waiting, nothing able to move); with the rule every message arrives.
TEST(HcubeModel, WithoutTheContraryRuleQuasiRoutingDeadlocks) {
  const HcubeTraffic t = make_hcube_workload(4, "uniform", 100, 10, 30, 1);
  const HcubeParams p = saturating("packet", "quasi", 2);
  HcubeModelOptions off;
  off.deadlock_rule = false;
  const HcubeRunResult bad = run_hcube_model(p, t, off);
  EXPECT_TRUE(bad.deadlock);
  EXPECT_FALSE(bad.completed);
  EXPECT_EQ(bad.max_contrary, 2);
  const HcubeRunResult good = run_hcube_model(p, t);
  EXPECT_TRUE(good.completed);
  EXPECT_FALSE(good.deadlock);
  EXPECT_EQ(good.max_contrary, 1);
}

TEST(HcubeTraffic, PaperWorkloadIsTheSameForEverySchemeAndHasTheRightMeans) {
  const HcubeTraffic a = make_hcube_workload(6, "uniform", 512, 1024, 200, 1);
  const HcubeTraffic b = make_hcube_workload(6, "uniform", 512, 1024, 200, 1);
  ASSERT_EQ(a.messages.size(), 64u * 200);
  double len = 0, hops = 0;
  for (size_t i = 0; i < a.messages.size(); ++i) {
    EXPECT_EQ(a.messages[i].gen, b.messages[i].gen);
    EXPECT_NE(a.messages[i].src, a.messages[i].dst);
    len += a.messages[i].len;
    hops += hcube_hops(a.messages[i].src, a.messages[i].dst);
  }
  len /= static_cast<double>(a.messages.size());
  hops /= static_cast<double>(a.messages.size());
  EXPECT_NEAR(len, 512.5, 15);
  EXPECT_NEAR(hops, 6 * 32 / 63.0, 0.05);  // uniform over the 63 other nodes
  EXPECT_NEAR(static_cast<double>(a.messages[199].gen) / 200, 1024, 5);
  // Ideal utilization = 2 x 512 x 3.05 / (6 x 1024), about 0.51.
  HcubeParams p;
  p.dims = 6;
  EXPECT_NEAR(hcube_ideal_utilization(a, p), 0.51, 0.03);
  const HcubeTraffic c = make_hcube_workload(4, "bit-complement", 64, 100, 3, 1);
  for (const auto& m : c.messages) EXPECT_EQ(m.dst, 15u - m.src);
  try {
    HcubeTraffic bad = one(0, 0, 5);
    check_hcube_traffic(bad, p, "t.txt");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("t.txt: message 0: dst = src = 0"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cmnet
