// FST waveforms on demand: a traced RTL run writes an FST file limited to its window, and routes
// exactly as the untraced run does (tracing only observes).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "sim/cm1/cm1_rtl.h"
#include "sim/cm1/traffic.h"

namespace cmnet {
namespace {

namespace fs = std::filesystem;

Cm1Config small() {
  Cm1Config cfg;
  cfg.name = "trace";
  cfg.cm1.cube_dims = 2;
  cfg.cm1.procs_per_chip = 4;
  cfg.cm1.data_bits = 8;
  return cfg;
}

TEST(Cm1Trace, TracedRunWritesAnFstWindowAndRoutesTheSame) {
  const Cm1Config cfg = small();
  const Traffic t = make_pattern("permutation", cfg.cm1, 3, 1);
  Cm1RtlOptions plain;
  plain.whole_network = true;
  const Cm1RtlRun a = run_cm1_rtl(cfg, t, EjectMode::kOrCombine, plain);

  const fs::path dir = fs::temp_directory_path() / ("cmnet-trace-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  Cm1RtlOptions traced = plain;
  traced.trace_file = (dir / "short.fst").string();
  traced.trace_from = 0;
  traced.trace_to = 5;
  const Cm1RtlRun b = run_cm1_rtl(cfg, t, EjectMode::kOrCombine, traced);
  traced.trace_file = (dir / "all.fst").string();
  traced.trace_to = UINT64_MAX;
  const Cm1RtlRun c = run_cm1_rtl(cfg, t, EjectMode::kOrCombine, traced);

  EXPECT_EQ(b.receptions, a.receptions);
  EXPECT_EQ(c.receptions, a.receptions);
  EXPECT_EQ(b.bit_times, a.bit_times);
  for (const char* f : {"short.fst", "all.fst"}) {
    ASSERT_TRUE(fs::exists(dir / f)) << f;
    std::ifstream in(dir / f, std::ios::binary);
    const int first = in.get();
    EXPECT_EQ(first, 0) << f << ": an FST file opens with its header block (type 0)";
  }
  // The 6-bit-time window holds fewer value changes than the whole run.
  EXPECT_LT(fs::file_size(dir / "short.fst"), fs::file_size(dir / "all.fst"));
  fs::remove_all(dir);
}

TEST(Cm1Trace, RefusedWhereItCannotBeHonoured) {
  Cm1RtlOptions o;
  o.trace_file = "/tmp/x.fst";
  o.ce_period = 3;
  const Cm1Config cfg = small();
  EXPECT_THROW(run_cm1_rtl(cfg, make_pattern("permutation", cfg.cm1, 1, 1), EjectMode::kOrCombine, o),
               std::invalid_argument);
}

}  // namespace
}  // namespace cmnet
