// The hnode's switch status in RTL (hw/clos/clos_hnode.v) against the set-up model, operation by
// operation: every middle-switch selection (InputVector | OutputVector, first free from h_d's
// start) and every RelayTable check (CO accepted or CANCELed) of long random set-up and
// tear-down runs, races included; lint and iCE40 synthesis.
#include "sim/clos/clos_hnode_rtl.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "gen/clos/clos_emitter.h"
#include "tests/clos/clos_oracle_check.h"
#include "tests/core/emitter_checks.h"

namespace cmnet {
namespace {
namespace fs = std::filesystem;

ClosConfig cfg(int m, int n, int r, int dims) {
  ClosConfig c;
  c.clos.m = m;
  c.clos.n = n;
  c.clos.r = r;
  c.clos.hnode_dims = dims;
  return c;
}

TEST(ClosHnodeRtl, AgreesWithTheModelOperationByOperation) {
  struct Case {
    ClosConfig c;
    double hop;
  };
  // Rearrangeable, two hnodes of two switch pairs and two middle switches each, slow hops: races,
  // RESENDs and blocked selections all in the stream. (One network: one Verilator model each.)
  ClosConfig c = cfg(4, 4, 4, 1);
  c.clos.cancel_limit = 1;
  for (const Case& k : {Case{c, 200}}) {
    ClosSetupOptions o;
    o.requests = 3000;
    o.think_us = 0;
    o.hold_us = 400;
    o.hop_us = k.hop;
    o.log_hnode_ops = true;
    const ClosSetupStats s = run_clos_setup(k.c.clos, o);
    ASSERT_EQ(s.error, "");
    ASSERT_GT(s.cancels, 0u) << clos_name(k.c.clos);  // races in the stream
    ASSERT_GT(s.resends, 0u);
    ASSERT_GT(s.blocked, 0u);
    const ClosHnodeRtlRun run = run_clos_hnode_rtl(k.c, s.hnode_ops);
    EXPECT_EQ(run.ops, s.hnode_ops.size());
    EXPECT_EQ(run.mismatches, 0u) << clos_name(k.c.clos) << ": "
                                  << (run.first_mismatches.empty() ? "" : run.first_mismatches[0]);
    // Every selection the RTL made (equal to the model's) picks a middle switch its CR's
    // InputVector and the request's CANCELs leave free.
    std::vector<std::string> bad;
    for (const ClosHnodeOp& op : s.hnode_ops) {
      if (op.code != ClosHnodeOpCode::kSelect) continue;
      std::vector<char> excluded(static_cast<size_t>(k.c.clos.m), 0);
      for (size_t b = 0; b < excluded.size(); ++b)
        excluded[b] = (b < op.iv.size() && op.iv[b]) || (b < op.tried.size() && op.tried[b]);
      for (const std::string& x : clos_oracle::check_selection(clos_test::oracle_net(k.c.clos), excluded, op.found, op.res_ms))
        bad.push_back("hnode " + std::to_string(op.hnode) + ": " + x);
    }
    EXPECT_TRUE(bad.empty()) << clos_test::oracle_report(bad);
    // The leaves' busy bits and WaitingQueues, TAKE by TAKE and RELEASE by RELEASE.
    ASSERT_LE(s.max_waiting, 16u);
    const ClosLeafRtlRun leaves = run_clos_leaf_rtl(k.c, s.leaf_ops, 12, 4);
    EXPECT_EQ(leaves.ops, s.leaf_ops.size());
    EXPECT_GT(leaves.ops, 3u * o.requests);
    EXPECT_EQ(leaves.full, 0u);
    EXPECT_EQ(leaves.mismatches, 0u) << clos_name(k.c.clos) << ": "
                                     << (leaves.first_mismatches.empty() ? "" : leaves.first_mismatches[0]);
  }
}

TEST(ClosHnodeRtl, AWrongDecisionIsCaught) {
  const ClosConfig c = cfg(4, 4, 4, 1);
  ClosSetupOptions o;
  o.requests = 200;
  o.log_hnode_ops = true;
  std::vector<ClosHnodeOp> ops = run_clos_setup(c.clos, o).hnode_ops;
  size_t selects = 0, cos = 0, crs = 0;
  for (ClosHnodeOp& op : ops) {
    if (op.code == ClosHnodeOpCode::kSelect && op.found && selects++ == 5) op.res_ms = (op.res_ms + 1) % 4;
    if (op.code == ClosHnodeOpCode::kCo && cos++ == 7) op.accept = !op.accept;
    if (op.code == ClosHnodeOpCode::kCr && crs++ == 9) op.iv[2] = !op.iv[2];
  }
  EXPECT_EQ(run_clos_hnode_rtl(c, ops).mismatches, 3u);
  std::vector<ClosLeafOp> leaf_ops = run_clos_setup(c.clos, o).leaf_ops;
  size_t waits = 0, resumes = 0;
  for (ClosLeafOp& op : leaf_ops) {
    if (!op.release && op.wait && waits++ == 3) op.wait = false;
    if (op.release && op.resume && resumes++ == 2) op.res_req ^= 1;
  }
  EXPECT_EQ(run_clos_leaf_rtl(c, leaf_ops, 12, 4).mismatches, 2u);
}

TEST(ClosHnodeRtl, LintsCleanAndSynthesizes) {
  for (const ClosConfig& c : {cfg(5, 3, 8, 2), cfg(32, 32, 32, 5), cfg(3, 2, 3, 1)})
  for (const GeneratedDesign& d : {emit_clos_hnode(c), emit_clos_leaf_status(c, 12, 4)}) {
    const fs::path dir = testing_checks::temp_dir("clos-hnode");
    EXPECT_EQ(testing_checks::lint_problems(d, d.top, dir), "") << clos_name(c.clos);
    // (the paper's hnode, m = 32: lint only; its 32 WaitingQueues are flip-flops, slow to synthesize)
    if (c.clos.m != 32) {
      bool ok = false;
      const std::string log = testing_checks::synth_ice40(d, d.top, dir, &ok);
      EXPECT_TRUE(ok) << clos_name(c.clos) << "\n" << log;
    }
    fs::remove_all(dir);
  }
}

}  // namespace
}  // namespace cmnet
