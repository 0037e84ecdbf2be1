// The CM-1 register block is described once (gen/cm1/cm1_regmap.h); the host's offsets, LiteX's
// csr.csv and the block's Verilog decode are made from it, and the hand-written RTL
// (hw/cm1/cm1_host_regs.v) connects every register of the decode.
#include "gen/cm1/cm1_regmap.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>

#include "gen/cm1/cm1_host_board_emitter.h"
#include "gen/core/design.h"
#include "host/cm1/cm1_board.h"
#include "tests/core/register_decode_checks.h"

namespace cmnet {
namespace {

using testing_checks::expect_decode_agrees;

// The decode is made from the one description: every register at its address, in the map
// comment, the read mux and the write selects; the hand-written block connects every port of it;
// the host board carries it.
TEST(Cm1RegMap, TheDecodeAgreesWithTheDescription) {
  expect_decode_agrees(cm1map::kBlock, read_hw_file("cm1_host_regs.v"));
  const std::string dec = regmap::emit_decode(cm1map::kBlock);
  EXPECT_NE(dec.find("32'h138: rdata = A_ENDPOINT_HIST;  // EP_HIST"), std::string::npos) << dec;
  EXPECT_NE(dec.find("localparam [31:0] A_HIST = 32'h180;  // HIST"), std::string::npos) << dec;
  EXPECT_NE(dec.find("assign hit_gen_seed = (addr == A_BLOCK + 32'h60);  // GEN_SEED"), std::string::npos) << dec;
  EXPECT_NE(dec.find("assign hit_load = (addr == A_BLOCK + 32'h50);  // LOAD"), std::string::npos) << dec;
  Cm1Config cfg;
  cfg.cm1.cube_dims = 2;
  cfg.cm1.procs_per_chip = 2;
  const GeneratedDesign d = emit_cm1_host_board(cfg, HostBoardOptions{});
  bool carried = false;
  for (const auto& [name, text] : d.files)
    if (name == "cm1_host_regs_decode.v") carried = text == dec;
  EXPECT_TRUE(carried) << "the host board carries cm1_host_regs_decode.v";
}

TEST(Cm1RegMap, HostOffsetsComeFromIt) {
  static_assert(cm1reg::kControl == 0x40 && cm1reg::kCounters == 0x800 && cm1reg::kReceptions == 0x8000);
  EXPECT_EQ(cm1reg::kHist, cm1map::offset("HIST"));
  // Addresses strictly increase within the block: no two registers overlap.
  uint32_t end = 0x10;
  for (const auto& r : cm1map::kRegisters) {
    if (r.window()) continue;
    EXPECT_GE(r.offset, end) << r.name;
    end = r.offset + 4 * r.words;
  }
}

TEST(Cm1RegMap, CsrCsvAndTableNameEveryRegister) {
  Cm1Params p;
  p.cube_dims = 2;
  p.procs_per_chip = 4;
  const std::string csv = cm1map::csr_csv(p, 8);
  const std::string md = cm1map::markdown_table(p, 8);
  EXPECT_NE(csv.find("csr_base,cm1,0x00000100,,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("csr_register,cm1_control,0x00000140,1,rw"), std::string::npos) << csv;
  EXPECT_NE(csv.find("csr_register,cm1_counters,0x00000800,32,ro"), std::string::npos) << csv;  // 4 chips x 8
  EXPECT_NE(csv.find("csr_register,cm1_endpoints,0x00008000,64,ro"), std::string::npos) << csv;  // 16 procs x 4
  for (const auto& r : cm1map::kRegisters) EXPECT_NE(md.find("| " + std::string(r.name) + " |"), std::string::npos);
}

}  // namespace
}  // namespace cmnet
