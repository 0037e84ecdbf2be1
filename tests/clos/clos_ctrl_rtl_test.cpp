// The hnodes' message engines in RTL (hw/clos/clos_hnode_engine.v on the control hypercube,
// hw/clos/clos_cube_router.v) against the set-up model, message by message: leaves run random
// set-up and tear-down sequences on the RTL; every message an hnode handles goes, in the RTL's
// order, to the model (ClosProtocolModel), whose step must send exactly what the engine sent.
// Races (CANCEL, RESEND), blocked selections and WaitingQueues all occur; lint, yosys.
#include "sim/clos/clos_ctrl_rtl.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "gen/clos/clos_emitter.h"
#include "sim/clos/clos_circuit_setup.h"
#include "gen/core/errors.h"
#include "tests/clos/clos_oracle_check.h"
#include "tests/core/emitter_checks.h"

namespace cmnet {
namespace {
namespace fs = std::filesystem;

ClosConfig cfg(int m, int n, int r, int dims, int limit) {
  ClosConfig c;
  c.clos.m = m;
  c.clos.n = n;
  c.clos.r = r;
  c.clos.hnode_dims = dims;
  c.clos.cancel_limit = limit;
  return c;
}

uint64_t handled(const ClosCtrlRtlRun& r, ClosMsgType t) { return r.handled_by_type[static_cast<int>(t)]; }

TEST(ClosCtrlRtl, EnginesAgreeWithTheModelMessageByMessage) {
  struct Case {
    ClosConfig c;
    int per_leaf, think, hold;
  };
  // A rearrangeable network with two hnodes (races: CRs of one input switch overtake each other's
  // ACKs), and a blocking one with four hnodes (blocked selections, RESEND "blocked").
  for (const Case& k : {Case{cfg(4, 4, 4, 1, 1), 40, 4, 40}, Case{cfg(2, 3, 4, 2, 1), 40, 4, 40}}) {
    const auto reqs = random_leaf_requests(k.c.clos, k.per_leaf, k.think, k.hold, 5);
    const ClosCtrlRtlRun r = run_clos_ctrl_rtl(k.c, reqs);
    const std::string what = clos_name(k.c.clos);
    EXPECT_EQ(r.requests_done, reqs.size()) << what;
    EXPECT_EQ(r.mismatches, 0u) << what << ": " << (r.first_mismatches.empty() ? "" : r.first_mismatches[0]);
    EXPECT_EQ(r.model_error, "") << what;
    EXPECT_TRUE(r.model_idle) << what;
    EXPECT_FALSE(r.overflow) << what;
    EXPECT_EQ(r.readies, reqs.size()) << what;
    EXPECT_EQ(handled(r, ClosMsgType::kODCR), reqs.size()) << what;
    EXPECT_EQ(handled(r, ClosMsgType::kDDCR), reqs.size()) << what;
    const auto oracle = clos_test::oracle_setup(k.c.clos, reqs, r);
    EXPECT_TRUE(oracle.empty()) << what << clos_test::oracle_report(oracle);
    std::printf("%s: %llu requests, %llu cycles, handled CR %llu CO %llu CANCEL %llu RESEND %llu\n", what.c_str(),
                static_cast<unsigned long long>(r.requests_done), static_cast<unsigned long long>(r.cycles),
                static_cast<unsigned long long>(handled(r, ClosMsgType::kCR)),
                static_cast<unsigned long long>(handled(r, ClosMsgType::kCO)),
                static_cast<unsigned long long>(handled(r, ClosMsgType::kCANCEL)),
                static_cast<unsigned long long>(handled(r, ClosMsgType::kRESEND)));
  }
}

// A user's connection set (sim/clos/clos_circuit_file.h) set up by the engines on N(4, 4, 4) with
// 2 hnodes (the design above: one cached model): every circuit set up and released, the engines
// equal to the model message by message; the same set on the model alone sets up the same circuits.
TEST(ClosCtrlRtl, AConnectionSetFromAFileIsSetUpAsOnTheModel) {
  const ClosConfig c = cfg(4, 4, 4, 1, 1);
  std::istringstream in("0 15 3\n1 4 2\n2 5\n5 2 4\n12 0 1\n4 1\n");
  const auto circuits = parse_clos_circuits(in, "set.circuits", c.clos, 2);
  const ClosCircuitSetup rtl = setup_circuits_rtl(c, circuits);
  ASSERT_TRUE(rtl.done) << rtl.error;
  const ClosCircuitSetup model = setup_circuits_model(c.clos, circuits);
  ASSERT_TRUE(model.done) << model.error;
  ASSERT_EQ(rtl.circuits.size(), circuits.size());
  for (size_t i = 0; i < circuits.size(); ++i) {
    const ClosCircuitOutcome &r = rtl.circuits[i], &m = model.circuits[i];
    EXPECT_TRUE(r.ready && m.ready) << i;
    EXPECT_GE(r.middle, 0) << i;
    // Held WORDS cycles after READY, then released.
    EXPECT_GT(r.released_at, r.ready_at + static_cast<uint64_t>(circuits[i].words)) << i;
  }
  EXPECT_GT(rtl.handled, 7u * circuits.size() - 1);
  // Both engines' set-ups against the oracle: links and leaves exclusive, paths set, each once.
  for (const ClosCircuitSetup* s : {&rtl, &model}) {
    const auto oracle = clos_test::oracle_setup(c.clos, *s);
    EXPECT_TRUE(oracle.empty()) << s->engine << clos_test::oracle_report(oracle);
  }
  // and the comparison sees a lost configuration write and a second READY
  ClosCircuitSetup lost = rtl, twice = rtl;
  lost.writes.erase(lost.writes.begin());
  EXPECT_NE(clos_test::oracle_report(clos_test::oracle_setup(c.clos, lost)).find("the settings carry its source to"),
            std::string::npos);
  for (size_t i = 0; i < twice.log.size(); ++i)
    if (twice.log[i].msg.type == ClosMsgType::kREADY) {
      twice.log.insert(twice.log.begin() + static_cast<std::ptrdiff_t>(i), twice.log[i]);
      break;
    }
  EXPECT_NE(clos_test::oracle_report(clos_test::oracle_setup(c.clos, twice)).find("established a second time"),
            std::string::npos);
}

TEST(ClosCtrlRtl, ADifferentModelIsCaught) {
  // The same run, the model allowed three CANCELs where the engines allow one: the first RESEND
  // after a single CANCEL differs.
  const ClosConfig c = cfg(2, 3, 4, 2, 1);
  const auto reqs = random_leaf_requests(c.clos, 40, 4, 40, 5);
  ClosParams three = c.clos;
  three.cancel_limit = 3;
  const ClosCtrlRtlRun r = run_clos_ctrl_rtl(c, reqs, 2000000, 600, &three);
  EXPECT_GT(r.mismatches, 0u);
  ASSERT_FALSE(r.first_mismatches.empty());
  EXPECT_NE(r.first_mismatches[0].find("CANCEL"), std::string::npos) << r.first_mismatches[0];
}

// The Latin-square start ((input switch + output switch) mod m) and RESEND after a wait in the
// engines: the RTL still equals the model message by message (the model with the same options),
// and each option changes what the engines do: a model without it disagrees.
TEST(ClosCtrlRtl, LatinSquareStartAndResendAfterWaitAgreeWithTheModel) {
  for (const ClosConfig& base : {cfg(4, 4, 4, 1, 1), cfg(2, 3, 4, 2, 1)}) {
    ClosConfig c = base;
    c.clos.select_pair = true;
    c.clos.resend_after_wait = true;
    const auto reqs = random_leaf_requests(c.clos, 40, 4, 40, 5);
    const std::string what = clos_name(c.clos) + " (pair start, RESEND after a wait)";
    const ClosCtrlRtlRun r = run_clos_ctrl_rtl(c, reqs);
    EXPECT_EQ(r.requests_done, reqs.size()) << what;
    EXPECT_EQ(r.mismatches, 0u) << what << ": " << (r.first_mismatches.empty() ? "" : r.first_mismatches[0]);
    EXPECT_EQ(r.model_error, "") << what;
    EXPECT_TRUE(r.model_idle) << what;
    EXPECT_FALSE(r.overflow) << what;
    EXPECT_EQ(r.readies, reqs.size()) << what;
    const auto oracle = clos_test::oracle_setup(c.clos, reqs, r);
    EXPECT_TRUE(oracle.empty()) << what << clos_test::oracle_report(oracle);
    // Every CR that waited for its destination came back as a RESEND and a second CR: more
    // RESENDs and CRs than the reference engines handle for the same requests.
    const ClosCtrlRtlRun ref = run_clos_ctrl_rtl(base, reqs);
    EXPECT_EQ(ref.mismatches, 0u) << what;
    EXPECT_GT(handled(r, ClosMsgType::kRESEND), handled(ref, ClosMsgType::kRESEND)) << what;
    std::printf("%s: handled CR %llu CO %llu CANCEL %llu RESEND %llu (reference engines: CR %llu CANCEL %llu RESEND %llu)\n",
                what.c_str(), static_cast<unsigned long long>(handled(r, ClosMsgType::kCR)),
                static_cast<unsigned long long>(handled(r, ClosMsgType::kCO)),
                static_cast<unsigned long long>(handled(r, ClosMsgType::kCANCEL)),
                static_cast<unsigned long long>(handled(r, ClosMsgType::kRESEND)),
                static_cast<unsigned long long>(handled(ref, ClosMsgType::kCR)),
                static_cast<unsigned long long>(handled(ref, ClosMsgType::kCANCEL)),
                static_cast<unsigned long long>(handled(ref, ClosMsgType::kRESEND)));
    // The model without one of the options disagrees with these engines.
    ClosParams no_pair = c.clos, no_resend = c.clos;
    no_pair.select_pair = false;
    no_resend.resend_after_wait = false;
    const ClosCtrlRtlRun a = run_clos_ctrl_rtl(c, reqs, 2000000, 600, &no_pair);
    EXPECT_GT(a.mismatches, 0u) << what << ": a model searching from h_d's own switch";
    const ClosCtrlRtlRun b = run_clos_ctrl_rtl(c, reqs, 2000000, 600, &no_resend);
    EXPECT_GT(b.mismatches, 0u) << what << ": a model without RESEND after a wait";
    ASSERT_FALSE(b.first_mismatches.empty());
    EXPECT_NE(b.first_mismatches[0].find("RESEND"), std::string::npos) << b.first_mismatches[0];
  }
}

TEST(ClosCtrlRtl, LintsCleanAndSynthesizes) {
  // The reference engines and the engines with both options (pair start, RESEND after a wait):
  // both lint clean; the latter (the larger) synthesizes.
  ClosConfig opt = cfg(4, 4, 4, 1, 3);
  opt.clos.select_pair = true;
  opt.clos.resend_after_wait = true;
  for (const ClosConfig& c : {cfg(4, 4, 4, 1, 3), opt}) {
    const GeneratedDesign d = emit_clos_ctrl(c);
    // and the switch with these controllers (what `cmnet bench` places on the iCE40)
    const GeneratedDesign s = emit_clos_switched(c);
    const fs::path sdir = testing_checks::temp_dir("clos-switched");
    EXPECT_EQ(testing_checks::lint_problems(s, s.top, sdir), "");
    fs::remove_all(sdir);
    const fs::path dir = testing_checks::temp_dir("clos-ctrl");
    EXPECT_EQ(testing_checks::lint_problems(d, d.top, dir), "");
    if (c.clos.select_pair) {
      bool ok = false;
      const std::string log = testing_checks::synth_ice40(d, d.top, dir, &ok);
      EXPECT_TRUE(ok) << log;
    }
    fs::remove_all(dir);
  }
}

TEST(ClosCtrlRtl, OneHnodeIsRefused) {
  try {
    emit_clos_ctrl(cfg(4, 4, 4, 0, 3));
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("hnode_dims = 0"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cmnet
