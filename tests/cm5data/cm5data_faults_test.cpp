// The reference model's fault handling (section 3 of the paper): CRC checking in every chip
// (one primary error at the chip behind the bad link, secondaries after it), fault map-out
// (mapped-out links carry nothing and every message still arrives), all-fall-down mode (from
// any mix of modes, every message lands on some leaf, exactly once).
#include <gtest/gtest.h>

#include <random>

#include "gen/cm5data/cm5data_config.h"
#include "gen/core/errors.h"
#include "tests/cm5data/cm5data_check.h"

namespace cmnet {
namespace {

Cm5DataParams params(int h, const std::string& profile, int W = 4) {
  Cm5DataParams p;
  p.height = h;
  p.profile = profile;
  p.link_bits = W;
  p.buffer_words = 2;
  p.seed = 5;
  return p;
}

uint64_t total_primary(const Cm5DataRunResult& r) {
  uint64_t n = 0;
  for (const auto& c : r.chips) n += c.crc_primary;
  return n;
}
uint64_t total_secondary(const Cm5DataRunResult& r) {
  uint64_t n = 0;
  for (const auto& c : r.chips) n += c.crc_secondary;
  return n;
}

TEST(Cm5Crc, StatusOfAReceivedCrcWord) {
  const Cm5DataParams p = params(2, "cm5");
  Cm5DataMessage m;
  m.src = 1;
  m.dst = 9;
  m.len = 2;
  m.data = {0x12345678, 0x9abcdef0};
  std::vector<uint32_t> w = cm5_message_words(p, m);
  EXPECT_EQ(cm5_crc_status(w, 4), Cm5Crc::ok);
  w[0] ^= 0xF8;  // U and the mark are not covered
  EXPECT_EQ(cm5_crc_status(w, 4), Cm5Crc::ok);
  auto v = w;
  v.back() = ~v.back();
  EXPECT_EQ(cm5_crc_status(v, 4), Cm5Crc::secondary);
  EXPECT_EQ(cm5_crc_status(v, 32), Cm5Crc::secondary);
  v.back() ^= 0xF;  // proper in flit 0, complemented from flit 1 on
  EXPECT_EQ(cm5_crc_status(v, 4), Cm5Crc::secondary);
  EXPECT_EQ(cm5_crc_status(v, 32), Cm5Crc::primary);
  v = w;
  v[1] ^= 0x100;
  EXPECT_EQ(cm5_crc_status(v, 4), Cm5Crc::primary);
}

// One message from leaf 8 to leaf 0 (16 leaves) over a bad leaf link: the chip behind it counts
// the primary error, the two chips after it secondaries, the leaf gets a complemented CRC.
TEST(Cm5Crc, OneBadLinkGivesOnePrimaryAndATrailOfSecondaries) {
  for (int W : {4, 8, 32}) {
    Cm5DataParams p = params(2, "cm5", W);
    p.fault.on = true;
    p.fault.chip = cm5_chip_id(p, 1, 2, 0);
    p.fault.port = 0;
    p.fault.flit = p.flits_per_word() + (W == 32 ? 0 : 1);  // in the first data word
    p.fault.mask = W == 32 ? 0x10u : 0x3u;
    validate(p, "test");
    Cm5DataTraffic t;
    Cm5DataMessage m;
    m.src = 8;
    m.dst = 0;
    m.len = 3;
    m.data = {1, 2, 3};
    t.messages.push_back(m);
    const Cm5DataRunResult r = run_cm5data_model(p, t);
    ASSERT_TRUE(r.completed);
    EXPECT_EQ(r.chips[p.fault.chip].crc_primary, 1u) << W;
    EXPECT_EQ(total_primary(r), 1u) << W;
    EXPECT_EQ(total_secondary(r), 2u) << W;  // the top chip and leaf 0's chip
    EXPECT_EQ(r.chips[cm5_chip_id(p, 1, 0, 0)].crc_secondary, 1u) << W;
    EXPECT_EQ(r.deliveries[0].crc, Cm5Crc::secondary) << W;
    EXPECT_NE(r.deliveries[0].words[1], 1u) << W;  // the corrupted word arrives corrupted
  }
}

// Every message over a bad link at level 2 (64 leaves, a link coming down and one going up):
// primaries = the messages that crossed it (its counter), and each of them leaves a
// secondary at every chip after the faulty one on its path and at its leaf.
TEST(Cm5Crc, PrimariesCountTheMessagesOverTheBadLinkSecondariesTheirPaths) {
  for (int port : {1, 5}) {
    Cm5DataParams p = params(3, "cm5", 8);
    p.fault.on = true;
    p.fault.chip = cm5_chip_id(p, 2, 1, 1);
    p.fault.port = port;
    p.fault.flit = 5;
    p.fault.mask = 0x81;
    const Cm5DataTraffic t = make_cm5_pattern("random", p, 4, 6);
    const Cm5DataRunResult r = run_cm5data_model(p, t);
    ASSERT_TRUE(r.completed);
    const uint64_t crossed = r.chips[p.fault.chip].in[static_cast<size_t>(port)];
    EXPECT_GT(crossed, 0u);
    EXPECT_EQ(total_primary(r), crossed);
    EXPECT_EQ(r.chips[p.fault.chip].crc_primary, crossed);
    uint64_t bad = 0, trail = 0;
    for (size_t i = 0; i < t.messages.size(); ++i) {
      const Cm5DataDelivery& d = r.deliveries[i];
      ASSERT_TRUE(d.delivered);
      EXPECT_EQ(d.at_leaf, t.messages[i].dst);
      EXPECT_NE(d.crc, Cm5Crc::primary) << i;
      if (d.crc == Cm5Crc::ok) continue;
      ++bad;
      // Chips on the path: 2L - 1; the faulty one is the 2nd going up (port 1) or the 2nd from
      // the bottom coming down (port 5): the chips after it are 2L - 3 or 1.
      const int L = cm5_lca_level(t.messages[i].src, t.messages[i].dst);
      trail += port < 4 ? static_cast<uint64_t>(2 * L - 3) : 1u;
    }
    EXPECT_EQ(bad, crossed);
    EXPECT_EQ(total_secondary(r), trail);
    expect_counters_conserve(p, t, r);
  }
}

TEST(Cm5Crc, BadFaultConfigsAreRefused) {
  Cm5DataParams p = params(2, "cm5");
  p.fault.on = true;
  p.fault.chip = 4;
  p.fault.port = 6;
  EXPECT_THROW(validate(p, "f"), ConfigError);  // the top chips have 4 ports
  p.fault.port = 0;
  p.fault.flit = 3;  // the head word: it would misroute
  try {
    validate(p, "f");
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("fault.flit = 3 out of range 8..55"), std::string::npos) << e.what();
  }
  p.fault.flit = 8;
  p.fault.mask = 16;
  EXPECT_THROW(validate(p, "f"), ConfigError);
}

// --- map-out --------------------------------------------------------------------------------

void expect_mapped_out_links_idle(const Cm5DataParams& p, const Cm5DataRunResult& r, bool idle = true) {
  for (const Cm5DataLink& k : p.mapped_out) {
    const Cm5DataChipCounters& lo = r.chips[cm5_chip_id(p, k.level, k.node, k.chip)];
    const Cm5DataChipCounters& hi =
        r.chips[cm5_chip_id(p, k.level + 1, k.node / 4, k.chip * p.parents_at(k.level) + k.parent)];
    if (!idle) {  // the same traffic without the map-out uses these links both ways
      EXPECT_GT(lo.out.at(static_cast<size_t>(4 + k.parent)), 0u);
      EXPECT_GT(lo.in.at(static_cast<size_t>(4 + k.parent)), 0u);
      continue;
    }
    EXPECT_EQ(lo.out.at(static_cast<size_t>(4 + k.parent)), 0u);
    EXPECT_EQ(lo.in.at(static_cast<size_t>(4 + k.parent)), 0u);
    EXPECT_EQ(hi.out.at(k.node % 4), 0u);
    EXPECT_EQ(hi.in.at(k.node % 4), 0u);
  }
}

TEST(Cm5MapOut, MappedOutLinksCarryNothingAndEveryMessageArrives) {
  for (const char* prof : {"cm5", "full"}) {
    Cm5DataParams p = params(3, prof, 8);
    const int p2 = p.parents_at(2);
    p.mapped_out = {{1, 0, 0, 1}, {1, 5, 0, 1}, {2, 1, 1, 0}, {2, 2, 0, p2 - 1}, {2, 2, 1, 0}};
    validate(p, "test");
    for (const char* pat : {"random", "bit-complement", "all-to-one", "nearest-neighbour"}) {
      SCOPED_TRACE(std::string(prof) + " " + pat);
      const Cm5DataTraffic t = make_cm5_pattern(pat, p, 6, 5);
      Cm5DataModelOptions o;
      o.check_every_cycle = true;
      const Cm5DataRunResult r = run_cm5data_model(p, t, o);
      expect_all_delivered_once(p, t, r);
      expect_counters_conserve(p, t, r);
      EXPECT_EQ(r.kirchhoff_violations, 0u);
      expect_mapped_out_links_idle(p, r);
      if (std::string(pat) == "random") {
        Cm5DataParams q = p;
        q.mapped_out.clear();
        expect_mapped_out_links_idle(p, run_cm5data_model(q, t), false);
      }
    }
  }
}

TEST(Cm5MapOut, ConfigsThatCutAPathAreRefused) {
  Cm5DataParams p = params(3, "cm5");
  p.mapped_out = {{1, 3, 0, 0}, {1, 3, 0, 1}};  // node 3 of level 1 has no way up
  EXPECT_THROW(validate(p, "m"), ConfigError);
  p.mapped_out = {{1, 3, 0, 0}, {1, 7, 0, 1}};  // node 3 -> node 7: no parent both ways
  try {
    validate(p, "m");
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("mapped_out leaves no way up at level 1"), std::string::npos) << e.what();
  }
  p.mapped_out = {{2, 0, 0, 2}};
  EXPECT_THROW(validate(p, "m"), ConfigError);  // level 2 has 2 parents in the CM-5 profile
  p.mapped_out = {{3, 0, 0, 0}};
  EXPECT_THROW(validate(p, "m"), ConfigError);  // the top level has none
  p.mapped_out = {{1, 3, 0, 0}, {1, 3, 0, 0}};
  EXPECT_THROW(validate(p, "m"), ConfigError);
}

