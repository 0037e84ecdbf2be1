// The flow's per-part size breakdown (bitstreams/flow.h, parse_ice40_parts): yosys `stat` text
// per module, parts totalled through the hierarchy and the instance counts. And one module placed
// alone (place_module_ice40): its wrapper, its port list, and real runs of yosys and nextpnr.
#include <gtest/gtest.h>

#include "bitstreams/flow.h"
#include "gen/core/errors.h"
#include "tests/core/emitter_checks.h"

namespace cmnet {
namespace {

// The shape of yosys 0.23's `stat` after synth_ice40 -noflatten (trimmed).
const char* kStat = R"(
=== $paramod\net_leaf\W=4 ===

   Number of wires:                 12
   Number of cells:                  7
     SB_DFF                          3
     SB_LUT4                         4

=== net_fifo ===

   Number of cells:                 10
     SB_DFFE                         6
     SB_LUT4                         4

=== net_top ===

   Number of cells:                 20
     $paramod\net_leaf\W=4           2
     SB_CARRY                        1
     SB_LUT4                        11
     net_fifo                        3

=== design hierarchy ===

     net_top                         1
)";

TEST(FlowParts, PartsAreTotalledThroughTheHierarchy) {
  const auto parts = parse_ice40_parts(kStat, "net_top", {"net_"});
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts.at("").luts, 11);
  EXPECT_EQ(parts.at("").ffs, 0);
  EXPECT_EQ(parts.at("net_leaf").luts, 8);  // 2 instances x 4
  EXPECT_EQ(parts.at("net_leaf").ffs, 6);
  EXPECT_EQ(parts.at("net_fifo").luts, 12);
  EXPECT_EQ(parts.at("net_fifo").ffs, 18);  // SB_DFFE counts as a flip-flop
}

TEST(FlowParts, AMissingTopIsAClearError) {
  try {
    (void)parse_ice40_parts(kStat, "other_top", {"net_"});
    ADD_FAILURE() << "accepted";
  } catch (const FlowError& e) {
    EXPECT_NE(std::string(e.what()).find("no module other_top"), std::string::npos) << e.what();
  }
}


// A module whose every output depends on its inputs through registers: an accumulator per lane.
GeneratedDesign lanes_design(int lanes) {
  const std::string n = std::to_string(lanes);
  GeneratedDesign d;
  d.top = "lanes";
  d.files.push_back({"lanes.v", "module lanes #(parameter W = 8) (\n"
                                "  input wire clk,\n  input wire rst,\n"
                                "  input wire [" + n + " * W - 1:0] a,\n"
                                "  output reg [" + n + " * W - 1:0] sum,\n  output wire any\n);\n"
                                "  integer i;\n"
                                "  always @(posedge clk)\n"
                                "    if (rst) sum <= 0;\n"
                                "    else for (i = 0; i < " + n + "; i = i + 1) sum[i*W +: W] <= sum[i*W +: W] + a[i*W +: W];\n"
                                "  assign any = |sum;\nendmodule\n"});
  d.files.push_back({"filelist.f", "lanes.v\n"});
  return d;
}

TEST(PlaceModule, PortsParsedFromYosysJson) {
  const char* j = R"({"creator": "Yosys", "modules": {"m": {"ports": {
      "clk": {"direction": "input", "bits": [2]},
      "d": {"direction": "input", "bits": [3, 4, 5]},
      "q": {"direction": "output", "bits": [6, 7]}}}}})";
  const auto ports = parse_yosys_ports(j, "m");
  ASSERT_EQ(ports.size(), 3u);
  EXPECT_EQ(ports[1].name, "d");
  EXPECT_EQ(ports[1].width, 3);
  EXPECT_EQ(ports[2].direction, "output");
  EXPECT_THROW((void)parse_yosys_ports(j, "other"), FlowError);
  EXPECT_THROW((void)parse_yosys_ports("{not json", "m"), FlowError);
}

