// The emitted CM-5 data network RTL (Verilator) against the reference model with faults: a
// mapped-out leaf at 4 leaves (and an FST trace), a bad leaf link, a mapped-out link and
// all-fall-down at 16 leaves, message by message and chip by chip (split from cm5data_rtl_test so
// each binary builds fewer Verilator models).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "tests/cm5data/cm5data_check.h"
#include "tests/core/fst_check.h"

namespace cmnet {
namespace {

namespace fs = std::filesystem;

// A bad leaf link (leaf 8 into its chip, flit 36: a data word of 5-word messages, the CRC word
// of 3-word ones; the harness matches a corrupted message to the one it differs least from, so
// the tests' messages are long enough to differ in several words), a mapped-out link (node 1's parent 1 at
// level 1) and all-fall-down on one 16-leaf network: one Verilator build for the three.
Cm5DataConfig faulty_config() {
  Cm5DataConfig cfg = cm5data_test_config(2, "cm5", 4, 2, 3, "cm5data-16-faults");
  add_mapped_out_and_bad_link(cfg.cm5);
  return cfg;
}

// A leaf mapped out of the address space (4 leaves: a quick build): the messages from and to it
// are refused at the sender, in the RTL harness's leaves as in the model; the rest as the model,
// cycle for cycle, and its link carries nothing.
TEST(Cm5RtlFaults, MappedOutLeafAsTheModel) {
  Cm5DataConfig cfg = cm5data_test_config(1, "cm5", 8, 2, 4, "cm5data-4-mapped-out");
  cfg.cm5.mapped_out_leaves = {2};
  validate(cfg.cm5, "test");
  for (const char* pattern : {"random", "permutation", "hot-spot"}) {
    const Cm5DataTraffic t = make_cm5_pattern(pattern, cfg.cm5, 21, 6);
    const Cm5DataRunResult r = expect_rtl_equals_model(cfg, t, pattern, {}, false);
    EXPECT_GT(r.refused, 0u) << pattern;
    EXPECT_EQ(r.chips.at(0).in.at(2), 0u) << pattern;
    EXPECT_EQ(r.chips.at(0).out.at(2), 0u) << pattern;
  }
  // The harness on the shared driver writes an FST waveform of the run's cycles asked for (a
  // model built for it; cm5data_family_test's `cmnet sim --trace` uses the same one).
  Cm5DataRtlOptions ro;
  ro.trace.file = (fs::temp_directory_path() / ("cmnet-cm5-trace-" + std::to_string(::getpid()) + ".fst")).string();
  ro.trace.from = 3;
  ro.trace.to = 20;
  const Cm5DataRunResult tr = run_cm5data_rtl(cfg, make_cm5_pattern("random", cfg.cm5, 21, 1), ro);
  EXPECT_TRUE(tr.completed);
  EXPECT_TRUE(test::fst_holds_cycles(ro.trace.file, 3, 20));
  fs::remove(ro.trace.file);
}

TEST(Cm5RtlFaults, CrcErrorsMapOutAndAllFallDownAsTheModel) {
  const Cm5DataConfig cfg = faulty_config();
  const Cm5DataParams& p = cfg.cm5;
  {
    // One message over the bad link: one primary, a trail of two secondaries.
    Cm5DataTraffic t;
    Cm5DataMessage m;
    m.src = 8;
    m.dst = 0;
    m.len = 3;
    m.data = {1, 2, 3};
    t.messages.push_back(m);
    const Cm5DataRunResult r = expect_rtl_equals_model(cfg, t, "one message over the bad link", {}, false);
    uint64_t pri = 0, sec = 0;
    for (const auto& c : r.chips) {
      pri += c.crc_primary;
      sec += c.crc_secondary;
    }
    EXPECT_EQ(pri, 1u);
    EXPECT_EQ(r.chips[p.fault.chip].crc_primary, 1u);
    EXPECT_EQ(sec, 2u);
    EXPECT_EQ(r.deliveries[0].crc, Cm5Crc::secondary);
  }
  for (const auto& pat : {"random", "bit-complement", "hot-spot"}) {
    const Cm5DataTraffic t = make_cm5_pattern(pat, p, 5, 4, 5);
    const Cm5DataRunResult r = expect_rtl_equals_model(cfg, t, pat, {}, false);
    // The mapped-out link carries nothing either way; leaf 8's messages are the primaries.
    EXPECT_EQ(r.chips[cm5_chip_id(p, 1, 1, 0)].out[5], 0u);
    EXPECT_EQ(r.chips[cm5_chip_id(p, 1, 1, 0)].in[5], 0u);
    EXPECT_EQ(r.chips[p.fault.chip].crc_primary, r.chips[p.fault.chip].in[0]);
  }
  // All-fall-down: chips enter the mode in a scattered order, a few messages leave marked.
  Cm5DataTraffic t = make_cm5_pattern("all-to-one", p, 6, 4, 5);
  for (size_t i = 0; i < t.messages.size(); i += 5) t.messages[i].afd = true;
  std::vector<uint64_t> at(p.total_chips(), kCm5Never);
  at[5] = 30;   // a top chip first
  at[0] = 90;   // then leaf 0's chip
  at[3] = 200;  // and one more
  const Cm5DataRunResult r = expect_rtl_equals_model(cfg, t, "all-fall-down", at, false);
  uint64_t fell = 0;
  for (const auto& d : r.deliveries) fell += (d.words[0] & 8u) != 0;
  EXPECT_GT(fell, t.messages.size() / 5);
}

}  // namespace
}  // namespace cmnet
