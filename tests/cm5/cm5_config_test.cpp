// The CM-5 machine's config: both sections parsed by their families, the leaves derived and
// checked (mismatches refused naming the field), the machine's own refusals, the round trip.
#include <gtest/gtest.h>

#include "gen/cm5/cm5_config.h"
#include "gen/core/errors.h"

namespace cmnet {
namespace {

std::string cfg(const std::string& inner) { return R"({"network": "cm5", "name": "m", "cm5": {)" + inner + "}}"; }

void refused(const std::string& text, const std::string& what) {
  try {
    parse_cm5_machine_config(text, "m.json");
    ADD_FAILURE() << "accepted: " << text;
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("m.json"), std::string::npos) << e.what();
  }
}

TEST(Cm5MachineConfig, LeavesDerivedFromTheDataNetwork) {
  const Cm5MachineConfig c = parse_cm5_machine_config(cfg(R"("cm5data": {"height": 2}, "cm5ctl": {"word_bits": 16})"), "m.json");
  EXPECT_EQ(c.leaves(), 16);
  EXPECT_EQ(c.ctl.p.leaves, 16);
  EXPECT_EQ(c.ctl.p.word_bits, 16);
  EXPECT_EQ(c.data.cm5.height, 2);
  EXPECT_EQ(c.name, "m");
  const Cm5MachineConfig d = parse_cm5_machine_config(cfg(R"("leaves": 4, "cm5data": {"height": 1}, "cm5ctl": {"leaves": 4})"), "m.json");
  EXPECT_EQ(d.leaves(), 4);
  // Defaults: the data network's height 2, so 16 leaves.
  EXPECT_EQ(parse_cm5_machine_config(cfg(""), "m.json").leaves(), 16);
}

TEST(Cm5MachineConfig, RoundTrip) {
  const Cm5MachineConfig c =
      parse_cm5_machine_config(cfg(R"("cm5data": {"height": 1, "link_bits": 8, "seed": 9}, "cm5ctl": {"word_bits": 16, "crc_bits": 8})"), "m.json");
  const std::string j = config_to_json(c);
  const Cm5MachineConfig d = parse_cm5_machine_config(j, "round");
  EXPECT_EQ(config_to_json(d), j);
  EXPECT_EQ(d.data.cm5.link_bits, 8);
  EXPECT_EQ(d.data.cm5.seed, 9u);
  EXPECT_EQ(d.ctl.p.crc_bits, 8);
  EXPECT_NE(j.find("\"leaves\": 4"), std::string::npos);
}

TEST(Cm5MachineConfig, MismatchesAndBadFieldsRefused) {
  refused(cfg(R"("cm5data": {"height": 2}, "cm5ctl": {"leaves": 8})"),
          "cm5: cm5ctl.leaves = 8 does not match the data network's 16 leaves (cm5.cm5data.height = 2)");
  refused(cfg(R"("leaves": 64, "cm5data": {"height": 2})"), "cm5: leaves = 64 does not match the data network's 16 leaves");
  refused(cfg(R"("cm5data": {"height": 1}, "cm5ctl": {"partitions": [2, 3]})"), "cm5ctl.partitions must be [1]");
  refused(cfg(R"("cm5data": {"height": 1}, "cm5ctl": {"mapped_out": [5]})"), "cm5ctl.mapped_out must be empty");
  refused(cfg(R"("cm5data": {"height": 1}, "cm5ctl": {"word_bits": 4})"), "cm5ctl.word_bits = 4 out of range 8..32");
  refused(cfg(R"("cm5data": {"height": 1, "slots": 2})"), "cm5data.slots = 2 is not allowed");
  refused(cfg(R"("cm5data": {"height": 6})"), "cm5data.height = 6 out of range 1..5");
  refused(cfg(R"("cm5data": {"link_bits": 3})"), "cm5: cm5data: link_bits = 3");
  refused(cfg(R"("cm5ctl": {"up_width": 0})"), "cm5: cm5ctl");
  refused(cfg(R"("cm5data": 3)"), "cm5: cm5data must be an object");
  refused(cfg(R"("cm5dat": {})"), "unknown field 'cm5dat'");
  refused(R"({"network": "cm5data", "cm5data": {}})", "is not a cm5 config");
}

}  // namespace
}  // namespace cmnet
