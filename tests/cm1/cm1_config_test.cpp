// Network config files: defaults, every field, and bad input rejected with the file, the
// field, the value and the allowed range in the message.
#include "gen/cm1/cm1_config.h"

#include <gtest/gtest.h>

#include "gen/core/errors.h"

namespace cmnet {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_cm1_config(text, "net.json");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(Config, ParsesEveryField) {
  const Cm1Config c = parse_cm1_config(
      R"({"network": "cm1", "name": "x", "cm1": {"cube_dims": 6, "rows": 5, "procs_per_chip": 4,
          "vp_bits": 2, "data_bits": 12, "eject_mode": "one", "queue_depth": 8}})",
      "net.json");
  EXPECT_EQ(c.name, "x");
  EXPECT_EQ(c.cm1.cube_dims, 6);
  EXPECT_EQ(c.cm1.rows, 5);
  EXPECT_EQ(c.cm1.procs_per_chip, 4);
  EXPECT_EQ(c.cm1.vp_bits, 2);
  EXPECT_EQ(c.cm1.data_bits, 12);
  EXPECT_EQ(c.cm1.eject_mode, EjectMode::kOnePerPetit);
  EXPECT_EQ(c.cm1.queue_depth, 8);
  // Round trip through the canonical JSON.
  const Cm1Config d = parse_cm1_config(config_to_json(c), "again");
  EXPECT_EQ(config_to_json(d), config_to_json(c));
}

TEST(Config, DefaultsArePapersRouter) {
  const Cm1Config c = parse_cm1_config(R"({"network": "cm1"})", "net.json");
  EXPECT_EQ(c.cm1.rows, 7);
  EXPECT_EQ(c.cm1.procs_per_chip, 16);
}

TEST(Config, BadInputNamesWhatAndWhere) {
  EXPECT_NE(error_of("{").find("net.json: not valid JSON"), std::string::npos);
  EXPECT_NE(error_of("[1]").find("top level must be a JSON object"), std::string::npos);
  EXPECT_NE(error_of(R"({"network": "torus"})").find("network = \"torus\" is not a cm1 config"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"cm1": {}})").find("missing field 'network'"), std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm1", "cm5": {}})").find("unknown field 'cm5'"), std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm1", "cm1": {"cube_dim": 4}})").find("unknown field 'cube_dim'"),
            std::string::npos);
  const std::string range = error_of(R"({"network": "cm1", "cm1": {"cube_dims": 40}})");
  EXPECT_NE(range.find("net.json: cm1"), std::string::npos) << range;
  EXPECT_NE(range.find("cube_dims = 40"), std::string::npos) << range;
  EXPECT_NE(range.find("1..16"), std::string::npos) << range;
  EXPECT_NE(error_of(R"({"network": "cm1", "cm1": {"rows": "seven"}})").find("rows must be an integer"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm1", "cm1": {"procs_per_chip": 12}})").find("procs_per_chip"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm1", "cm1": {"eject_mode": "and"}})").find("allowed: \"or\", \"one\""),
            std::string::npos);
  EXPECT_THROW(load_cm1_config("/nonexistent/cfg.json"), ConfigError);
}

}  // namespace
}  // namespace cmnet
