// cm5ctl config files: defaults, every field, derived figures, and bad input rejected with the
// file, the field, the value and the allowed range.
#include "gen/cm5ctl/cm5ctl_config.h"

#include <gtest/gtest.h>

#include "gen/core/errors.h"

namespace cmnet {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_cm5ctl_config(text, "net.json");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(Cm5ctlConfig, ParsesEveryFieldAndRoundTrips) {
  const Cm5ctlConfig c = parse_cm5ctl_config(
      R"({"network": "cm5ctl", "name": "x", "cm5ctl": {"leaves": 64, "word_bits": 16, "up_width": 4,
          "down_width": 3, "queue_depth": 9, "aside_depth": 7, "leaf_fifo_depth": 2, "broadcast_window": 3,
          "root_queue_depth": 5, "partitions": [2, 6, 7], "mapped_out": [12, 70], "chip_nodes": 3,
          "queue_ram": 1, "send_fifo_depth": 4, "counter_bits": 20}})",
      "net.json");
  EXPECT_EQ(c.name, "x");
  EXPECT_EQ(c.p.leaves, 64);
  EXPECT_EQ(c.p.word_bits, 16);
  EXPECT_EQ(c.p.up_width, 4);
  EXPECT_EQ(c.p.down_width, 3);
  EXPECT_EQ(c.p.queue_depth, 9);
  EXPECT_EQ(c.p.aside_depth, 7);
  EXPECT_EQ(c.p.leaf_fifo_depth, 2);
  EXPECT_EQ(c.p.broadcast_window, 3);
  EXPECT_EQ(c.p.root_queue_depth, 5);
  EXPECT_EQ(c.p.partitions, (std::vector<int>{2, 6, 7}));
  EXPECT_EQ(c.p.mapped_out, (std::vector<int>{12, 70}));
  EXPECT_EQ(c.p.chip_nodes, 3);
  EXPECT_EQ(c.p.queue_ram, 1);
  EXPECT_EQ(c.p.send_fifo_depth, 4);
  EXPECT_EQ(c.p.counter_bits, 20);
  EXPECT_EQ(config_to_json(parse_cm5ctl_config(config_to_json(c), "again")), config_to_json(c));
}

TEST(Cm5ctlConfig, DefaultsAreTheCm5Links) {
  const Cm5ctlConfig c = parse_cm5ctl_config(R"({"network": "cm5ctl"})", "net.json");
  EXPECT_EQ(c.name, "cm5ctl");
  EXPECT_EQ(c.p.up_width, 6);
  EXPECT_EQ(c.p.down_width, 5);
  EXPECT_EQ(c.p.word_bits, 32);
  EXPECT_EQ(c.p.packet_bits(), 47);  // 15 header bits (with the global bits) + 32
  EXPECT_EQ(c.p.up_frame(), 8);     // ceil(47 / 6)
  EXPECT_EQ(c.p.down_frame(), 10);  // ceil(47 / 5)
  EXPECT_EQ(c.p.packet_time(), 10);
  EXPECT_EQ(c.p.height(), 4);
  EXPECT_EQ(c.p.nodes(), 15);
  EXPECT_EQ(c.p.stop_margin(), 3);
  EXPECT_EQ(c.p.effective_queue_depth(), 6);
  EXPECT_EQ(c.p.latency_bound(), 2 * 4 * 10 + 10);
  // The root needs fewer put-aside slots than the leaves below it.
  EXPECT_GT(c.p.aside_depth_at(0), c.p.aside_depth_at(3));
}

