// The CM-5 machine's Verilog: every file of both networks and the top, deterministic, a header
// naming the parameters, verilator --lint-only -Wall clean at 4 and 16 leaves (link_bits 4 and 8,
// with the CRC on the control links), yosys's generic synthesis of the 4-leaf machine.
#include <gtest/gtest.h>

#include "gen/cm5/cm5_emitter.h"
#include "tests/core/emitter_checks.h"

namespace cmnet {
namespace {

Cm5MachineConfig machine(const std::string& inner) {
  return parse_cm5_machine_config(R"({"network": "cm5", "name": "m", "cm5": {)" + inner + "}}", "test");
}

TEST(Cm5MachineEmitter, FilesDeterministicAndHeader) {
  const Cm5MachineConfig c = machine(R"("cm5data": {"height": 1, "link_bits": 8}, "cm5ctl": {"word_bits": 16})");
  const GeneratedDesign a = emit_cm5_machine(c), b = emit_cm5_machine(c);
  EXPECT_EQ(a.files, b.files);
  EXPECT_EQ(a.top, "cm5_machine");
  for (const char* f : {"cm5data_network.v", "cm5data_network_r.v", "cm5data_ni.v", "cm5ctl_tree.v", "cm5ctl_leaf.v",
                        "cm5_machine.v", "filelist.f", "manifest.json", "config.json"})
    EXPECT_FALSE(testing_checks::file_of(a, f).empty()) << f;
  const std::string top = testing_checks::file_of(a, "cm5_machine.v");
  EXPECT_NE(top.find("cmnet"), std::string::npos);
  EXPECT_NE(top.find("leaves N = 4"), std::string::npos) << top.substr(0, 800);
  EXPECT_NE(top.find("cm5ctl_tree ctl"), std::string::npos);
  EXPECT_NE(top.find(".rd_count"), std::string::npos);
  EXPECT_EQ(testing_checks::file_of(a, "config.json"), config_to_json(c));
  // Each file once in the filelist.
  const std::string fl = testing_checks::file_of(a, "filelist.f");
  EXPECT_EQ(fl.find("cm5data_fifo.v"), fl.rfind("cm5data_fifo.v"));
}

TEST(Cm5MachineEmitter, LintsClean) {
  for (const char* inner : {R"("cm5data": {"height": 1, "link_bits": 8}, "cm5ctl": {"word_bits": 16})",
                            R"("cm5data": {"height": 2, "link_bits": 4}, "cm5ctl": {"crc_bits": 8})"}) {
    const Cm5MachineConfig c = machine(inner);
    const auto dir = testing_checks::temp_dir("cm5-lint-" + std::to_string(c.leaves()));
    EXPECT_EQ(testing_checks::lint_problems(emit_cm5_machine(c), "cm5_machine", dir), "") << inner;
  }
}

// The machine's own logic (the counters, the hooks, the wiring) through yosys's generic synth, the
// networks' modules as black boxes (each family's tests synthesize its own; the whole 4-leaf
// machine took 158 s of yosys: 98,606 cells, gen/cm5/README.md). hierarchy -check still checks
// every instance's ports against the real modules' declarations.
TEST(Cm5MachineEmitter, SynthesizesWithYosys) {
  const Cm5MachineConfig c = machine(R"("cm5data": {"height": 1, "link_bits": 8, "max_words": 3}, "cm5ctl": {"word_bits": 16})");
  const GeneratedDesign d = emit_cm5_machine(c);
  const auto dir = testing_checks::temp_dir("cm5-yosys");
  write_design(d, dir.string());
  std::string script = "read_verilog";
  for (const auto& f : d.verilog_files()) script.append(" ").append((dir / f).string());
  script.append("; blackbox cm5data_network cm5data_network_r cm5data_ni cm5ctl_tree; hierarchy -check -top cm5_machine;"
                " synth -top cm5_machine; stat");
  int rc = 0;
  const std::string log =
      testing_checks::run_tool({CMNET_YOSYS, "-q", "-p", script, "-l", (dir / "yosys.log").string()}, dir / "yosys.out", &rc);
  const std::string full = testing_checks::slurp_log(dir / "yosys.log") + log;
  EXPECT_EQ(rc, 0) << full.substr(full.size() > 3000 ? full.size() - 3000 : 0);
  EXPECT_NE(full.find("Number of cells"), std::string::npos);
  EXPECT_NE(full.find("DFF"), std::string::npos) << "the counters and hooks are flip-flops";
  EXPECT_EQ(full.find("ERROR"), std::string::npos);
}

}  // namespace
}  // namespace cmnet
