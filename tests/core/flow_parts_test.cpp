// The flow's per-part size breakdown (bitstreams/flow.h, parse_ice40_parts): yosys `stat` text
// per module, parts totalled through the hierarchy and the instance counts.
#include <gtest/gtest.h>

#include "bitstreams/flow.h"
#include "gen/core/errors.h"

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

}  // namespace
}  // namespace cmnet