TEST(Cm5ctlConfig, BadValuesNameTheFieldAndTheRange) {
  EXPECT_NE(error_of(R"({"network": "cm5ctl", "cm5ctl": {"leaves": 12}})").find("leaves = 12 is not a power of two"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm5ctl", "cm5ctl": {"leaves": 1}})").find("leaves = 1 out of range 2..16384"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm5ctl", "cm5ctl": {"leaves": 32768}})").find("leaves"), std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm5ctl", "cm5ctl": {"word_bits": 33}})").find("word_bits = 33 out of range 2..32"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm5ctl", "cm5ctl": {"up_width": 0}})").find("up_width = 0 out of range 1..47"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm5ctl", "cm5ctl": {"down_width": 48}})").find("down_width = 48"),
            std::string::npos);
  const std::string q = error_of(R"({"network": "cm5ctl", "cm5ctl": {"queue_depth": 2}})");
  EXPECT_NE(q.find("queue_depth = 2 out of range 4..64"), std::string::npos) << q;
  EXPECT_NE(q.find("stop_margin"), std::string::npos) << q;
  EXPECT_NE(error_of(R"({"network": "cm5ctl", "cm5ctl": {"leaves": "8"}})").find("leaves must be an integer"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm5ctl", "cm5ctl": {"height": 3}})").find("unknown field 'height'"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm5ctl", "cm5ctl": {"broadcast_window": 0}})").find("broadcast_window = 0"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm1"})").find("is not a cm5ctl config"), std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm5ctl", "cm5ctl": {"crc_bits": 5}})").find("crc_bits = 5 (allowed: 0"),
            std::string::npos);
  EXPECT_EQ(error_of(R"({"network": "cm5ctl", "cm5ctl": {"crc_bits": 8, "up_width": 55}})"), "(accepted)");
  // Partitions, map-out, chips.
  const std::string ov = error_of(R"({"network": "cm5ctl", "cm5ctl": {"leaves": 8, "partitions": [2, 5]}})");
  EXPECT_NE(ov.find("partitions[1] = 5 overlaps partitions[0] = 2 (partitions are disjoint subtrees)"), std::string::npos)
      << ov;
  EXPECT_NE(error_of(R"({"network": "cm5ctl", "cm5ctl": {"leaves": 8, "partitions": [8]}})")
                .find("partitions[0] = 8 out of range 1..7"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm5ctl", "cm5ctl": {"leaves": 8, "mapped_out": [1]}})")
                .find("mapped_out[0] = 1 out of range 2..15"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm5ctl", "cm5ctl": {"leaves": 8, "partitions": [2, 3], "mapped_out": [4, 5]}})")
                .find("partitions[0] = 2: every leaf of that partition is mapped out"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm5ctl", "cm5ctl": {"leaves": 8, "mapped_out": 3}})")
                .find("mapped_out = 3 is not a list"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm5ctl", "cm5ctl": {"chip_nodes": 2}})").find("chip_nodes = 2 (allowed: 1"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm5ctl", "cm5ctl": {"queue_ram": 2}})").find("queue_ram = 2 (allowed: 0"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm5ctl", "cm5ctl": {"send_fifo_depth": 17}})")
                .find("send_fifo_depth = 17 out of range 0..16"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm5ctl", "cm5ctl": {"counter_bits": 8}})")
                .find("counter_bits = 8 out of range 16..32"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm5ctl", "cm5ctl": {"leaves": 8}})"), "") ;
  EXPECT_EQ(error_of(R"({"network": "cm5ctl", "cm5ctl": {"leaves": 8}})"), "(accepted)");
}

// The CM-5's 65-bit packet: 13-cycle frames both ways; what it cannot hold is refused by name.
TEST(Cm5ctlConfig, TheCm5Packet) {
  const Cm5ctlConfig c = parse_cm5ctl_config(
      R"({"network": "cm5ctl", "cm5ctl": {"leaves": 8, "crc_bits": 8, "packet": "cm5"}})", "t.json");
  EXPECT_TRUE(c.p.cm5_frame());
  EXPECT_EQ(c.p.packet_bits(), 65);
  EXPECT_EQ(c.p.up_frame(), 13);
  EXPECT_EQ(c.p.down_frame(), 13);
  EXPECT_EQ(parse_cm5ctl_config(config_to_json(c), "again").p.packet, "cm5");
  EXPECT_NE(error_of(R"({"network": "cm5ctl", "cm5ctl": {"packet": "cm2"}})").find("packet = \"cm2\" (allowed"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm5ctl", "cm5ctl": {"packet": "cm5"}})")
                .find("packet = \"cm5\" needs word_bits = 32 and crc_bits = 8"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm5ctl", "cm5ctl": {"packet": "cm5", "crc_bits": 8, "down_width": 4}})")
                .find("needs links of at least 5 wires"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"network": "cm5ctl", "cm5ctl": {"packet": 5}})"), "(accepted)");
}

}  // namespace
}  // namespace cmnet