// Nodes mapped out of the address space: a message from or to one is refused at the sender's
// interface (never enters the network, counted), every other message arrives once, intact; the
// mapped-out leaves' links carry nothing either way.
TEST(Cm5MapOut, MappedOutLeavesAreRefusedAtTheSenderAndTheirLinksCarryNothing) {
  for (const char* profile : {"cm5", "full"}) {
    Cm5DataParams p = params(2, profile);
    p.mapped_out_leaves = {5, 10};
    for (const char* pattern : {"random", "permutation", "bit-complement", "hot-spot"}) {
      SCOPED_TRACE(std::string(profile) + " " + pattern);
      const Cm5DataTraffic t = make_cm5_pattern(pattern, p, 11, 4);
      Cm5DataModelOptions o;
      o.check_every_cycle = true;
      const Cm5DataRunResult r = run_cm5data_model(p, t, o);
      ASSERT_TRUE(r.completed);
      EXPECT_EQ(r.kirchhoff_violations, 0u);
      size_t refused = 0;
      for (size_t i = 0; i < t.messages.size(); ++i) {
        const Cm5DataMessage& m = t.messages[i];
        const bool out = m.src == 5 || m.src == 10 || m.dst == 5 || m.dst == 10;
        const Cm5DataDelivery& d = r.deliveries[i];
        EXPECT_EQ(d.refused, out) << i;
        refused += out;
        if (out) {
          EXPECT_FALSE(d.delivered) << i;
          continue;
        }
        EXPECT_TRUE(d.delivered) << i;
        EXPECT_EQ(d.copies, 1) << i;
        EXPECT_EQ(d.at_leaf, m.dst) << i;
        EXPECT_TRUE(d.crc_ok) << i;
      }
      EXPECT_GT(refused, 0u);
      EXPECT_EQ(r.refused, refused);
      EXPECT_EQ(r.delivered + r.refused, t.messages.size());
      for (uint32_t x : {5u, 10u}) {
        const Cm5DataChipCounters& c = r.chips[cm5_chip_id(p, 1, x / 4, 0)];
        EXPECT_EQ(c.in.at(x % 4), 0u) << "leaf " << x;
        EXPECT_EQ(c.out.at(x % 4), 0u) << "leaf " << x;
      }
    }
  }
}

