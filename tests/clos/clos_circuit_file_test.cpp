// A user's connection set (sim/clos/clos_circuit_file.h): the example parses, every kind of bad
// line (garbage included) is refused naming file, line and field, and the set-up through the
// hnodes on the model (sim/clos/clos_circuit_setup.h) sets every circuit up and releases it, a
// leaf's second circuit waiting for its first.
#include "sim/clos/clos_circuit_file.h"

#include <gtest/gtest.h>

#include <sstream>

#include "gen/clos/clos_config.h"
#include "gen/core/errors.h"
#include "gen/core/text_file.h"
#include "sim/clos/clos_circuit_setup.h"
#include "tests/clos/clos_test_net.h"

namespace cmnet {
namespace {

const std::string kExample = std::string(CMNET_SOURCE_DIR) + "/gen/examples/clos_n32.circuits";

// The example's own network, N(32, 32, 32) with 32 hnodes (gen/examples/clos_n32.json).
ClosParams n32() {
  const std::string path = std::string(CMNET_SOURCE_DIR) + "/gen/examples/clos_n32.json";
  return parse_clos_config(read_file(path), path).clos;
}

ClosParams n224() { return clos_test::net(2, 2, 4, 1); }

std::string error_of(const std::string& text, const ClosParams& p = n224()) {
  std::istringstream in(text);
  try {
    parse_clos_circuits(in, "c.txt", p, 2);
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(ClosCircuitFile, TheExampleParses) {
  const auto c = read_clos_circuit_file(kExample, n32(), 5);
  ASSERT_EQ(c.size(), 6u);
  EXPECT_EQ(c[0].src, 0);
  EXPECT_EQ(c[0].dst, 1023);
  EXPECT_EQ(c[0].words, 4);
  EXPECT_EQ(c[2].words, 5);  // no WORDS: the default (--per-proc)
  EXPECT_EQ(c[5].words, 8);
  const std::vector<int> d = circuit_dests(c, n32());
  EXPECT_EQ(d[64], 0);
  EXPECT_EQ(d[3], -1);
}

TEST(ClosCircuitFile, BadLinesNameFileLineAndField) {
  struct Bad {
    std::string text, want;
  };
  const std::vector<Bad> bad = {
      {"this is not a message\n", "c.txt:1: field 1 'this': not a number (SRC)"},
      {"0 1 2 3\n", "c.txt:1: field 4 '3': one field too many, expected 'SRC DST [WORDS]'"},
      {"this is\n", "c.txt:1: field 1 'this': not a number (SRC)"},
      {"# fine\n0 1\n2 abc\n", "c.txt:3: field 2 'abc': not a number (DST)"},
      {"0 1 4x\n", "c.txt:1: field 3 '4x': not a number (WORDS)"},
      {"7\n", "c.txt:1: field 2 'DST' missing, expected 'SRC DST [WORDS]'"},
      {"0 8\n", "c.txt:1: field 2 'DST' value 8 out of range 0..7"},
      {"-1 2\n", "c.txt:1: field 1 'SRC' value -1 out of range 0..7"},
      {"0 1 5000\n", "c.txt:1: field 3 'WORDS' value 5000 out of range 0..4096"},
      {"3 3\n", "c.txt:1: field 2 'DST' value 3: a circuit joins two leaves (DST = SRC)"},
      {"0 1\n\n0 2\n", "c.txt:3: field 1 'SRC' value 0: already the source of a circuit (line 1)"},
      {"0 1\n2 1\n", "c.txt:2: field 2 'DST' value 1: already the destination of a circuit (line 1)"},
      {"# nothing\n\n", "c.txt: no circuit"},
  };
  for (const Bad& b : bad) EXPECT_EQ(error_of(b.text).rfind(b.want, 0), 0u) << b.text << "-> " << error_of(b.text);
  EXPECT_THROW(read_clos_circuit_file("/no/such/file", n224(), 1), InputError);
  EXPECT_EQ(error_of("0 1 # a comment\n1 0 0\n"), "accepted");
}

TEST(ClosCircuitFile, TheModelSetsEveryCircuitUpThroughTheHnodes) {
  const auto c = read_clos_circuit_file(kExample, n32(), 2);
  const ClosCircuitSetup s = setup_circuits_model(n32(), c);
  ASSERT_TRUE(s.done) << s.error;
  ASSERT_EQ(s.circuits.size(), c.size());
  for (const ClosCircuitOutcome& o : s.circuits) {
    EXPECT_TRUE(o.ready) << o.req.line;
    EXPECT_GE(o.middle, 0) << o.req.line;
    EXPECT_GE(o.crs, 1u) << o.req.line;
    // Held WORDS rounds after READY, then released (ODCR, IDCR, DDCR: a few rounds more).
    EXPECT_GT(o.released_at, o.ready_at + static_cast<uint64_t>(o.req.words)) << o.req.line;
  }
  // Leaf 0 both sends (0 -> 1023) and receives (64 -> 0): one busy bit, so 64's circuit waits
  // until 0 has held its own WORDS rounds and released it (its ODCR frees the leaf).
  const ClosCircuitOutcome &first = s.circuits[0], &second = s.circuits[4];
  EXPECT_GT(second.ready_at, first.ready_at + static_cast<uint64_t>(first.req.words));
  EXPECT_GE(s.handled, 6u * 7u);  // CSR CR CO ACK ODCR IDCR DDCR at least, per circuit
}

TEST(ClosCircuitFile, BlockedSelectionsAreRetriedUntilACircuitIsReleased) {
  // N(1, 2, 4): one middle switch, so two circuits between the same switches cannot coexist.
  const ClosParams p = clos_test::net(1, 2, 4, 1);
  std::istringstream in("0 2 6\n1 3 6\n");
  const auto c = parse_clos_circuits(in, "b.txt", p, 1);
  const ClosCircuitSetup s = setup_circuits_model(p, c);
  ASSERT_TRUE(s.done) << s.error;
  EXPECT_GT(s.circuits[0].blocked + s.circuits[1].blocked, 0u);
}

}  // namespace
}  // namespace cmnet
