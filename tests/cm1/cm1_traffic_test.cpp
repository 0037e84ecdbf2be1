// Tests of traffic files (parse/format/read) and the named routing patterns (sim/traffic.*).
#include "sim/cm1/cm1_traffic.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "gen/cm1/cm1_params.h"
#include "gen/core/errors.h"

namespace cmnet {
namespace {

bool same(const Message& a, const Message& b) {
  return a.src == b.src && a.dst == b.dst && a.vp == b.vp && a.data == b.data;
}

void expect_same(const Traffic& a, const Traffic& b) {
  ASSERT_EQ(a.messages.size(), b.messages.size());
  for (size_t i = 0; i < a.messages.size(); ++i) EXPECT_TRUE(same(a.messages[i], b.messages[i])) << "message " << i;
}

// 2^8 chips x 16 processors = 4096 processors; 8 data bits, 2 VP bits.
Cm1Params params() {
  Cm1Params p;
  p.cube_dims = 8;
  p.procs_per_chip = 16;
  p.data_bits = 8;
  p.vp_bits = 2;
  return p;
}

// ---------------------------------------------------------------------------------------------
// Parsing

TEST(TrafficParse, GoodFileRoundTrips) {
  const std::string text =
      "# a comment line\n"
      "\n"
      "0 4095 ff\n"
      "  17\t42   0x1A 3   # trailing comment\r\n"
      "4095 0 0X0 0\n"
      "   \t  \n"
      "5 5 7f 1";  // no final newline
  const Traffic t = parse_traffic(text, "good.txt", params());
  ASSERT_EQ(t.messages.size(), 4u);
  EXPECT_EQ(t.messages[0].src, 0u);
  EXPECT_EQ(t.messages[0].dst, 4095u);
  EXPECT_EQ(t.messages[0].data, 0xffu);
  EXPECT_EQ(t.messages[0].vp, 0u);
  EXPECT_EQ(t.messages[1].src, 17u);
  EXPECT_EQ(t.messages[1].dst, 42u);
  EXPECT_EQ(t.messages[1].data, 0x1au);
  EXPECT_EQ(t.messages[1].vp, 3u);
  EXPECT_EQ(t.messages[2].src, 4095u);
  EXPECT_EQ(t.messages[2].data, 0u);
  EXPECT_EQ(t.messages[3].data, 0x7fu);
  EXPECT_EQ(t.messages[3].vp, 1u);

  const std::string formatted = format_traffic(t);
  expect_same(parse_traffic(formatted, "formatted", params()), t);
  EXPECT_EQ(format_traffic(parse_traffic(formatted, "formatted", params())), formatted);
}

TEST(TrafficParse, EmptyAndCommentOnly) {
  EXPECT_TRUE(parse_traffic("", "e", params()).messages.empty());
  EXPECT_TRUE(parse_traffic("# nothing\n\n#\n", "e", params()).messages.empty());
}

TEST(TrafficParse, SixtyFourBitData) {
  Cm1Params p = params();
  p.data_bits = 64;
  const Traffic t = parse_traffic("1 2 0xffffffffffffffff\n3 4 8000000000000000\n", "d64", p);
  ASSERT_EQ(t.messages.size(), 2u);
  EXPECT_EQ(t.messages[0].data, ~uint64_t{0});
  EXPECT_EQ(t.messages[1].data, uint64_t{1} << 63);
  expect_same(parse_traffic(format_traffic(t), "d64", p), t);
}

TEST(TrafficParse, ReadFileAndMissingFile) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::string path = (dir / ("cmnet_traffic_test_" + std::to_string(::getpid()) + ".txt")).string();
  Traffic t = make_pattern("many-to-one", params(), 9, 2);
  {
    std::ofstream out(path);
    out << format_traffic(t);
  }
  expect_same(read_traffic_file(path, params()), t);
  std::filesystem::remove(path);
  try {
    read_traffic_file(path, params());
    ADD_FAILURE() << "no error for a missing file";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

struct BadCase {
  const char* line;
  std::vector<std::string> expect;  // substrings of the message
};

TEST(TrafficParse, MalformedLinesNameFileLineAndField) {
  const std::vector<BadCase> cases = {
      {"1 70000 ff", {"bad.txt:3: field 'DST' value 70000 out of range 0..4095"}},
      {"4096 1 ff", {"bad.txt:3:", "'SRC'", "4096", "0..4095"}},
      {"-1 1 ff", {"bad.txt:3:", "'SRC'", "-1", "0..4095"}},
      {"abc 1 ff", {"bad.txt:3: field 'SRC' value abc is not a decimal number"}},
      {"1 2x ff", {"bad.txt:3: field 'DST' value 2x is not a decimal number"}},
      {"1 99999999999999999999999 ff", {"bad.txt:3:", "'DST'", "out of range 0..4095"}},
      {"1 2 1ff", {"bad.txt:3:", "'DATA'", "1ff", "0x0..0xff", "8 bits"}},
      {"1 2 0x100", {"bad.txt:3:", "'DATA'", "0x100", "8 bits"}},
      {"1 2 0xzz", {"bad.txt:3: field 'DATA' value 0xzz is not a hex number"}},
      {"1 2 0x", {"bad.txt:3:", "'DATA'", "not a hex number"}},
      {"1 2 12345678901234567", {"bad.txt:3:", "'DATA'", "out of range"}},
      {"1 2 ff 4", {"bad.txt:3:", "'VP'", "value 4 out of range 0..3"}},
      {"1 2 ff x", {"bad.txt:3:", "'VP'", "not a decimal number"}},
      {"1 2 ff 1 9", {"bad.txt:3:", "extra field '9'"}},
      {"1 2", {"bad.txt:3:", "missing field 'DATA'"}},
      {"1", {"bad.txt:3:", "missing field 'DST'"}},
  };
  for (const BadCase& c : cases) {
    const std::string text = "# header\n0 1 00\n" + std::string(c.line) + "\n2 3 04\n";
    try {
      parse_traffic(text, "bad.txt", params());
      ADD_FAILURE() << "no error for '" << c.line << "'";
    } catch (const InputError& e) {
      for (const std::string& s : c.expect) {
        EXPECT_NE(std::string(e.what()).find(s), std::string::npos)
            << "line '" << c.line << "': message '" << e.what() << "' lacks '" << s << "'";
      }
    }
  }
}

TEST(TrafficParse, VpMustBeZeroWithoutVpBits) {
  Cm1Params p = params();
  p.vp_bits = 0;
  EXPECT_EQ(parse_traffic("1 2 3 0\n", "v0.txt", p).messages.size(), 1u);
  try {
    parse_traffic("1 2 3 0\n1 2 3 1\n", "v0.txt", p);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("v0.txt:2: field 'VP' value 1 out of range 0..0"), std::string::npos)
        << e.what();
  }
}

TEST(TrafficCheck, ChecksAgainstParams) {
  Traffic t;
  t.messages.resize(2);
  t.messages[1].dst = 4096;
  EXPECT_THROW(check_traffic(t, params(), "x"), InputError);
  t.messages[1].dst = 4095;
  EXPECT_NO_THROW(check_traffic(t, params(), "x"));
  t.messages[1].data = 0x100;
  EXPECT_THROW(check_traffic(t, params(), "x"), InputError);
}

// ---------------------------------------------------------------------------------------------
// Patterns

TEST(TrafficPatterns, Names) {
  const std::vector<std::string> names = pattern_names();
  EXPECT_EQ(names, (std::vector<std::string>{"permutation", "many-to-one", "hot-spot", "bit-complement",
                                             "transpose", "identity"}));
  try {
    make_pattern("random-ish", params(), 1);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("random-ish"), std::string::npos) << what;
    for (const std::string& n : names) EXPECT_NE(what.find(n), std::string::npos) << what;
  }
  EXPECT_THROW(make_pattern("identity", params(), 1, 0), InputError);
}

TEST(TrafficPatterns, ShapeRangesAndOrder) {
  const Cm1Params p = params();
  const uint32_t n = static_cast<uint32_t>(p.processors());
  for (const std::string& name : pattern_names()) {
    const Traffic t = make_pattern(name, p, 3, 3);
    ASSERT_EQ(t.messages.size(), 3u * n) << name;
    EXPECT_NO_THROW(check_traffic(t, p, name));
    std::set<uint64_t> data;
    std::set<uint32_t> vps;
    for (size_t i = 0; i < t.messages.size(); ++i) {
      EXPECT_EQ(t.messages[i].src, i % n) << name;  // round by round
      data.insert(t.messages[i].data);
      vps.insert(t.messages[i].vp);
    }
    EXPECT_GT(data.size(), 200u) << name;  // random 8-bit data: nearly all 256 values
    EXPECT_EQ(vps.size(), 4u) << name;     // random 2-bit VP addresses
  }
}

TEST(TrafficPatterns, DeterministicPerSeed) {
  for (const std::string& name : pattern_names()) {
    const std::string a = format_traffic(make_pattern(name, params(), 11, 2));
    const std::string b = format_traffic(make_pattern(name, params(), 11, 2));
    const std::string c = format_traffic(make_pattern(name, params(), 12, 2));
    EXPECT_EQ(a, b) << name;
    EXPECT_NE(a, c) << name;  // at least the random data differ
  }
}

// mt19937_64 is fully specified by the standard and the integer reduction is our own, so the
// patterns are the same with every standard library.
TEST(TrafficPatterns, Golden) {
  Cm1Params p;
  p.cube_dims = 2;
  p.procs_per_chip = 2;
  p.vp_bits = 3;
  p.data_bits = 12;
  const Traffic t = make_pattern("permutation", p, 42, 1);
  std::vector<uint32_t> dst;
  for (const Message& m : t.messages) dst.push_back(m.dst);
  EXPECT_EQ(dst, (std::vector<uint32_t>{7, 0, 5, 1, 2, 4, 3, 6}));
  EXPECT_EQ(t.messages[0].data, 0x900u);
  EXPECT_EQ(t.messages[0].vp, 6u);
  EXPECT_EQ(t.messages[7].data, 0xb52u);
}

TEST(TrafficPatterns, PermutationEachRound) {
  const Cm1Params p = params();
  const uint32_t n = static_cast<uint32_t>(p.processors());
  const Traffic t = make_pattern("permutation", p, 5, 4);
  std::vector<std::vector<uint32_t>> rounds(4);
  for (size_t i = 0; i < t.messages.size(); ++i) rounds[i / n].push_back(t.messages[i].dst);
  for (auto& r : rounds) {
    std::vector<uint32_t> sorted = r;
    std::sort(sorted.begin(), sorted.end());
    for (uint32_t k = 0; k < n; ++k) ASSERT_EQ(sorted[k], k);
  }
  EXPECT_NE(rounds[0], rounds[1]);  // independent rounds
  size_t fixed = 0;
  for (uint32_t k = 0; k < n; ++k) fixed += rounds[0][k] == k;
  EXPECT_LT(fixed, 10u);  // a random permutation has about one fixed point
}

TEST(TrafficPatterns, HotSpotAndManyToOne) {
  const Cm1Params p = params();
  const uint32_t n = static_cast<uint32_t>(p.processors());
  const Traffic hot = make_pattern("hot-spot", p, 8, 2);
  size_t to0 = 0;
  for (const Message& m : hot.messages) to0 += m.dst == 0;
  const double frac = static_cast<double>(to0) / static_cast<double>(hot.messages.size());
  EXPECT_GT(frac, 0.22);
  EXPECT_LT(frac, 0.28);

  const Traffic many = make_pattern("many-to-one", p, 8, 1);
  std::set<uint32_t> dsts;
  for (const Message& m : many.messages) dsts.insert(m.dst);
  // Random destinations: about n(1 - 1/e) distinct ones, clearly not a permutation.
  EXPECT_LT(dsts.size(), n * 7 / 10);
  EXPECT_GT(dsts.size(), n / 2);
}

TEST(TrafficPatterns, FixedPatterns) {
  for (int c : {3, 4}) {
    for (int P : {1, 2, 4}) {
      Cm1Params p = params();
      p.cube_dims = c;
      p.procs_per_chip = P;
      const uint32_t n = static_cast<uint32_t>(p.processors());
      const int bits = std::countr_zero(n);
      const Traffic comp = make_pattern("bit-complement", p, 1, 2);
      const Traffic tr = make_pattern("transpose", p, 1, 1);
      const Traffic id = make_pattern("identity", p, 1, 1);
      std::set<uint32_t> tr_dsts;
      for (uint32_t s = 0; s < n; ++s) {
        EXPECT_EQ(comp.messages[s].dst, (n - 1) ^ s);
        EXPECT_EQ(comp.messages[n + s].dst, (n - 1) ^ s);
        EXPECT_EQ(id.messages[s].dst, s);
        const int k = bits / 2;
        const uint32_t expect = ((s << k) | (s >> (bits - k))) & (n - 1);
        EXPECT_EQ(tr.messages[s].dst, expect) << "bits " << bits << " src " << s;
        tr_dsts.insert(tr.messages[s].dst);
      }
      EXPECT_EQ(tr_dsts.size(), n);  // a permutation, also for an odd bit count
    }
  }
  // Even bit count: the halves swap. 2^4 chips x 16 processors: 8 bits, 0xAB -> 0xBA.
  Cm1Params p = params();
  p.cube_dims = 4;
  p.procs_per_chip = 16;
  EXPECT_EQ(make_pattern("transpose", p, 1).messages[0xab].dst, 0xbau);
}

}  // namespace
}  // namespace cmnet