TEST(Cm5MapOut, BadMappedOutLeavesAreRefused) {
  Cm5DataParams p = params(1, "cm5");
  p.mapped_out_leaves = {4};
  try {
    validate(p, "m");
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("mapped_out_leaves[0] = 4 out of range 0..3"), std::string::npos) << e.what();
  }
  p.mapped_out_leaves = {1, 1};
  EXPECT_THROW(validate(p, "m"), ConfigError);
  p.mapped_out_leaves = {0, 1, 2};
  try {
    validate(p, "m");
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("maps out 3 of 4 leaves (at least 2 must stay)"), std::string::npos) << e.what();
  }
  p.mapped_out_leaves = {0, 3};
  EXPECT_NO_THROW(validate(p, "m"));
  // From JSON: the field, its canonical form, and a non-number.
  const Cm5DataConfig c = parse_cm5data_config(
      R"({"network":"cm5data","name":"m","cm5data":{"height":1,"mapped_out_leaves":[3,1]}})", "m.json");
  EXPECT_EQ(c.cm5.mapped_out_leaves, (std::vector<uint32_t>{3, 1}));
  EXPECT_NE(config_to_json(c).find("\"mapped_out_leaves\""), std::string::npos);
  EXPECT_EQ(parse_cm5data_config(config_to_json(c), "again").cm5.mapped_out_leaves, c.cm5.mapped_out_leaves);
  try {
    parse_cm5data_config(R"({"network":"cm5data","name":"m","cm5data":{"height":1,"mapped_out_leaves":["x"]}})", "m.json");
    ADD_FAILURE();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("m.json: cm5data: mapped_out_leaves[0] must be a leaf number"), std::string::npos)
        << e.what();
  }
}