TEST(PlaceModule, WrapperLintsCleanAndRefusesWhatItCannotWrap) {
  const auto d0 = lanes_design(2);
  const std::vector<PortBits> ports = {{"clk", "input", 1}, {"rst", "input", 1}, {"a", "input", 16},
                                       {"sum", "output", 16}, {"any", "output", 1}};
  GeneratedDesign d = d0;
  d.top = "cmnet_place_wrap";
  d.files.insert(d.files.begin(), {"cmnet_place_wrap.v", place_wrapper_verilog("lanes", ports, "clk")});
  d.files.back().second = "cmnet_place_wrap.v\nlanes.v\n";
  const auto dir = testing_checks::temp_dir("place-wrap");
  const std::string wrap = testing_checks::file_of(d, "cmnet_place_wrap.v");
  EXPECT_NE(wrap.find("reg [16:0] in_chain;"), std::string::npos) << wrap;   // rst + a
  EXPECT_NE(wrap.find(".a(in_chain[16:1])"), std::string::npos) << wrap;
  EXPECT_NE(wrap.find(".any(outs[16:16])"), std::string::npos) << wrap;
  EXPECT_EQ(testing_checks::lint_problems(d, "cmnet_place_wrap", dir), "");
  try {
    (void)place_wrapper_verilog("lanes", {{"clk", "input", 1}, {"io", "inout", 4}, {"q", "output", 1}}, "clk");
    ADD_FAILURE() << "inout accepted";
  } catch (const FlowError& e) {
    EXPECT_NE(std::string(e.what()).find("port io is inout"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)place_wrapper_verilog("lanes", ports, "clock"), FlowError);
  EXPECT_THROW((void)place_wrapper_verilog("lanes", {{"clk", "input", 1}, {"a", "input", 1}}, "clk"), FlowError);
  std::filesystem::remove_all(dir);
}

// Real yosys and nextpnr: a small module on pins directly, and one with more port bits than the
// limit placed in its wrapper (the parameter set by chparam counts: 24 lanes x 8 bits).
TEST(PlaceModule, PlacesAModuleDirectlyAndWrapped) {
  const auto dir = testing_checks::temp_dir("place-module");
  ModulePlaceOptions o;
  o.dir = (dir / "direct").string();
  const ModulePlacement a = place_module_ice40(lanes_design(2), "lanes", o);
  EXPECT_FALSE(a.wrapped);
  EXPECT_EQ(a.in_bits, 17);
  EXPECT_EQ(a.out_bits, 17);
  EXPECT_TRUE(a.placed);
  EXPECT_GE(a.ffs, 16);
  EXPECT_GT(a.luts, 0);
  EXPECT_GE(a.logic_cells, a.ffs);
  EXPECT_EQ(a.logic_cells_available, 7680);
  EXPECT_GT(a.fmax_mhz, 0);

  o.dir = (dir / "wrapped").string();
  o.before_synth = "chparam -set W 8 lanes";
  o.max_pins = 100;
  const ModulePlacement b = place_module_ice40(lanes_design(12), "lanes", o);
  EXPECT_TRUE(b.wrapped);
  EXPECT_EQ(b.in_bits, 1 + 96);
  EXPECT_EQ(b.out_bits, 96 + 1);
  EXPECT_EQ(b.wrapper_ffs, 194);
  EXPECT_GE(b.ffs, 96);
  EXPECT_TRUE(b.placed);
  EXPECT_GE(b.logic_cells, b.ffs + b.wrapper_ffs);  // the wrapper's chains were not optimised away
  EXPECT_GT(b.fmax_mhz, 0);

  // A target the module cannot meet is a finding, not an error.
  o.dir = (dir / "fast").string();
  o.freq_mhz = 2000;
  const ModulePlacement f = place_module_ice40(lanes_design(2), "lanes", o);
  EXPECT_TRUE(f.placed);
  EXPECT_FALSE(f.timing_met);
  EXPECT_GT(f.fmax_mhz, 0);

  // Synthesis only.
  o.dir = (dir / "synth").string();
  o.place = false;
  const ModulePlacement c = place_module_ice40(lanes_design(2), "lanes", o);
  EXPECT_FALSE(c.placed);
  EXPECT_EQ(c.luts, a.luts);
  std::filesystem::remove_all(dir);
}

// A register written by two always blocks: Verilator simulates one of them, yosys warns of
// "multiple conflicting drivers" and exits 0, nextpnr refuses the netlist. The shared checks fail
// on it, with the net's name, for every family's tests and every flow step.
GeneratedDesign driven_twice_design() {
  GeneratedDesign d;
  d.top = "twice";
  d.files.push_back({"twice.v", "module twice (\n  input wire clk,\n  input wire a,\n  input wire b,\n"
                                "  output reg q\n);\n"
                                "  always @(posedge clk) q <= a;\n"
                                "  always @(posedge clk) q <= b;\nendmodule\n"});
  d.files.push_back({"filelist.f", "twice.v\n"});
  return d;
}

TEST(PlaceModule, ANetDrivenTwiceFailsEverySynthesisCheck) {
  EXPECT_EQ(yosys_netlist_problems("Warning: Replacing memory \\m with list of registers.\n"), "");
  const auto dir = testing_checks::temp_dir("driven-twice");
  bool ok = true;
  std::string log = testing_checks::synth_ice40(driven_twice_design(), "twice", dir / "ice40", &ok);
  EXPECT_FALSE(ok);
  EXPECT_NE(log.find("NETS WITH SEVERAL DRIVERS:\nWarning: multiple conflicting drivers for twice.\\q"),
            std::string::npos) << log;
  ok = true;
  log = testing_checks::synth_generic(driven_twice_design(), "twice", dir / "generic", &ok);
  EXPECT_FALSE(ok);
  ModulePlaceOptions o;
  o.dir = (dir / "place").string();
  o.place = false;
  try {
    (void)place_module_ice40(driven_twice_design(), "twice", o);
    ADD_FAILURE() << "a net driven twice was accepted";
  } catch (const FlowError& e) {
    EXPECT_NE(std::string(e.what()).find("several drivers"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("twice.\\q"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cmnet
