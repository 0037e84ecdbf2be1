// The clos config: defaults, the named case, derived figures and clear errors for bad values.
#include "gen/clos/clos_config.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gen/clos/clos_emitter.h"
#include "gen/core/errors.h"

namespace cmnet {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_clos_config(text, "bad.json");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(ClosConfig, ParsesAndNamesTheCase) {
  const ClosConfig c = parse_clos_config(
      R"({"network": "clos", "name": "n224", "clos": {"m": 2, "n": 2, "r": 4, "width": 16}})", "x.json");
  EXPECT_EQ(c.name, "n224");
  EXPECT_EQ(c.clos.ports(), 8);
  EXPECT_EQ(c.clos.width, 16);
  EXPECT_EQ(c.clos.kind(), ClosKind::kRearrangeable);
  EXPECT_EQ(c.clos.hnode_dims, 2);  // one hnode per input/output switch pair
  EXPECT_EQ(c.clos.cancel_limit, 3);
  const ClosConfig back = parse_clos_config(config_to_json(c), "again.json");
  EXPECT_EQ(config_to_json(back), config_to_json(c));

  ClosParams p;
  p.n = 32;
  p.r = 32;
  p.m = 63;
  EXPECT_EQ(p.kind(), ClosKind::kStrictlyNonBlocking);
  p.m = 62;
  EXPECT_EQ(p.kind(), ClosKind::kRearrangeable);
  p.m = 32;
  EXPECT_EQ(p.kind(), ClosKind::kRearrangeable);
  p.m = 31;
  EXPECT_EQ(p.kind(), ClosKind::kBlocking);
  // The paper's N(32, 32, 32) of 96 Inmos C004 32 x 32 switches.
  p.m = 32;
  EXPECT_EQ(p.switches(), 96);
  EXPECT_EQ(p.crosspoints(), 3 * 32 * 32 * 32);
  EXPECT_EQ(p.crossbar_crosspoints(), 1024 * 1024);
  EXPECT_EQ(p.s_links(), 2048);
}

TEST(ClosConfig, ManifestCarriesDerivedFigures) {
  const ClosConfig c = parse_clos_config(R"({"network": "clos", "clos": {"m": 3, "n": 2, "r": 4}})", "x.json");
  const auto j = nlohmann::json::parse(clos_manifest_json(c));
  EXPECT_EQ(j["derived"]["case"], "strictly non-blocking");
  EXPECT_EQ(j["derived"]["ports_N"], 8);
  EXPECT_EQ(j["derived"]["crosspoints"], 2 * 4 * 2 * 3 + 3 * 16);
  EXPECT_EQ(j["derived"]["input_switches"], "4 x (2 x 3)");
  EXPECT_EQ(j["cfg_port"]["entries"], 2 * 4 * 3 + 8);
}

TEST(ClosConfig, BadValuesNameFileFieldValueAndRange) {
  EXPECT_EQ(error_of(R"({"network": "clos", "clos": {"m": 0, "n": 2, "r": 4}})"),
            "bad.json: clos: m = 0 out of range 1..256");
  EXPECT_EQ(error_of(R"({"network": "clos", "clos": {"m": 2, "n": 2, "r": 4, "width": 33}})"),
            "bad.json: clos: width = 33 out of range 1..32");
  EXPECT_NE(error_of(R"({"network": "clos", "clos": {"m": 2, "n": 2, "r": 4, "hnode_dims": 3}})")
                .find("hnode_dims = 3 out of range 0..2"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "clos", "clos": {"m": 2, "r": 4}})").find("n is required"), std::string::npos);
  EXPECT_NE(error_of(R"({"network": "clos", "clos": {"m": 2, "n": 2, "r": 4, "k": 1}})").find("unknown field 'k'"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "clos", "clos": {"m": "two", "n": 2, "r": 4}})").find("m must be an integer"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "clos", "clos": {"m": 2, "n": 2, "r": 4, "cancel_limit": 0}})")
                .find("cancel_limit = 0 out of range 1..64"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "clos", "clos": {"m": 2, "n": 2, "r": 4, "select": "nearest"}})")
                .find("select = \"nearest\" unknown (allowed: \"dest\""),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "clos", "clos": {"m": 2, "n": 2, "r": 4, "resend_after_wait": 1}})")
                .find("resend_after_wait must be true or false, got 1"),
            std::string::npos);
}

TEST(ClosConfig, TheSelectionStartAndResendAfterWaitOptions) {
  const ClosConfig c = parse_clos_config(
      R"({"network": "clos", "clos": {"m": 4, "n": 4, "r": 4, "select": "pair", "resend_after_wait": true}})", "x.json");
  EXPECT_TRUE(c.clos.select_pair);
  EXPECT_TRUE(c.clos.resend_after_wait);
  const ClosConfig back = parse_clos_config(config_to_json(c), "again.json");
  EXPECT_TRUE(back.clos.select_pair);
  EXPECT_TRUE(back.clos.resend_after_wait);
  const ClosConfig d = parse_clos_config(R"({"network": "clos", "clos": {"m": 4, "n": 4, "r": 4}})", "x.json");
  EXPECT_FALSE(d.clos.select_pair);
  EXPECT_FALSE(d.clos.resend_after_wait);
}

}  // namespace
}  // namespace cmnet
