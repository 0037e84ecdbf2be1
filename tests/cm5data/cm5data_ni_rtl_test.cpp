// The network interface as a memory-mapped RTL block (cm5data_ni): the same script of register
// accesses into the RTL (every leaf of a 4-leaf network behind a cm5data_ni, under Verilator) and
// into the model's NI over the model network, every read compared (status, words, tags,
// interrupt, counters), cycle by cycle; what the reads say checked against the script's
// messages; lint (verilator -Wall), yosys synth_ice40 of the block, the register map's table.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "gen/cm5data/cm5data_ni_regmap.h"
#include "gen/cm5data/cm5data_ni_rtl.h"
#include "gen/core/errors.h"
#include "sim/cm5data/cm5data_ni_run.h"
#include "tests/core/emitter_checks.h"

namespace cmnet {
namespace {
namespace fs = std::filesystem;
using cm5nimap::index;

Cm5DataConfig cfg(int W, std::vector<uint32_t> mapped = {}) {
  Cm5DataConfig c;
  c.name = "ni";
  c.cm5.height = 1;
  c.cm5.profile = "cm5";
  c.cm5.link_bits = W;
  c.cm5.buffer_words = 2;
  c.cm5.max_words = 5;
  c.cm5.seed = 7;
  c.cm5.mapped_out_leaves = std::move(mapped);
  return c;
}

// A script builder: one access per leaf and cycle.
struct Script {
  std::vector<Cm5NiAccess> acc;
  std::map<uint32_t, uint64_t> next;  // per leaf: its next free cycle
  uint64_t at(uint32_t leaf, uint64_t not_before) {
    uint64_t& n = next[leaf];
    n = std::max(n, not_before);
    return n++;
  }
  void w(uint32_t leaf, uint32_t addr, uint32_t data, uint64_t t = 0) { acc.push_back({at(leaf, t), leaf, true, addr, data}); }
  void r(uint32_t leaf, uint32_t addr, uint64_t t = 0) { acc.push_back({at(leaf, t), leaf, false, addr, 0}); }
  void send(uint32_t leaf, uint32_t dst, int tag, const std::vector<uint32_t>& data, uint64_t t = 0) {
    for (uint32_t d : data) w(leaf, index("SEND_DATA"), d, t);
    w(leaf, index("SEND"), (static_cast<uint32_t>(tag) << 20) | dst);
  }
  // Every register of a leaf, once each.
  void all(uint32_t leaf, uint64_t t = 0) {
    for (const auto& reg : cm5nimap::kRegisters)
      if (reg.access != "wo" && reg.name != "RECV_DATA") r(leaf, reg.index, t);
  }
};

std::string show(const Cm5NiRead& r) {
  std::ostringstream s;
  s << "cycle " << r.cycle << " leaf " << r.leaf << " addr " << r.addr << " value 0x" << std::hex << r.value;
  return s.str();
}

void expect_same(const std::vector<Cm5NiRead>& rtl, const std::vector<Cm5NiRead>& model) {
  ASSERT_EQ(rtl.size(), model.size());
  size_t bad = 0;
  for (size_t i = 0; i < rtl.size() && bad < 10; ++i)
    if (!(rtl[i] == model[i])) {
      ++bad;
      ADD_FAILURE() << "read " << i << ": RTL " << show(rtl[i]) << ", model " << show(model[i]);
    }
}

// The reads of one leaf and register, in order.
std::vector<uint32_t> values(const std::vector<Cm5NiRead>& rd, uint32_t leaf, uint32_t addr) {
  std::vector<uint32_t> v;
  for (const auto& r : rd)
    if (r.leaf == leaf && r.addr == addr) v.push_back(r.value);
  return v;
}

// Directed: a whole-message send FIFO (a second 5-word message refused while the first is in it),
// the tag mask and interrupt (set, cleared by a write, counted), receiving a message word by word,
// status read every cycle while messages travel, the staging overflow flag.
Script directed() {
  Script s;
  s.w(1, index("TAG_MASK"), 1u << 5);
  s.send(0, 1, 5, {0, 11, 12, 13, 14});
  s.send(0, 2, 3, {0, 21, 22});  // refused: 7 + 5 words > 8
  s.send(2, 1, 3, {2, 31});      // tag 3: no interrupt
  s.send(3, 1, 5, {3, 41, 42, 43});
  for (int k = 0; k < 6; ++k) s.w(2, index("SEND_DATA"), 50u + static_cast<uint32_t>(k));  // one too many
  s.w(2, index("SEND"), (1u << 20) | 0u);
  for (int k = 0; k < 150; ++k) {
    s.r(0, index("STATUS"));
    s.r(1, k % 2 ? index("RECV_LEVEL") : index("STATUS"));
  }
  s.all(0);
  s.all(1);
  s.all(2);
  // Leaf 1 takes its three messages: head, then each data word.
  for (int m = 0; m < 3; ++m) {
    s.r(1, index("RECV_HEAD"));
    for (int k = 0; k < 5; ++k) s.r(1, index("RECV_DATA"));  // past the end: the next message's words
  }
  s.r(1, index("INTERRUPT"));
  s.w(1, index("INTERRUPT"), 0);
  s.r(1, index("INTERRUPT"));
  s.w(2, index("STATUS"), 0);
  s.all(1);
  s.all(2);
  // Leaf 0's refused message, again, once the FIFO has room.
  s.send(0, 2, 3, {0, 21, 22});
  const uint64_t t0 = s.next[0];
  for (int k = 0; k < 80; ++k) s.r(2, index("RECV_LEVEL"), t0);
  s.r(2, index("RECV_HEAD"));
  for (int k = 0; k < 3; ++k) s.r(2, index("RECV_DATA"));
  s.all(0);
  s.all(2);
  return s;
}

uint64_t end_of(const Script& s) {
  uint64_t e = 0;
  for (const auto& a : s.acc) e = std::max(e, a.cycle + 1);
  return e + 10;
}

TEST(Cm5NiRtl, DirectedScriptMatchesTheModel) {
  const Cm5DataConfig c = cfg(8);
  const Script s = directed();
  const auto model = run_cm5data_ni_model(c.cm5, s.acc, end_of(s));
  const auto rtl = run_cm5data_ni_rtl(c, s.acc, end_of(s));
  expect_same(rtl, model);
  // What the reads say (the model's, now known equal to the RTL's).
  const auto sent0 = values(model, 0, index("CNT_SENT"));
  ASSERT_EQ(sent0.size(), 2u);
  EXPECT_EQ(sent0[0], 1u);
  EXPECT_EQ(sent0[1], 2u);
  EXPECT_EQ(values(model, 0, index("CNT_REFUSED")).front(), 1u);
  const auto st0 = values(model, 0, index("STATUS"));
  EXPECT_NE(std::find(st0.begin(), st0.end(), (1u << 31) | (1u << 8) | 7u), st0.end()) << "refused, 7 words held";
  // 17 words for leaf 1 and a receive FIFO of 16: the third waits in the network until leaf 1 reads.
  EXPECT_EQ(values(model, 1, index("CNT_RECEIVED")).front(), 2u);
  EXPECT_EQ(values(model, 1, index("CNT_RECEIVED")).back(), 3u);
  EXPECT_EQ(values(model, 1, index("CNT_INTERRUPTS")).back(), 2u);
  EXPECT_EQ(values(model, 1, index("CNT_CRC_ERRORS")).front(), 0u);
  const auto intr = values(model, 1, index("INTERRUPT"));
  ASSERT_GE(intr.size(), 3u);
  EXPECT_EQ(intr[intr.size() - 3], 1u);
  EXPECT_EQ(intr[intr.size() - 2], 0u);  // cleared by the write
  // The three messages' words, in arrival order, whatever it was: every word once.
  const auto words = values(model, 1, index("RECV_DATA"));
  std::vector<uint32_t> got(words.begin(), words.end());
  std::sort(got.begin(), got.end());
  got.erase(std::remove(got.begin(), got.end(), 0u), got.end());
  EXPECT_EQ(got, (std::vector<uint32_t>{2, 3, 11, 12, 13, 14, 31, 41, 42, 43}));
  const auto heads = values(model, 1, index("RECV_HEAD"));
  ASSERT_GE(heads.size(), 3u);
  EXPECT_EQ(heads[0] & 0xC0000000u, 0xC0000000u) << "valid, CRC ok";
  const auto st2 = values(model, 2, index("STATUS"));
  EXPECT_NE(st2.front() & (1u << 29), 0u) << "staging overflow";
  EXPECT_EQ(st2.back() & (1u << 29), 0u) << "cleared";
  EXPECT_EQ(values(model, 2, index("RECV_DATA")), (std::vector<uint32_t>{0, 21, 22}));
}

// Random: every leaf sends messages of random length and tag to random leaves, sets its tag mask,
// clears its interrupt, reads random registers, and takes its messages at random rates (a slow
// taker holds the network back through the receive FIFO's credits).
Script random_script(uint32_t N, uint64_t seed, uint64_t cycles) {
  Script s;
  uint64_t z = seed;
  auto rnd = [&](uint64_t n) {
    z = z * 6364136223846793005ull + 1442695040888963407ull;
    return (z >> 33) % n;
  };
  for (uint64_t t = 0; t < cycles; ++t)
    for (uint32_t x = 0; x < N; ++x) {
      if (s.next[x] > t) continue;
      const uint64_t k = rnd(100);
      const bool slow = x == 2 && t < cycles / 2;  // leaf 2 takes nothing for a while
      if (k < 12 && t + 500 < cycles) {
        uint32_t d = static_cast<uint32_t>(rnd(N - 1));
        d = d >= x ? d + 1 : d;
        std::vector<uint32_t> data(1 + rnd(5));
        for (auto& w : data) w = static_cast<uint32_t>(rnd(1u << 31));
        s.send(x, d, static_cast<int>(rnd(16)), data, t);
      } else if (k < 40 && !slow) {
        s.r(x, index("RECV_DATA"), t);
      } else if (k < 42) {
        s.w(x, index("TAG_MASK"), static_cast<uint32_t>(rnd(1u << 16)), t);
      } else if (k < 44) {
        s.w(x, index("INTERRUPT"), 0, t);
      } else if (k < 45) {
        s.w(x, index("STATUS"), 0, t);
      } else {
        s.r(x, static_cast<uint32_t>(rnd(cm5nimap::kRegisters.size())), t);
      }
    }
  for (uint32_t x = 0; x < N; ++x) s.all(x, cycles);
  return s;
}

TEST(Cm5NiRtl, RandomScriptMatchesTheModel) {
  for (int W : {8, 32}) {
    SCOPED_TRACE("W = " + std::to_string(W));
    const Cm5DataConfig c = cfg(W);
    const Script s = random_script(4, 11 + static_cast<uint64_t>(W), 3000);
    const auto model = run_cm5data_ni_model(c.cm5, s.acc, end_of(s));
    const auto rtl = run_cm5data_ni_rtl(c, s.acc, end_of(s));
    expect_same(rtl, model);
    std::printf("W = %d: %zu reads compared over %zu accesses\n", W, rtl.size(), s.acc.size());
    uint64_t sent = 0, recv = 0, refused = 0;
    for (uint32_t x = 0; x < 4; ++x) {
      sent += values(model, x, index("CNT_SENT")).back();
      recv += values(model, x, index("CNT_RECEIVED")).back();
      refused += values(model, x, index("CNT_REFUSED")).back();
      EXPECT_EQ(values(model, x, index("CNT_CRC_ERRORS")).back(), 0u);
    }
    EXPECT_GT(sent, 100u);
    EXPECT_GT(refused, 0u);  // the send FIFOs did fill
    EXPECT_EQ(recv, sent);   // everything sent arrived
  }
}

// The NI's FIFO sizes are config fields (ni.send_words, ni.recv_words: what the NIs cost on a board):
// a 16-word send FIFO and an 8-word receive FIFO (one longest message) under the random script.
TEST(Cm5NiRtl, OtherFifoSizesMatchTheModel) {
  Cm5DataConfig c = cfg(8);
  c.cm5.ni_send_words = 16;
  c.cm5.ni_recv_words = 8;
  const std::string v = emit_cm5data_ni_module(c.cm5, cm5_ni_send_words(c.cm5));
  EXPECT_NE(v.find("//   send FIFO words = 16\n//   receive FIFO words = 8\n"), std::string::npos);
  const Script s = random_script(4, 23, 2000);
  const auto model = run_cm5data_ni_model(c.cm5, s.acc, end_of(s));
  const auto rtl = run_cm5data_ni_rtl(c, s.acc, end_of(s));
  expect_same(rtl, model);
  uint64_t sent = 0, recv = 0, refused = 0;
  uint32_t most_flits = 0, most_send = 0;
  for (uint32_t x = 0; x < 4; ++x) {
    sent += values(model, x, index("CNT_SENT")).back();
    recv += values(model, x, index("CNT_RECEIVED")).back();
    refused += values(model, x, index("CNT_REFUSED")).back();
    for (uint32_t l : values(model, x, index("RECV_LEVEL"))) most_flits = std::max(most_flits, l & 0xFFFFu);
    for (uint32_t st : values(model, x, index("STATUS"))) most_send = std::max(most_send, st & 0xFFu);
  }
  EXPECT_GT(sent, 50u);
  EXPECT_GT(refused, 0u);
  EXPECT_EQ(recv, sent);
  EXPECT_LE(most_flits, 8u * 4u);  // 8 words of 4 flits
  EXPECT_GT(most_send, 8u);        // the send FIFO held more than the default's 8 words
  EXPECT_LE(most_send, 16u);
}

// A bad link (the config's fault: leaf 1's link into the chip flips a bit of a data flit): the
// receiving NIs' CRC check (each word stepped in W bits a cycle) says not ok and counts it, as the
// model's NI does.
TEST(Cm5NiRtl, BadLinkGivesCrcErrors) {
  Cm5DataConfig c = cfg(8);
  c.cm5.fault.on = true;
  c.cm5.fault.chip = 0;
  c.cm5.fault.port = 1;
  c.cm5.fault.flit = 5;
  c.cm5.fault.mask = 2;
  Script s;
  s.send(1, 0, 0, {1, 2, 3});
  s.send(1, 2, 0, {4});
  s.send(3, 0, 0, {5, 6});  // a good link
  for (int k = 0; k < 80; ++k) s.r(0, index("RECV_LEVEL"));
  const uint64_t t0 = s.next[0];  // every message is in by then
  for (uint32_t x : {0u, 2u}) {
    for (int m = 0; m < 2; ++m) {
      s.r(x, index("RECV_HEAD"), t0);
      for (int k = 0; k < 3; ++k) s.r(x, index("RECV_DATA"));
    }
    s.all(x);
  }
  const auto model = run_cm5data_ni_model(c.cm5, s.acc, end_of(s));
  const auto rtl = run_cm5data_ni_rtl(c, s.acc, end_of(s));
  expect_same(rtl, model);
  EXPECT_EQ(values(model, 0, index("CNT_CRC_ERRORS")).back(), 1u);
  EXPECT_EQ(values(model, 2, index("CNT_CRC_ERRORS")).back(), 1u);
  EXPECT_EQ(values(model, 0, index("CNT_RECEIVED")).back(), 2u);
  int bad = 0, good = 0;
  for (uint32_t h : values(model, 0, index("RECV_HEAD")))
    if (h >> 31) (h & (1u << 30)) ? ++good : ++bad;
  EXPECT_GT(bad, 0);
  EXPECT_GT(good, 0);
}

TEST(Cm5NiRtl, MappedOutLeafGivesAddressErrors) {
  const Cm5DataConfig c = cfg(8, {3});
  Script s;
  s.send(0, 3, 0, {1});  // to a mapped-out leaf
  s.send(3, 0, 0, {2});  // from one
  s.send(0, 1, 0, {3});
  for (int k = 0; k < 60; ++k) s.r(1, index("RECV_LEVEL"));
  s.all(0);
  s.all(1);
  s.all(3);
  const auto model = run_cm5data_ni_model(c.cm5, s.acc, end_of(s));
  const auto rtl = run_cm5data_ni_rtl(c, s.acc, end_of(s));
  expect_same(rtl, model);
  EXPECT_EQ(values(model, 0, index("CNT_ADDR_ERRORS")).back(), 1u);
  EXPECT_EQ(values(model, 3, index("CNT_ADDR_ERRORS")).back(), 1u);
  EXPECT_EQ(values(model, 0, index("CNT_SENT")).back(), 1u);
  EXPECT_EQ(values(model, 0, index("STATUS")).back() & (1u << 30), 1u << 30);
  EXPECT_EQ(values(model, 1, index("CNT_RECEIVED")).back(), 1u);
}

// User partitions (16 leaves: leaves 0..3 and 8..11 in two partitions, the rest in none): a SEND
// out of the sender's partition is an address error, a SEND from outside every partition (the
// control processors' and I/O's part of the tree) may go into one; the RTL's bounds check (from
// the straps) against the model's (Cm5DataParams::may_address).
TEST(Cm5NiRtl, PartitionBoundsCheckGivesAddressErrors) {
  Cm5DataConfig c = cfg(32);
  c.cm5.height = 2;
  c.cm5.partitions = {{1, 0}, {1, 2}};
  validate(c.cm5, "test");
  Script s;
  s.send(0, 9, 0, {1});   // partition 0 -> partition 1: refused
  s.send(0, 5, 0, {2});   // partition 0 -> no partition: refused
  s.send(0, 3, 0, {3});   // within partition 0
  s.send(9, 11, 0, {4});  // within partition 1
  s.send(5, 8, 0, {5});   // no partition -> partition 1
  s.send(10, 1, 0, {6});  // partition 1 -> partition 0: refused
  for (int k = 0; k < 80; ++k) s.r(3, index("RECV_LEVEL"));
  for (uint32_t x : {0u, 3u, 5u, 8u, 9u, 10u, 11u}) s.all(x, 200);  // once every message is in
  const auto model = run_cm5data_ni_model(c.cm5, s.acc, end_of(s));
  const auto rtl = run_cm5data_ni_rtl(c, s.acc, end_of(s));
  expect_same(rtl, model);
  EXPECT_EQ(values(model, 0, index("CNT_ADDR_ERRORS")).back(), 2u);
  EXPECT_EQ(values(model, 10, index("CNT_ADDR_ERRORS")).back(), 1u);
  EXPECT_EQ(values(model, 0, index("CNT_SENT")).back(), 1u);
  for (uint32_t x : {5u, 9u}) EXPECT_EQ(values(model, x, index("CNT_ADDR_ERRORS")).back(), 0u) << x;
  for (uint32_t x : {3u, 8u, 11u}) EXPECT_EQ(values(model, x, index("CNT_RECEIVED")).back(), 1u) << x;
}

TEST(Cm5NiRtl, BadScriptsAreRefused) {
  const Cm5DataParams p = cfg(8).cm5;
  EXPECT_THROW(run_cm5data_ni_model(p, {{0, 4, false, 0, 0}}, 10), InputError);
  EXPECT_THROW(run_cm5data_ni_model(p, {{0, 1, false, 0, 0}, {0, 1, true, 0, 0}}, 10), InputError);
  EXPECT_THROW(run_cm5data_ni_model(p, {{12, 1, false, 0, 0}}, 10), InputError);
  EXPECT_THROW(run_cm5data_ni_model(p, {{1, 1, false, 16, 0}}, 10), InputError);
}

TEST(Cm5NiRtl, LintsCleanAndSynthesizes) {
  for (int W : {4, 32, 16}) {
    Cm5DataConfig c = cfg(W, {2});
    if (W == 16) {  // 16 leaves in two partitions: the bounds check
      c.cm5.height = 2;
      c.cm5.partitions = {{1, 3}, {1, 1}};
    }
    const GeneratedDesign d = emit_cm5data_ni(c);
    const fs::path dir = testing_checks::temp_dir("ni-lint-" + std::to_string(W));
    write_design(d, dir.string());
    std::vector<std::string> cmd = {CMNET_VERILATOR, "--lint-only", "-Wall", "--top-module", "cm5data_ni_net"};
    for (const auto& f : d.verilog_files()) cmd.push_back((dir / f).string());
    int rc = 0;
    const std::string log = testing_checks::run_tool(cmd, dir / "lint.log", &rc);
    EXPECT_EQ(rc, 0) << log;
    EXPECT_EQ(log.find("%Warning"), std::string::npos) << log;
    fs::remove_all(dir);
  }
  Cm5DataConfig c = cfg(8);
  c.cm5.height = 2;
  c.cm5.partitions = {{1, 1}};
  const GeneratedDesign d = emit_cm5data_ni(c);
  const fs::path dir = testing_checks::temp_dir("ni-yosys");
  bool ok = false;
  const std::string log = testing_checks::synth_ice40(d, "cm5data_ni", dir, &ok, "chparam -set LEAF 5 cm5data_ni");
  EXPECT_TRUE(ok) << log;
  fs::remove_all(dir);
}

TEST(Cm5NiRtl, RegisterMapIsDescribedOnce) {
  const GeneratedDesign d = emit_cm5data_ni(cfg(8));
  const std::string v = testing_checks::file_of(d, "cm5data_ni.v");
  for (const auto& r : cm5nimap::kRegisters) {
    EXPECT_NE(v.find("localparam [3:0] A_" + std::string(r.name) + " = 4'd" + std::to_string(r.index) + ";"), std::string::npos)
        << r.name;
    if (r.access != "wo") {
      EXPECT_NE(v.find("A_" + std::string(r.name) + ": rdata"), std::string::npos) << r.name;
    }
  }
  EXPECT_EQ(v, emit_cm5data_ni_module(cfg(8).cm5));  // deterministic
  EXPECT_NE(v.find("gen"), std::string::npos);
  std::ifstream readme(std::string(CMNET_SOURCE_DIR) + "/gen/cm5data/README.md");
  std::stringstream ss;
  ss << readme.rdbuf();
  EXPECT_NE(ss.str().find(cm5nimap::markdown_table()), std::string::npos) << "README's table is stale:\n"
                                                                          << cm5nimap::markdown_table();
  EXPECT_NE(ss.str().find(cm5nimap::bridge_markdown_table()), std::string::npos) << "README's bridge table is stale:\n"
                                                                                 << cm5nimap::bridge_markdown_table();
}

}  // namespace
}  // namespace cmnet
