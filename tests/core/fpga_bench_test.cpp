// `cmnet bench-fpga`'s table and JSON from given measurements (no tools run), and every family's
// block list.
#include <gtest/gtest.h>

#include <set>

#include "host/cli/family.h"
#include "host/cli/fpga_bench.h"

namespace cmnet {
namespace {

FpgaBenchRow placed_row() {
  FpgaBenchRow r;
  r.family = "cm5data";
  r.block.name = "chip, 2 parents";
  r.block.ports = 6;
  r.block.port_bits = 4;
  r.block.paper_mhz = 40;
  r.block.paper_clock = "the paper";
  r.m.status = FpgaMeasurement::Status::Placed;
  r.m.luts = 6703;
  r.m.ffs = 1590;
  r.m.ram_blocks = 0;
  r.m.logic_cells = 7248;
  r.m.logic_cells_available = 7680;
  r.m.fmax = {{1, 30.0, {33.3, 21, "sw.in0.digit", "sw.out1.valid"}}, {2, 36.0, {}}, {3, 33.0, {}}};
  return r;
}

FpgaBenchRow no_fit_row() {
  FpgaBenchRow r;
  r.family = "cm5data";
  r.block.name = "chip, 8 slots";
  r.block.ports = 6;
  r.block.port_bits = 4;
  r.m.status = FpgaMeasurement::Status::DoesNotFit;
  r.m.detail = "ICESTORM_LC 13434 used, 7680 available";
  r.m.luts = 12502;
  r.m.ffs = 3372;
  r.m.ram_blocks = 6;
  return r;
}

FpgaBenchRow endpoint_row() {
  FpgaBenchRow r;
  r.family = "cm5data";
  r.block.name = "interface";
  r.m.status = FpgaMeasurement::Status::Error;
  r.m.detail = "nextpnr failed\nlog tail";
  return r;
}

TEST(FpgaBench, LutsPerPortBitIsLutsOverPortsTimesBits) {
  EXPECT_DOUBLE_EQ(lut4_per_port_bit(placed_row().block, placed_row().m), 6703.0 / 24);
  EXPECT_LT(lut4_per_port_bit(endpoint_row().block, placed_row().m), 0);  // no ports: no figure
  FpgaMeasurement none;
  EXPECT_LT(lut4_per_port_bit(placed_row().block, none), 0);  // not synthesized
}

TEST(FpgaBench, TableHasEveryBlockItsSeedsAndStats) {
  const std::string t = fpga_bench_table({placed_row(), no_fit_row(), endpoint_row()}, {1, 2, 3});
  EXPECT_NE(t.find("seeds 1, 2, 3"), std::string::npos) << t;
  EXPECT_NE(t.find("| cm5data | chip, 2 parents | 6,703 | 1,590 | 0 | 7,248 | 30.0 / 36.0 / 33.0 | 30.0 / 33.0 | 279.3 (6 x 4) | 40 MHz |"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("| 12,502 | 3,372 | 6 | does not fit: ICESTORM_LC 13434 used, 7680 available | - | - | 520.9 (6 x 4) | - |"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("error: nextpnr failed |"), std::string::npos) << t;  // the first line only
  EXPECT_EQ(std::count(t.begin(), t.end(), '\n'), 5);                  // header, rule, 3 rows
}

TEST(FpgaBench, JsonCarriesFiguresPerSeedAndStatus) {
  const auto j = fpga_bench_json({placed_row(), no_fit_row(), endpoint_row()}, {1, 2, 3}, 100);
  EXPECT_EQ(j["seeds"], nlohmann::ordered_json::array({1, 2, 3}));
  ASSERT_EQ(j["blocks"].size(), 3u);
  const auto& a = j["blocks"][0];
  EXPECT_EQ(a["status"], "placed");
  EXPECT_EQ(a["lut4"], 6703);
  EXPECT_EQ(a["sb_ram40_4k"], 0);
  EXPECT_EQ(a["fmax"].size(), 3u);
  EXPECT_EQ(a["fmax"][1]["seed"], 2);
  EXPECT_DOUBLE_EQ(a["fmax_min_mhz"].get<double>(), 30.0);
  EXPECT_DOUBLE_EQ(a["fmax_mean_mhz"].get<double>(), 33.0);
  EXPECT_DOUBLE_EQ(a["lut4_per_port_bit"].get<double>(), 6703.0 / 24);
  EXPECT_EQ(a["paper_clock"]["mhz"], 40.0);
  const auto& b = j["blocks"][1];
  EXPECT_EQ(b["status"], "does not fit");
  EXPECT_EQ(b["detail"], "ICESTORM_LC 13434 used, 7680 available");
  EXPECT_FALSE(b.contains("fmax_min_mhz"));
  EXPECT_FALSE(b.contains("paper_clock"));
  EXPECT_TRUE(j["blocks"][2]["lut4_per_port_bit"].is_null());
  EXPECT_EQ(j["blocks"][2]["status"], "error");
}

// --resume reads a block's figures back from the JSON the bench wrote.
TEST(FpgaBench, MeasurementReadBackFromItsJson) {
  const auto j = fpga_bench_json({placed_row(), no_fit_row()}, {1, 2, 3}, 100);
  const FpgaMeasurement a = fpga_measurement_from_json(j["blocks"][0]);
  EXPECT_EQ(a.status, FpgaMeasurement::Status::Placed);
  EXPECT_EQ(a.luts, 6703);
  EXPECT_EQ(a.logic_cells_available, 7680);
  ASSERT_EQ(a.fmax.size(), 3u);
  EXPECT_EQ(a.fmax[2].seed, 3);
  EXPECT_DOUBLE_EQ(a.fmax[1].fmax_mhz, 36.0);
  EXPECT_DOUBLE_EQ(a.fmax[0].critical.ns, 33.3);
  EXPECT_EQ(a.fmax[0].critical.cells, 21);
  EXPECT_EQ(a.fmax[0].critical.to, "sw.out1.valid");
  EXPECT_EQ(a.fmax[1].critical.ns, 0);
  const FpgaMeasurement b = fpga_measurement_from_json(j["blocks"][1]);
  EXPECT_EQ(b.status, FpgaMeasurement::Status::DoesNotFit);
  EXPECT_EQ(b.detail, "ICESTORM_LC 13434 used, 7680 available");
  EXPECT_EQ(b.ram_blocks, 6);
  EXPECT_TRUE(b.fmax.empty());
}

// What limits each placed block, from nextpnr's critical path report (its last clock-to-clock
// one; the cross-domain reports after it are not the clock's): the delay with the setup time, the
// logic cells crossed, and the first and last cells' names without the mapper's suffixes.
TEST(FpgaBench, CriticalPathFromNextpnrsReport) {
  const std::string log =
      "Info: Critical path report for clock 'clk$SB_IO_IN_$glb_clk' (posedge -> posedge):\n"
      "Info: curr total\n"
      "Info:  0.5  0.5  Source ctrl.engine0.e_release_SB_LUT4_I3_O_SB_LUT4_I0_O_SB_LUT4_O_2_LC.O\n"
      "Info:  2.7  3.2    Net ctrl.engine0.cfg_data_SB_DFFESR_Q_D_SB_LUT4_O_I2[2] budget 0.177000 ns (6,4) -> (12,20)\n"
      "Info:                Sink busy_SB_LUT4_O_I1_SB_LUT4_I2_I0_SB_LUT4_O_LC.I0\n"
      "Info:                Defined in:\n"
      "Info:                  /usr/bin/../share/yosys/ice40/cells_map.v:6.21-6.22\n"
      "Info:  0.4  3.7  Source busy_SB_LUT4_O_I1_SB_LUT4_I2_I0_SB_LUT4_O_LC.O\n"
      "Info:  2.0 25.3    Net ctrl.engine0.status.output_vector[0]_SB_DFFESR_Q_1_E budget 0.194000 ns (6,13) -> (6,14)\n"
      "Info:                Sink ctrl.engine0.status.output_vector[0]_SB_DFFESR_Q_1_DFFLC.CEN\n"
      "Info:  0.1 25.4  Setup ctrl.engine0.status.output_vector[0]_SB_DFFESR_Q_1_DFFLC.CEN\n"
      "Info: 6.8 ns logic, 18.7 ns routing\n"
      "\n"
      "Info: Critical path report for cross-domain path '<async>' -> '<async>':\n"
      "Info: curr total\n"
      "Info:  0.0  0.0  Source in_data[6]$sb_io.D_IN_0\n"
      "Info:  2.7 40.7    Net in_data[6]$SB_IO_IN budget 0.896000 ns (22,33) -> (21,6)\n";
  const CriticalPath c = parse_nextpnr_critical_path(log);
  EXPECT_DOUBLE_EQ(c.ns, 25.4);
  EXPECT_EQ(c.cells, 2);
  EXPECT_EQ(c.from, "ctrl.engine0.e_release");
  EXPECT_EQ(c.to, "ctrl.engine0.status.output_vector[0]");
  EXPECT_EQ(parse_nextpnr_critical_path("Info: Max frequency for clock 'clk': 10 MHz\n").ns, 0);
  EXPECT_EQ(fpga_bench_critical_paths({placed_row(), no_fit_row()}),
            "- cm5data, chip, 2 parents (seed 1): 33.3 ns over 21 logic cells, from `sw.in0.digit` to `sw.out1.valid`\n");
}

// Every family but cm5 (whose hardware is its two networks') declares named blocks, once each,
// each with a way to measure it.
TEST(FpgaBench, EveryFamilyDeclaresItsBlocks) {
  for (const Family* f : families()) {
    const auto blocks = f->fpga_blocks();
    if (f->name() == "cm5") {
      EXPECT_TRUE(blocks.empty());
      continue;
    }
    EXPECT_FALSE(blocks.empty()) << f->name();
    std::set<std::string> names;
    for (const FpgaBlock& b : blocks) {
      EXPECT_TRUE(names.insert(b.name).second) << f->name() << ": " << b.name;
      EXPECT_TRUE(static_cast<bool>(b.measure)) << b.name;
      EXPECT_FALSE(b.how.empty()) << b.name;
    }
  }
}

}  // namespace
}  // namespace cmnet
