// `cmnet bench-fpga`'s one real-tool check: its smallest block (the CM-5 control network's node)
// through yosys and nextpnr at one seed, into the table.
#include <gtest/gtest.h>

#include <filesystem>

#include "host/cli/family.h"
#include "host/cli/fpga_bench.h"

namespace cmnet {
namespace {

TEST(FpgaBenchFlow, SmallestBlockPlacedAtOneSeed) {
  const Family& f = find_family("cm5ctl", "test");
  const auto blocks = f.fpga_blocks();
  ASSERT_FALSE(blocks.empty());
  const FpgaBlock& node = blocks.front();
  FpgaRunOptions o;
  o.dir = (std::filesystem::temp_directory_path() / ("cmnet-fpga-bench-flow-" + std::to_string(::getpid()))).string();
  o.seeds = {1};
  std::filesystem::remove_all(o.dir);
  const FpgaMeasurement m = node.measure(o);
  std::filesystem::remove_all(o.dir);
  ASSERT_EQ(m.status, FpgaMeasurement::Status::Placed) << m.detail;
  EXPECT_GT(m.luts, 0);
  EXPECT_GT(m.ffs, 0);
  EXPECT_GE(m.ram_blocks, 0);
  EXPECT_GE(m.logic_cells, m.luts / 2);
  EXPECT_EQ(m.logic_cells_available, 7680);
  ASSERT_EQ(m.fmax.size(), 1u);
  EXPECT_EQ(m.fmax[0].seed, 1);
  EXPECT_GT(m.fmax[0].fmax_mhz, 0);
  const std::string t = fpga_bench_table({{"cm5ctl", node, m}}, {1});
  EXPECT_NE(t.find("| cm5ctl | " + node.name + " |"), std::string::npos) << t;
}

}  // namespace
}  // namespace cmnet
