// The CM-1 register block is described once (gen/cm1/cm1_regmap.h); the host's offsets and LiteX's
// csr.csv are made from it, and the hand-written RTL (hw/cm1/cm1_host_regs.v) must agree with it:
// its map comment names every register at its offset, its read decode answers at every readable
// address and its write decode at every writable one.
#include "gen/cm1/cm1_regmap.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>

#include "gen/core/design.h"
#include "gen/core/errors.h"
#include "host/cm1/cm1_board.h"

namespace cmnet {
namespace {

std::string hexu(const char* f, uint32_t v) {
  char b[128];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

TEST(Cm1RegMap, TheRtlAgreesWithTheDescription) {
  const std::string rtl = read_hw_file("cm1_host_regs.v");
  // The map comment: one line per register naming its offset and its name.
  std::istringstream in(rtl);
  std::vector<std::string> comment;
  for (std::string line; std::getline(in, line) && line.rfind("//", 0) == 0;) comment.push_back(line);
  ASSERT_GT(comment.size(), 10u);
  for (const auto& r : cm1map::kRegisters) {
    SCOPED_TRACE(std::string(r.name));
    if (r.window()) {
      EXPECT_NE(rtl.find(hexu("= 32'h%X;", r.offset)), std::string::npos) << "window base localparam";
      continue;
    }
    const std::string off = hexu("+0x%02X", r.offset);
    bool named = false;
    for (const auto& line : comment) {
      const auto k = line.find(off);
      if (k != std::string::npos && line.find(std::string(r.name), k) != std::string::npos) named = true;
    }
    EXPECT_TRUE(named) << "the map comment names " << r.name << " at " << off;
    if (r.name == "HIST") {
      EXPECT_NE(rtl.find("A_CM1 + 32'h80"), std::string::npos);
      continue;
    }
    EXPECT_NE(rtl.find(hexu("32'h%03X: rdata_c", cm1map::address(r))), std::string::npos) << "read decode";
    if (r.access == "rw") {
      EXPECT_NE(rtl.find(hexu("A_CM1 + 32'h%02X", r.offset)), std::string::npos) << "write decode";
    }
  }
  EXPECT_NE(rtl.find(hexu("localparam [31:0] A_CM1 = 32'h%X;", cm1map::kBlockBase)), std::string::npos);
  EXPECT_NE(rtl.find(hexu("rdata_c = 32'd%u;", cm1map::kBlockVersion)), std::string::npos);
}

// The read decode is generated from the table (the emitter writes it); the copy in hw/ that keeps
// the file lintable on its own must be exactly what the generator writes.
TEST(Cm1RegMap, TheReadDecodeIsGeneratedFromTheTable) {
  const std::string hand = read_hw_file("cm1_host_regs.v");
  EXPECT_EQ(cm1map::with_generated_read_decode(hand), hand)
      << "hw/cm1/cm1_host_regs.v's read decode differs from gen/cm1/cm1_regmap.h: copy this block in:\n"
      << cm1map::read_decode(8);
  // A register added to the table reaches the emitted decode: every one-word register is in it.
  const std::string dec = cm1map::read_decode(0);
  for (const auto& r : cm1map::kRegisters)
    if (!r.window() && r.words == 1) {
      EXPECT_NE(dec.find(hexu("32'h%03X: rdata_c = ", cm1map::address(r)) + std::string(r.rtl) + ";"), std::string::npos)
          << r.name;
    }
  EXPECT_THROW((void)cm1map::with_generated_read_decode("module m; endmodule"), ConfigError);
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
