// Input slots (Cm5DataParams::slots): each chip input holds k whole messages, credits count slots,
// and any slot whose head word is in asks for its output, so a message for a free output passes
// one waiting for a busy one. Model: every pattern delivered once, intact, counters conserve every
// cycle, the slots never overflow (the model throws), a message still climbs through every parent,
// and a saturating load goes further than with FIFO inputs. RTL == model message by message at 16
// leaves (one Verilator build: 2 parents, 3 slots, a mapped-out link and a bad leaf link, every
// pattern, an open-loop load, all-fall-down).
#include <gtest/gtest.h>

#include <tuple>

#include "gen/cm5data/cm5data_config.h"
#include "gen/cm5data/cm5data_emitter.h"
#include "gen/core/errors.h"
#include "tests/cm5data/cm5data_check.h"
#include "tests/core/emitter_checks.h"

namespace cmnet {
namespace {

Cm5DataConfig slots_config(int h, const std::string& profile, int W, int slots, const std::string& name) {
  Cm5DataConfig cfg = cm5data_test_config(h, profile, W, 2, 5, name);
  cfg.cm5.slots = slots;
  validate(cfg.cm5, "test");
  return cfg;
}

TEST(Cm5Slots, ConfigFieldAndRefusal) {
  const Cm5DataConfig c = parse_cm5data_config(
      R"({"network":"cm5data","name":"s","cm5data":{"height":2,"slots":4}})", "s.json");
  EXPECT_EQ(c.cm5.slots, 4);
  EXPECT_EQ(c.cm5.link_credits(), 4);
  EXPECT_NE(config_to_json(c).find("\"slots\": 4"), std::string::npos);
  // Without it the canonical JSON is as before.
  const Cm5DataConfig d = parse_cm5data_config(R"({"network":"cm5data","name":"s","cm5data":{"height":2}})", "s.json");
  EXPECT_EQ(config_to_json(d).find("slots"), std::string::npos);
  try {
    parse_cm5data_config(R"({"network":"cm5data","name":"s","cm5data":{"height":2,"slots":9}})", "s.json");
    ADD_FAILURE() << "slots = 9 accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("slots = 9 out of range 0..8"), std::string::npos) << e.what();
  }
}

TEST(Cm5Slots, RequestStageField) {
  const Cm5DataConfig c = parse_cm5data_config(
      R"({"network":"cm5data","name":"s","cm5data":{"height":2,"request_stage":1}})", "s.json");
  EXPECT_EQ(c.cm5.request_stage, 1);
  EXPECT_NE(config_to_json(c).find("\"request_stage\": 1"), std::string::npos);
  const auto refused = [](const std::string& section, const std::string& want) {
    try {
      parse_cm5data_config(R"({"network":"cm5data","name":"s","cm5data":{"height":2,)" + section + "}}", "s.json");
      ADD_FAILURE() << section << " accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  };
  refused(R"("request_stage":2)", "request_stage = 2 out of range 0..1");
}

TEST(Cm5Slots, ModelEveryPatternDeliveredAndConserved) {
  for (int W : {4, 32})
    for (const char* prof : {"cm5", "full"})
      for (int k : {1, 2, 4}) {
        const Cm5DataConfig cfg = slots_config(3, prof, W, k, "m");
        for (const auto& pat : kPatterns) {
          SCOPED_TRACE(std::string(prof) + " W=" + std::to_string(W) + " slots=" + std::to_string(k) + " " + pat);
          const Cm5DataTraffic t = make_cm5_pattern(pat, cfg.cm5, 11, 3);
          Cm5DataModelOptions o;
          o.check_every_cycle = true;
          const Cm5DataRunResult r = run_cm5data_model(cfg.cm5, t, o);
          expect_all_delivered_once(cfg.cm5, t, r);
          expect_counters_conserve(cfg.cm5, t, r);
          EXPECT_EQ(r.kirchhoff_violations, 0u);
        }
      }
}

TEST(Cm5Slots, ClimbsThroughEveryParent) {
  // Uniform random: every parent link of every level-1 chip carries messages.
  const Cm5DataConfig cfg = slots_config(3, "full", 4, 2, "m");
  const Cm5DataParams& p = cfg.cm5;
  const Cm5DataTraffic t = make_cm5_pattern("random", p, 4, 8);
  const Cm5DataRunResult r = run_cm5data_model(p, t);
  expect_all_delivered_once(p, t, r);
  for (uint32_t n = 0; n < p.nodes_at(1); ++n)
    for (int q = 0; q < 4; ++q) EXPECT_GT(r.chips[cm5_chip_id(p, 1, n, 0)].out[static_cast<size_t>(4 + q)], 0u) << n << " " << q;
}

// Accepted flits per cycle per leaf under an open-loop uniform load above the bound.
double accepted(const Cm5DataParams& p, uint64_t cycles) {
  const Cm5DataTraffic t = make_cm5_open_loop("random", p, 7, 0.45 / p.message_flits(5), cycles, 5);
  Cm5DataModelOptions o;
  o.max_cycles = cycles;
  o.stop_when_done = false;
  const Cm5DataRunResult r = run_cm5data_model(p, t, o);
  double flits = 0;
  for (size_t i = 0; i < t.messages.size(); ++i)
    if (r.deliveries[i].delivered && r.deliveries[i].arrived >= 1000) flits += p.message_flits(5);
  return flits / static_cast<double>((cycles - 1000) * p.leaves());
}

TEST(Cm5Slots, SaturatesAboveFifoInputs) {
  // 64 leaves, CM-5 profile (bound 0.333 flits/cycle/leaf for uniform random): FIFO inputs of a
  // whole message (7 words) against 4 slots of one message each.
  Cm5DataParams fifo = slots_config(3, "cm5", 4, 0, "m").cm5;
  fifo.max_words = 5;
  fifo.buffer_words = 7;
  Cm5DataParams sl = fifo;
  sl.slots = 4;
  const double a = accepted(fifo, 4000), b = accepted(sl, 4000);
  EXPECT_GT(b, a * 1.2) << "fifo " << a << ", slots " << b;
  EXPECT_GT(b, 0.8 * 0.333) << "slots " << b;
}

TEST(Cm5SlotsEmitter, LintsCleanAtEveryWidthAndTheSlotsAreBlockRam) {
  using namespace testing_checks;
  // 16-leaf networks (1, 2, 3 and 8 slots; 2 and 4 parents; W 4, 8, 16, 32; a map-out table), lint clean.
  for (const auto& [prof, W, k] : std::vector<std::tuple<std::string, int, int>>{
           {"cm5", 4, 1}, {"full", 8, 3}, {"cm5", 32, 2}, {"full", 16, 8}}) {
    Cm5DataConfig cfg = slots_config(2, prof, W, k, "lint");
    if (k == 2) cfg.cm5.mapped_out = {{1, 1, 0, 1}};
    const fs::path dir = temp_dir("slots-lint");
    const std::string problems = lint_problems(emit_cm5data(cfg), "cm5data_network", dir);
    EXPECT_EQ(problems, "") << prof << " W=" << W << " slots=" << k;
    fs::remove_all(dir);
  }
  // One chip of the CM-5's network with 8 slots: yosys elaborates it and maps each of its 6
  // inputs' slot memory to a block RAM (synth_ice40 up to the RAM mapping: the LUT mapping of
  // the whole chip takes minutes; `cmnet bench` places it and counts its LUTs).
  const Cm5DataParams p = slots_config(3, "cm5", 4, 8, "chip").cm5;
  const GeneratedDesign d = emit_cm5data_chip(p, 0);
  const fs::path dir = temp_dir("slots-yosys");
  write_design(d, dir.string());
  std::string script = "read_verilog";
  for (const auto& f : d.verilog_files()) script.append(" ").append((dir / f).string());
  script.append("; synth_ice40 -top cm5data_chip -run begin:map_ffram; stat");
  const int rc = run_child({CMNET_YOSYS, "-q", "-p", script, "-l", (dir / "yosys.log").string()}, 1800,
                           (dir / "yosys.out").string());
  const std::string log = slurp_log(dir / "yosys.log") + slurp_log(dir / "yosys.out");
  EXPECT_EQ(rc, 0) << log;
  // No net driven twice (a slot's head word once was, by every slot's block: a netlist nextpnr
  // refuses, though Verilator simulates it as meant).
  EXPECT_EQ(log.find("multiple conflicting drivers"), std::string::npos) << log.substr(0, 4000);
  EXPECT_NE(log.find("SB_RAM40_4K                     6"), std::string::npos) << log.substr(log.size() > 4000 ? log.size() - 4000 : 0);
  fs::remove_all(dir);
}

TEST(Cm5SlotsRtl, SixteenLeavesAsTheModel) {
  Cm5DataConfig cfg = slots_config(2, "cm5", 4, 3, "cm5data-16-slots");
  Cm5DataParams& p = cfg.cm5;
  add_mapped_out_and_bad_link(p);
  for (const auto& pat : kPatterns) {
    const Cm5DataRunResult r = expect_rtl_equals_model(cfg, make_cm5_pattern(pat, p, 2, 4, 5), pat, {}, false);
    EXPECT_EQ(r.chips[cm5_chip_id(p, 1, 1, 0)].out[5], 0u) << pat;  // the mapped-out link
    EXPECT_EQ(r.chips[p.fault.chip].crc_primary, r.chips[p.fault.chip].in[0]) << pat;
  }
  for (const auto& pat : {"random", "nearest-neighbour"})
    expect_rtl_equals_model(cfg, make_cm5_open_loop(pat, p, 3, 0.02, 600, 5), std::string("open loop ") + pat, {}, false);
  Cm5DataTraffic t = make_cm5_pattern("all-to-one", p, 6, 4, 5);
  for (size_t i = 0; i < t.messages.size(); i += 5) t.messages[i].afd = true;
  std::vector<uint64_t> at(p.total_chips(), kCm5Never);
  at[5] = 30;
  at[0] = 90;
  at[3] = 200;
  expect_rtl_equals_model(cfg, t, "all-fall-down", at, false);
}

TEST(Cm5SlotsRtl, RequestStageAsTheModel) {
  // The slot asked for registered with its request (a cycle more per chip for a head): every
  // pattern, an open-loop load, all-fall-down; one message alone arrives 3 cycles later than
  // without the stage (3 chips crossed).
  Cm5DataConfig cfg = slots_config(2, "cm5", 4, 3, "cm5data-16-slots-stage");
  Cm5DataParams& p = cfg.cm5;
  p.request_stage = 1;
  for (const auto& pat : kPatterns) expect_rtl_equals_model(cfg, make_cm5_pattern(pat, p, 2, 4, 5), pat, {}, false);
  expect_rtl_equals_model(cfg, make_cm5_open_loop("random", p, 3, 0.03, 600, 5), "open loop random", {}, false);
  Cm5DataTraffic t = make_cm5_pattern("all-to-one", p, 6, 4, 5);
  for (size_t i = 0; i < t.messages.size(); i += 5) t.messages[i].afd = true;
  std::vector<uint64_t> at(p.total_chips(), kCm5Never);
  at[5] = 30;
  at[3] = 200;
  expect_rtl_equals_model(cfg, t, "all-fall-down", at, false);
  Cm5DataTraffic one;
  Cm5DataMessage m;
  m.src = 0;
  m.dst = 15;
  m.data = {0x1234u};
  one.messages.push_back(m);
  Cm5DataParams q = p;
  q.request_stage = 0;
  EXPECT_EQ(run_cm5data_model(p, one).deliveries.at(0).arrived, run_cm5data_model(q, one).deliveries.at(0).arrived + 3u);
}

}  // namespace
}  // namespace cmnet
