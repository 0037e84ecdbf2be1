// Checks on `cmnet sim`'s JSON lines (host/cli/sim_lines.h), shared by every family's test: the
// schema's keys in its order, and the RTL's lines against the model's for the same input.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cmnet::test {

inline std::vector<nlohmann::ordered_json> read_sim_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<nlohmann::ordered_json> out;
  for (std::string l; std::getline(in, l);) out.push_back(nlohmann::ordered_json::parse(l));
  return out;
}

// Every record has the schema's keys in its order, ids 0, 1, ... in order, and the last line is
// the summary with its common keys first; the summary's counts are the records'.
inline void expect_sim_schema(const std::vector<nlohmann::ordered_json>& lines, const std::string& family) {
  ASSERT_FALSE(lines.empty());
  const std::vector<std::string> keys = {"id", "kind", "sent", "dst", "arrived", "delivered", "latency",
                                         "ambiguous", "why", "extra"};
  uint64_t delivered = 0, ambiguous = 0;
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    std::vector<std::string> got;
    for (const auto& [k, v] : lines[i].items()) got.push_back(k);
    EXPECT_EQ(got, keys) << "line " << i;
    EXPECT_EQ(lines[i].at("id").get<uint64_t>(), i);
    for (const char* side : {"sent", "arrived"})
      for (const auto& e : lines[i].at(side)) {
        EXPECT_TRUE(e.contains("at") && e.contains("time") && e.at("words").is_array()) << e.dump();
      }
    delivered += lines[i].at("delivered").get<bool>();
    ambiguous += lines[i].at("ambiguous").get<bool>();
    EXPECT_EQ(lines[i].at("why").is_string(), lines[i].at("ambiguous").get<bool>());
  }
  const auto& s = lines.back().at("summary");
  std::vector<std::string> head;
  for (const auto& [k, v] : s.items())
    if (head.size() < 7) head.push_back(k);
  EXPECT_EQ(head, (std::vector<std::string>{"family", "engine", "time_unit", "records", "delivered", "ambiguous",
                                            "completed"}));
  EXPECT_EQ(s.at("family"), family);
  EXPECT_EQ(s.at("records").get<uint64_t>(), lines.size() - 1);
  EXPECT_EQ(s.at("delivered").get<uint64_t>(), delivered);
  EXPECT_EQ(s.at("ambiguous").get<uint64_t>(), ambiguous);
}

// The RTL's lines against the model's for the same input: line by line, every key but "extra"
// (what one engine alone knows) the same; where the RTL's line says ambiguous (its credit a
// guess), everything but what arrived and when. The summaries agree on the counts.
inline void expect_engines_agree(const std::vector<nlohmann::ordered_json>& model,
                                 const std::vector<nlohmann::ordered_json>& rtl) {
  ASSERT_EQ(model.size(), rtl.size());
  for (size_t i = 0; i + 1 < model.size(); ++i) {
    nlohmann::ordered_json m = model[i], r = rtl[i];
    const bool guess = r.at("ambiguous").get<bool>();
    for (const char* k : {"extra", "arrived", "latency", "ambiguous", "why"})
      if (guess || std::string(k) == "extra") {
        m.erase(k);
        r.erase(k);
      }
    EXPECT_EQ(m, r) << "line " << i;
  }
  const auto &sm = model.back().at("summary"), &sr = rtl.back().at("summary");
  EXPECT_EQ(sm.at("engine"), "model");
  EXPECT_EQ(sr.at("engine"), "rtl");
  for (const char* k : {"records", "delivered", "completed", "time_unit"}) EXPECT_EQ(sm.at(k), sr.at(k)) << k;
}

}  // namespace cmnet::test
