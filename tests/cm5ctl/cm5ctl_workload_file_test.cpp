// A user's workload file (sim/cm5ctl/cm5ctl_workload_file.h): the example parses into the
// operations it says, the functional oracle's results are the numbers the example's comments
// give, the model's equal them, and every kind of bad line is refused naming file, line and field.
#include "sim/cm5ctl/cm5ctl_workload_file.h"

#include <gtest/gtest.h>

#include <sstream>

#include "gen/core/errors.h"
#include "sim/cm5ctl/cm5ctl_model.h"
#include "sim/cm5ctl/cm5ctl_oracle_view.h"

namespace cmnet {
namespace {

const std::string kExample = std::string(CMNET_SOURCE_DIR) + "/gen/examples/cm5ctl_scan.workload";

Cm5Workload parse(const std::string& text, int leaves = 4, int w = 32) {
  std::istringstream in(text);
  return parse_cm5ctl_workload(in, "w.txt", leaves, w);
}

std::string error_of(const std::string& text, int leaves = 4, int w = 32) {
  try {
    parse(text, leaves, w);
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(Cm5ctlWorkloadFile, TheExampleIsWhatItSays) {
  const Cm5Workload w = read_cm5ctl_workload(kExample, 4, 32);
  ASSERT_EQ(w.leaf.size(), 4u);
  EXPECT_EQ(w.multi_ops(), 9u);
  EXPECT_EQ(w.broadcasts(), 1u);
  ASSERT_EQ(w.globals.size(), 2u);
  EXPECT_EQ(w.globals[1].cycle, 200u);
  EXPECT_TRUE(w.leaf[1][4].abstain);
  EXPECT_TRUE(w.leaf[2][5].seg && w.leaf[2][5].segmented);
  EXPECT_EQ(w.leaf[0][1].data, 0xfffffffcu);  // -4 in 32 bits
  EXPECT_TRUE(w.leaf[0][6].broadcast);
  EXPECT_EQ(w.leaf[0][6].data, 0xbeefu);

  // The oracle's results are the ones the example's comments give, leaf by leaf.
  Cm5ctlParams p;
  p.leaves = 4;
  const Cm5Expected e = cm5ctl_view::oracle_expected(p, w);
  const std::vector<std::vector<uint64_t>> want = {{24, 24, 24, 24}, {2, 2, 2, 2},   {0, 3, 5, 5},
                                                   {14, 12, 8, 0},   {0, 1, 1, 5},   {0, 1, 0, 3},
                                                   {1, 1, 1, 1},     {0, 0, 0, 0},   {2, 2, 2, 2}};
  for (size_t k = 0; k < want.size(); ++k)
    for (size_t i = 0; i < 4; ++i) EXPECT_EQ(e.multi[i][k].data, want[k][i]) << "operation " << k << " leaf " << i;
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(e.bcast[i].at(0).data, 0xbeefu);

  // The model: every result the oracle's, the global OR up and down again at every leaf.
  Cm5ModelOptions o;
  o.min_cycles = 200 + cm5ctl_global_settle(p);
  const Cm5RunResult r = run_cm5ctl_model(p, w, o);
  EXPECT_TRUE(r.completed);
  EXPECT_EQ(cm5ctl_view::joined(cm5ctl_view::oracle_disagreements(p, w, r.results)), "");
  uint8_t last[4] = {9, 9, 9, 9};
  bool raised[4] = {};
  for (const Cm5GlobalOut& g : r.globals) {
    last[g.leaf] = g.value;
    raised[g.leaf] = raised[g.leaf] || g.value == 1;
  }
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(raised[i] && last[i] == 0) << "leaf " << i;
}

TEST(Cm5ctlWorkloadFile, AUsersScanOnEightLeavesIsThePlainSoftwareOne) {
  // Exclusive forward prefix sums and a reduction, by hand.
  const Cm5Workload w = parse("scan-fwd add 1 2 3 4 5 6 7 8\nreduce uadd 10 20 30 40 50 60 70 80\n", 8);
  Cm5ctlParams p;
  p.leaves = 8;
  const Cm5RunResult r = run_cm5ctl_model(p, w);
  const Cm5Expected got = split_results(r.results, 8);
  uint64_t prefix = 0;
  for (uint32_t i = 0; i < 8; ++i) {
    ASSERT_EQ(got.multi[i].size(), 2u);
    EXPECT_EQ(got.multi[i][0].data, prefix);
    EXPECT_EQ(got.multi[i][1].data, 360u);
    prefix += i + 1;
  }
}

TEST(Cm5ctlWorkloadFile, BadLinesNameFileLineAndField) {
  struct Bad {
    std::string text, want;
  };
  const std::vector<Bad> bad = {
      {"reduce add 1 2 3 abc\n", "w.txt:1: field 6 'abc': not a number (decimal or 0x hex)"},
      {"# c\n\nreduce add 1 2 3\n", "w.txt:3: 3 values after 'reduce', the network has 4 leaves (one value or '-' each)"},
      {"reduce add 1 2 3 4 5\n", "w.txt:1: 5 values after 'reduce'"},
      {"reduce mul 1 2 3 4\n", "w.txt:1: field 2 'mul': not a combiner (allowed: or, xor, max, add, uadd, addc, uaddc)"},
      {"reduce add 1 2 3 0x1ffffffff\n", "w.txt:1: field 6 '0x1ffffffff': out of range -2147483648..4294967295"},
      {"scan-fwd add 1 |2 3 4\n", "w.txt:1: field 4 '|2': a segment bit ('|') in an unsegmented operation"},
      {"segscan-fwd add 1 |x 3 4\n", "w.txt:1: field 4 '|x': not a number"},
      {"barrier 0 1 2 0\n", "w.txt:1: field 4 '2': out of range 0..1"},
      {"broadcast 4 7\n", "w.txt:1: field 2 '4': out of range 0..3"},
      {"broadcast 0 7 loud\n", "w.txt:1: field 4 'loud': not a broadcast kind"},
      {"broadcast 0 7\nbroadcast 1 7\n", "w.txt:2: field 2 '1': every broadcast of a file comes from one leaf (leaf 0 broadcasts on line 1)"},
      {"broadcast 0\n", "w.txt:1: expected 'broadcast LEAF VALUE [KIND]'"},
      {"global 5 0 8\nreduce or 1 1 1 1\n", "w.txt:1: field 4 '8': out of range 0..7"},
      {"global 5 0\n", "w.txt:1: expected 'global CYCLE LEAF BITS'"},
      {"reduce or 1 2 3 4\nreduce addc 1 2 3 4\n", "w.txt:2: field 2 'addc': goes on from an add or addc"},
      {"reduce add 1 2 3 4\nreduce uaddc 1 2 3 4\n", "w.txt:2: field 2 'uaddc': goes on from a uadd or uaddc"},
      {"reduce add 1 2 3 4\nscan-fwd addc 1 2 3 4\n", "w.txt:2: field 1 'scan-fwd': a multi-word addition's words are one operation"},
      {"reduce add 1 - 3 4\nreduce addc 1 2 3 4\n", "w.txt:2: field 4 '2': a multi-word addition's words have the abstain"},
      {"scan 1 2 3 4\n", "w.txt:1: field 1 'scan': not an operation"},
      {"# nothing\n", "w.txt: no operation"},
      {"this is not a workload\n", "w.txt:1: field 1 'this': not an operation"},
  };
  for (const Bad& b : bad) EXPECT_EQ(error_of(b.text).rfind(b.want, 0), 0u) << b.text << "-> " << error_of(b.text);
  EXPECT_THROW(read_cm5ctl_workload("/no/such/file", 4, 32), InputError);
  // Narrow words: the range is the config's.
  EXPECT_EQ(error_of("reduce add 1 2 3 8\n", 4, 3).rfind("w.txt:1: field 6 '8': out of range -4..7", 0), 0u);
  EXPECT_EQ(parse("reduce add 1 2 3 -1\n", 4, 3).leaf[3][0].data, 7u);
}

}  // namespace
}  // namespace cmnet