// --- all-fall-down --------------------------------------------------------------------------

// Every message lands on a leaf exactly once; those that fell carry the mark; the counters
// conserve; a message that fell never went up again (it lands within its own subtree of the
// chip that marked it, so its leaf and its route agree with the counters conserving).
void expect_all_land(const Cm5DataParams& p, const Cm5DataTraffic& t, const Cm5DataRunResult& r, uint64_t* fell) {
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.delivered, t.messages.size());
  *fell = 0;
  std::vector<uint64_t> received(p.leaves(), 0);
  for (size_t i = 0; i < t.messages.size(); ++i) {
    const Cm5DataDelivery& d = r.deliveries[i];
    ASSERT_TRUE(d.delivered) << i;
    EXPECT_EQ(d.copies, 1) << i;
    EXPECT_TRUE(d.crc_ok) << i;
    ++received[d.at_leaf];
    if (d.words[0] & 8u) ++*fell;
    else EXPECT_EQ(d.at_leaf, t.messages[i].dst) << i;
  }
  for (uint32_t x = 0; x < p.leaves(); ++x)
    EXPECT_EQ(r.chips[cm5_chip_id(p, 1, x / 4, 0)].out.at(x % 4), received[x]) << "leaf " << x;
  for (size_t c = 0; c < r.chips.size(); ++c) {
    uint64_t in = 0, out = 0;
    for (auto v : r.chips[c].in) in += v;
    for (auto v : r.chips[c].out) out += v;
    EXPECT_EQ(in, out) << "chip " << c;
  }
}

TEST(Cm5AllFallDown, FromAnyMixOfModesEveryMessageLandsOnALeaf) {
  const Cm5DataParams p = params(3, "cm5", 8);
  const uint32_t NC = p.total_chips();
  std::mt19937_64 rng(3);
  for (const char* pat : {"all-to-one", "random", "hot-spot"}) {
    Cm5DataTraffic t = make_cm5_pattern(pat, p, 2, 6);
    for (size_t i = 0; i < t.messages.size(); i += 7) t.messages[i].afd = true;  // some leave marked
    // Schedules: all at once, bottom up, top down, random order, only the top, none.
    for (int s = 0; s < 6; ++s) {
      SCOPED_TRACE(std::string(pat) + " schedule " + std::to_string(s));
      Cm5DataModelOptions o;
      o.check_every_cycle = true;
      o.afd_at.assign(NC, kCm5Never);
      for (uint32_t c = 0; c < NC; ++c) {
        const int level = cm5_chip_pos(p, c).level;
        if (s == 0) o.afd_at[c] = 0;
        if (s == 1) o.afd_at[c] = 40 + 60 * static_cast<uint64_t>(level);
        if (s == 2) o.afd_at[c] = 40 + 60 * static_cast<uint64_t>(p.height - level);
        if (s == 3) o.afd_at[c] = rng() % 3 == 0 ? kCm5Never : 20 + rng() % 400;
        if (s == 4 && level == p.height) o.afd_at[c] = 30;
      }
      const Cm5DataRunResult r = run_cm5data_model(p, t, o);
      EXPECT_EQ(r.kirchhoff_violations, 0u);
      uint64_t fell = 0;
      expect_all_land(p, t, r, &fell);
      if (s == 0) {
        EXPECT_EQ(fell, t.messages.size());  // every message fell at its first chip
        for (size_t i = 0; i < t.messages.size(); ++i)
          EXPECT_EQ(r.deliveries[i].at_leaf / 4, t.messages[i].src / 4) << i;
      }
      if (s == 5) {
        uint64_t marked = 0;
        for (const auto& m : t.messages) marked += m.afd;
        EXPECT_EQ(fell, marked);
      } else {
        EXPECT_GT(fell, 0u);
      }
    }
  }
}

TEST(Cm5AllFallDown, FallingMessagesSpreadOverTheLeaves) {
  // Everything to leaf 0, every chip in the mode from the start: the messages land on the
  // leaves by the permutation, not on leaf 0 (at most a small number per leaf).
  const Cm5DataParams p = params(3, "full", 8);
  const Cm5DataTraffic t = make_cm5_pattern("all-to-one", p, 1, 4);
  Cm5DataModelOptions o;
  o.afd_at.assign(p.total_chips(), 0);
  const Cm5DataRunResult r = run_cm5data_model(p, t, o);
  ASSERT_TRUE(r.completed);
  std::vector<int> per(p.leaves(), 0);
  for (const auto& d : r.deliveries) ++per[d.at_leaf];
  EXPECT_EQ(*std::max_element(per.begin(), per.end()), 4);  // a permutation at every chip
}

}  // namespace
}  // namespace cmnet
