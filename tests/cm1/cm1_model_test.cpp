// Tests of the CM-1 reference model (sim/cm1_model.*) against the rules of section 3 of the
// paper: Figure 9's three heart cases, single-message latency, exactly-once delivery, OR
// combining, one-message ejection, and a full-size CM-1 run.
#include "sim/cm1/cm1_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gen/cm1/cm1_params.h"
#include "gen/core/errors.h"
#include "sim/cm1/cm1_traffic.h"

namespace cmnet {
namespace {

Cm1Params small(int c, int P, int b) {
  Cm1Params p;
  p.cube_dims = c;
  p.procs_per_chip = P;
  p.rows = b;
  p.vp_bits = 2;
  p.data_bits = 16;
  return p;
}

Message msg(uint32_t src, uint32_t dst, uint64_t data = 0, uint32_t vp = 0) {
  Message m;
  m.src = src;
  m.dst = dst;
  m.data = data;
  m.vp = vp;
  return m;
}

// Rows of every chip after every stage, keyed by (petit, stage, column, chip).
struct Trace {
  std::map<std::tuple<uint64_t, int, int, int>, std::vector<std::pair<size_t, uint32_t>>> rows;
  Cm1ModelOptions options() {
    Cm1ModelOptions o;
    o.trace = [this](const Cm1TraceEvent& ev) {
      auto& v = rows[{ev.petit, static_cast<int>(ev.stage), ev.column, ev.chip}];
      for (const Cm1TraceRow& r : ev.rows) v.emplace_back(r.msg, r.addr);
    };
    return o;
  }
  std::vector<std::pair<size_t, uint32_t>> at(uint64_t petit, Cm1Stage s, int column, int chip) const {
    auto it = rows.find({petit, static_cast<int>(s), column, chip});
    return it == rows.end() ? std::vector<std::pair<size_t, uint32_t>>{} : it->second;
  }
};

using Rows = std::vector<std::pair<size_t, uint32_t>>;

const Cm1Delivery* find_delivery(const Cm1RunResult& r, size_t m) {
  for (const Cm1Delivery& d : r.deliveries)
    if (d.msg == m) return &d;
  return nullptr;
}

// ---------------------------------------------------------------------------------------------
// Parameters

TEST(Cm1Params, NamesAndDerived) {
  EXPECT_STREQ(to_string(EjectMode::kOrCombine), "or");
  EXPECT_STREQ(to_string(EjectMode::kOnePerPetit), "one");
  Cm1Params p;
  for (int P : {1, 2, 4, 8, 16, 32, 64}) {
    p.procs_per_chip = P;
    EXPECT_EQ(1 << p.proc_bits(), P);
  }
  p.procs_per_chip = 16;
  p.cube_dims = 12;
  p.vp_bits = 0;
  p.data_bits = 32;
  EXPECT_EQ(p.msg_len(), 50);  // the paper's l = 6 + c + v + d
  EXPECT_EQ(p.petit_period(), 50);
  EXPECT_EQ(p.delivery_bit_times(12), 624);  // the paper's example
  EXPECT_NO_THROW(validate(p, "test"));
}

TEST(Cm1Params, ValidateNamesFieldValueAndRange) {
  auto expect_error = [](Cm1Params p, const std::string& text) {
    try {
      validate(p, "cfg.json");
      ADD_FAILURE() << "no error for " << text;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
  };
  Cm1Params p;
  p.cube_dims = 40;
  expect_error(p, "cfg.json: cube_dims = 40 out of range 1..16");
  p = {};
  p.cube_dims = 0;
  expect_error(p, "cube_dims = 0 out of range 1..16");
  p = {};
  p.rows = 1;
  expect_error(p, "rows = 1 out of range 2..64");
  p = {};
  p.rows = 65;
  expect_error(p, "rows = 65 out of range 2..64");
  p = {};
  p.procs_per_chip = 12;
  expect_error(p, "procs_per_chip = 12");
  p = {};
  p.procs_per_chip = 128;
  expect_error(p, "procs_per_chip = 128 out of range 1..64");
  p = {};
  p.vp_bits = 17;
  expect_error(p, "vp_bits = 17 out of range 0..16");
  p = {};
  p.data_bits = 0;
  expect_error(p, "data_bits = 0 out of range 1..64");
  p = {};
  p.data_bits = 65;
  expect_error(p, "data_bits = 65 out of range 1..64");
  p = {};
  p.queue_depth = 0;
  expect_error(p, "queue_depth = 0 out of range 1..1024");
  p = {};
  p.queue_depth = 1025;
  expect_error(p, "queue_depth = 1025 out of range 1..1024");
}

// ---------------------------------------------------------------------------------------------
// Figure 9: the three heart cases.

TEST(Cm1ColumnChoice, Figure9Cases) {
  bool desp = true;
  // (a) the lowest-numbered row that wants dimension 1 crosses, full or not.
  const uint32_t a[] = {0b001, 0b100, 0b010, 0b011};
  EXPECT_EQ(cm1_column_choice(a, 4, 7, 1, &desp), 2);
  EXPECT_FALSE(desp);
  EXPECT_EQ(cm1_column_choice(a, 4, 4, 1, &desp), 2);
  EXPECT_FALSE(desp);
  // (b) fewer than b messages and none wants: nobody crosses.
  EXPECT_EQ(cm1_column_choice(a, 4, 7, 3, &desp), -1);
  EXPECT_FALSE(desp);
  EXPECT_EQ(cm1_column_choice(a, 0, 7, 0, &desp), -1);
  // (c) all b rows full and none wants: the highest row is desperation-routed.
  EXPECT_EQ(cm1_column_choice(a, 4, 4, 3, &desp), 3);
  EXPECT_TRUE(desp);
}

// (a) Chip 0 holds [A (local), B (to chip 1), C (to chip 1)]: B, the lowest row wanting
// dimension 0, crosses; A and C are packed into rows 0 and 1; C crosses next petit cycle.
TEST(Cm1Model, Figure9aLowestWantingRowCrosses) {
  const Cm1Params p = small(2, 4, 3);
  Traffic t;
  t.messages = {msg(0, 1, 0xa), msg(1, 4, 0xb), msg(2, 5, 0xc)};
  Trace tr;
  const Cm1RunResult r = run_cm1_model(p, t, EjectMode::kOrCombine, tr.options());
  EXPECT_EQ(tr.at(0, Cm1Stage::kInjected, -1, 0), (Rows{{0, 0b00}, {1, 0b01}, {2, 0b01}}));
  EXPECT_EQ(tr.at(0, Cm1Stage::kColumn, 0, 0), (Rows{{0, 0b00}, {2, 0b01}}));
  EXPECT_EQ(tr.at(0, Cm1Stage::kColumn, 0, 1), (Rows{{1, 0b00}}));
  EXPECT_EQ(tr.at(0, Cm1Stage::kBuffered, -1, 0), (Rows{{2, 0b01}}));
  EXPECT_EQ(tr.at(1, Cm1Stage::kColumn, 0, 1), (Rows{{2, 0b00}}));
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.petit_cycles, 2u);
  EXPECT_EQ(r.desperation, 0u);
  EXPECT_EQ(r.crossings, 2u);
  EXPECT_EQ(r.chips[0].dim_busy[0], 2u * static_cast<uint64_t>(p.msg_len()));
  EXPECT_EQ(r.chips[0].dim_busy[1], 0u);
  ASSERT_EQ(r.deliveries.size(), 3u);
  // Ordered by (petit, chip, row): A (petit 0, chip 0), B (petit 0, chip 1), C (petit 1).
  EXPECT_EQ(r.deliveries[0].msg, 0u);
  EXPECT_EQ(r.deliveries[1].msg, 1u);
  EXPECT_EQ(r.deliveries[2].msg, 2u);
  EXPECT_EQ(r.deliveries[0].petit, 0u);
  EXPECT_EQ(r.deliveries[1].petit, 0u);
  EXPECT_EQ(r.deliveries[2].petit, 1u);
  EXPECT_EQ(r.bit_times, static_cast<uint64_t>(p.delivery_bit_times(2)));
}

// (b) Chip 0 holds two messages for chip 2 (b = 3): in column 0 nobody wants and the rows are
// not full, so nothing leaves chip 0; the message arriving from chip 1 is appended after them.
TEST(Cm1Model, Figure9bNobodyWantsNotFull) {
  const Cm1Params p = small(2, 4, 3);
  Traffic t;
  t.messages = {msg(0, 8, 1), msg(1, 9, 2), msg(4, 2, 4)};
  Trace tr;
  const Cm1RunResult r = run_cm1_model(p, t, EjectMode::kOrCombine, tr.options());
  EXPECT_EQ(tr.at(0, Cm1Stage::kInjected, -1, 0), (Rows{{0, 0b10}, {1, 0b10}}));
  EXPECT_EQ(tr.at(0, Cm1Stage::kColumn, 0, 0), (Rows{{0, 0b10}, {1, 0b10}, {2, 0b00}}));
  EXPECT_EQ(tr.at(0, Cm1Stage::kColumn, 0, 1), Rows{});
  // Column 1: the lowest wanting row (message 0) crosses; the rest are packed.
  EXPECT_EQ(tr.at(0, Cm1Stage::kColumn, 1, 0), (Rows{{1, 0b10}, {2, 0b00}}));
  EXPECT_EQ(tr.at(0, Cm1Stage::kBuffered, -1, 0), (Rows{{1, 0b10}}));
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.petit_cycles, 2u);
  EXPECT_EQ(r.desperation, 0u);
  EXPECT_EQ(r.chips[0].dim_busy[0], 0u);  // chip 0 never sent on dimension 0
  EXPECT_EQ(r.chips[0].dim_busy[1], 2u * static_cast<uint64_t>(p.msg_len()));
  EXPECT_EQ(find_delivery(r, 1)->petit, 1u);
}

// (c) Chip 0 holds b = 2 messages for chip 2; nobody wants dimension 0 and the rows are full,
// so the highest row (message 1) is desperation-routed to chip 1, and still arrives later.
TEST(Cm1Model, Figure9cDesperation) {
  const Cm1Params p = small(2, 4, 2);
  Traffic t;
  t.messages = {msg(0, 8, 0x11), msg(1, 9, 0x22)};
  Trace tr;
  const Cm1RunResult r = run_cm1_model(p, t, EjectMode::kOrCombine, tr.options());
  EXPECT_EQ(tr.at(0, Cm1Stage::kInjected, -1, 0), (Rows{{0, 0b10}, {1, 0b10}}));
  EXPECT_EQ(tr.at(0, Cm1Stage::kColumn, 0, 0), (Rows{{0, 0b10}}));
  EXPECT_EQ(tr.at(0, Cm1Stage::kColumn, 0, 1), (Rows{{1, 0b11}}));  // moved away
  EXPECT_EQ(tr.at(0, Cm1Stage::kColumn, 1, 2), (Rows{{0, 0b00}}));
  EXPECT_EQ(tr.at(0, Cm1Stage::kColumn, 1, 3), (Rows{{1, 0b01}}));
  EXPECT_EQ(tr.at(0, Cm1Stage::kBuffered, -1, 3), (Rows{{1, 0b01}}));
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.desperation, 1u);
  EXPECT_EQ(r.chips[0].desperation, 1u);
  EXPECT_EQ(r.chips[1].desperation, 0u);
  EXPECT_EQ(r.crossings, 4u);  // 0: one hop; 1: three hops (one of them away)
  EXPECT_EQ(r.petit_cycles, 2u);
  ASSERT_EQ(r.deliveries.size(), 2u);
  EXPECT_EQ(r.deliveries[0].msg, 0u);
  EXPECT_EQ(r.deliveries[0].petit, 0u);
  EXPECT_EQ(r.deliveries[1].msg, 1u);
  EXPECT_EQ(r.deliveries[1].petit, 1u);
  EXPECT_EQ(r.deliveries[1].rx_data, 0x22u);
  EXPECT_EQ(r.chips[2].delivered, 2u);
}

// ---------------------------------------------------------------------------------------------
// Injection, ejection and combining.

TEST(Cm1Model, InjectorTakesBufferedFirstThenProcessorsInOrder) {
  // Chip 0 (P = 4, b = 2): processor 0 sends two messages, processors 1..3 one each, all to
  // chip 1. Petit 0 injects p0's first and p1's; each petit one crosses dimension 0, one stays.
  const Cm1Params p = small(1, 4, 2);
  Traffic t;
  t.messages = {msg(0, 4), msg(0, 5), msg(1, 6), msg(2, 7), msg(3, 4)};
  Trace tr;
  const Cm1RunResult r = run_cm1_model(p, t, EjectMode::kOrCombine, tr.options());
  EXPECT_EQ(tr.at(0, Cm1Stage::kInjected, -1, 0), (Rows{{0, 1}, {2, 1}}));
  EXPECT_EQ(tr.at(1, Cm1Stage::kInjected, -1, 0), (Rows{{2, 1}, {1, 1}}));  // buffered first
  EXPECT_EQ(tr.at(2, Cm1Stage::kInjected, -1, 0), (Rows{{1, 1}, {3, 1}}));
  EXPECT_EQ(tr.at(3, Cm1Stage::kInjected, -1, 0), (Rows{{3, 1}, {4, 1}}));
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.petit_cycles, 5u);
  EXPECT_EQ(r.chips[0].injected, 5u);
  EXPECT_EQ(r.chips[1].delivered, 5u);
  std::vector<size_t> order;
  for (const Cm1Delivery& d : r.deliveries) order.push_back(d.msg);
  EXPECT_EQ(order, (std::vector<size_t>{0, 2, 1, 3, 4}));
}

TEST(Cm1Model, OrCombiningAndOneMessageMode) {
  // Three local messages on chip 0: two to processor 1, one to processor 2 (b = 4, so the
  // heart is never full and nothing is desperation-routed).
  const Cm1Params p = small(1, 4, 4);
  Traffic t;
  t.messages = {msg(0, 1, 0x01, 1), msg(2, 1, 0x10, 2), msg(3, 2, 0x100, 0)};
  const Cm1RunResult r = run_cm1_model(p, t, EjectMode::kOrCombine);
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.petit_cycles, 1u);
  ASSERT_EQ(r.deliveries.size(), 3u);
  for (int k : {0, 1}) {
    EXPECT_EQ(r.deliveries[k].rx_data, 0x11u);
    EXPECT_EQ(r.deliveries[k].rx_vp, 3u);
    EXPECT_EQ(r.deliveries[k].combined, 2);
  }
  EXPECT_EQ(r.deliveries[2].rx_data, 0x100u);
  EXPECT_EQ(r.deliveries[2].combined, 1);
  EXPECT_EQ(r.chips[0].delivered, 3u);

  // One message per chip per petit cycle: the lowest row first.
  const Cm1RunResult one = run_cm1_model(p, t, EjectMode::kOnePerPetit);
  ASSERT_TRUE(one.completed);
  ASSERT_EQ(one.deliveries.size(), 3u);
  EXPECT_EQ(one.petit_cycles, 3u);
  for (size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(one.deliveries[k].msg, k);
    EXPECT_EQ(one.deliveries[k].petit, k);
  }
  std::set<size_t> seen;
  for (const Cm1Delivery& d : one.deliveries) {
    EXPECT_EQ(d.combined, 1);
    EXPECT_EQ(d.rx_data, t.messages[d.msg].data);
    EXPECT_EQ(d.rx_vp, t.messages[d.msg].vp);
    seen.insert(d.msg);
  }
  EXPECT_EQ(seen.size(), 3u);
}

TEST(Cm1Model, EmptyTraffic) {
  const Cm1Params p = small(3, 2, 4);
  const Cm1RunResult r = run_cm1_model(p, Traffic{}, EjectMode::kOrCombine);
  EXPECT_TRUE(r.completed);
  EXPECT_EQ(r.petit_cycles, 0u);
  EXPECT_TRUE(r.deliveries.empty());
  ASSERT_EQ(r.chips.size(), 8u);
  EXPECT_EQ(r.chips[0].dim_busy.size(), 3u);
  EXPECT_EQ(r.bit_times, static_cast<uint64_t>(p.delivery_bit_times(0)));
}

TEST(Cm1Model, MaxPetitStopsIncomplete) {
  const Cm1Params p = small(1, 4, 2);
  Traffic t;
  t.messages = {msg(0, 4), msg(0, 5), msg(1, 6), msg(2, 7), msg(3, 4)};
  Cm1ModelOptions o;
  o.max_petit = 2;
  const Cm1RunResult r = run_cm1_model(p, t, EjectMode::kOrCombine, o);
  EXPECT_FALSE(r.completed);
  EXPECT_EQ(r.petit_cycles, 2u);
  EXPECT_EQ(r.deliveries.size(), 2u);
}

TEST(Cm1Model, RejectsTrafficThatDoesNotFit) {
  const Cm1Params p = small(2, 4, 3);  // 16 processors, 16 data bits, 2 VP bits
  Traffic t;
  t.messages = {msg(0, 16)};
  EXPECT_THROW(run_cm1_model(p, t, EjectMode::kOrCombine), InputError);
  t.messages = {msg(0, 1, 0x10000)};
  EXPECT_THROW(run_cm1_model(p, t, EjectMode::kOrCombine), InputError);
  t.messages = {msg(0, 1, 0, 4)};
  EXPECT_THROW(run_cm1_model(p, t, EjectMode::kOrCombine), InputError);
  Cm1Params bad = p;
  bad.cube_dims = 0;
  EXPECT_THROW(run_cm1_model(bad, Traffic{}, EjectMode::kOrCombine), ConfigError);
}

// ---------------------------------------------------------------------------------------------
// Single messages: any source to any destination takes one petit cycle.

TEST(Cm1Model, SingleMessageEveryPairOnePetit) {
  for (int b : {2, 7}) {
    for (int P : {2, 4}) {
      const Cm1Params p = small(4, P, b);
      const uint32_t n = static_cast<uint32_t>(p.processors());
      for (uint32_t s = 0; s < n; ++s) {
        for (uint32_t d = 0; d < n; ++d) {
          Traffic t;
          t.messages = {msg(s, d, (s * 131 + d) & 0xffff, d & 3)};
          for (EjectMode mode : {EjectMode::kOrCombine, EjectMode::kOnePerPetit}) {
            const Cm1RunResult r = run_cm1_model(p, t, mode);
            ASSERT_TRUE(r.completed);
            ASSERT_EQ(r.petit_cycles, 1u) << "src " << s << " dst " << d << " b " << b << " P " << P;
            ASSERT_EQ(r.deliveries.size(), 1u);
            EXPECT_EQ(r.deliveries[0].petit, 0u);
            EXPECT_EQ(r.deliveries[0].rx_data, t.messages[0].data);
            EXPECT_EQ(r.deliveries[0].rx_vp, t.messages[0].vp);
            EXPECT_EQ(r.deliveries[0].combined, 1);
            EXPECT_EQ(r.desperation, 0u);
            EXPECT_EQ(r.crossings, static_cast<uint64_t>(std::popcount((s / P) ^ (d / P))));
            EXPECT_EQ(r.chips[d / P].delivered, 1u);
            EXPECT_EQ(r.chips[s / P].injected, 1u);
          }
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Exactly-once delivery under load.

void check_run(const Cm1Params& p, const Traffic& t, const Cm1RunResult& r, EjectMode mode,
               const std::string& what) {
  SCOPED_TRACE(what + " mode " + to_string(mode));
  ASSERT_TRUE(r.completed);
  ASSERT_EQ(r.deliveries.size(), t.messages.size());
  std::vector<int> seen(t.messages.size(), 0);
  uint64_t injected = 0, delivered = 0, desperation = 0, busy = 0;
  for (const Cm1ChipCounters& k : r.chips) {
    injected += k.injected;
    delivered += k.delivered;
    desperation += k.desperation;
    EXPECT_EQ(k.petit_cycles, r.petit_cycles);
    EXPECT_EQ(k.parity_errors, 0u);
    ASSERT_EQ(k.dim_busy.size(), static_cast<size_t>(p.cube_dims));
    for (uint64_t x : k.dim_busy) busy += x;
  }
  EXPECT_EQ(injected, t.messages.size());
  EXPECT_EQ(delivered, t.messages.size());
  EXPECT_EQ(desperation, r.desperation);
  EXPECT_EQ(busy, r.crossings * static_cast<uint64_t>(p.msg_len()));
  EXPECT_EQ(r.bit_times, static_cast<uint64_t>(p.delivery_bit_times(static_cast<int64_t>(r.petit_cycles))));

  // Group the deliveries by (petit, destination processor) to check combining.
  std::map<std::pair<uint64_t, uint32_t>, std::vector<size_t>> groups;
  uint64_t last_petit = 0;
  uint32_t last_chip = 0;
  uint64_t min_hops = 0;
  for (const Cm1Delivery& d : r.deliveries) {
    ASSERT_LT(d.msg, t.messages.size());
    ++seen[d.msg];
    const Message& m = t.messages[d.msg];
    const uint32_t chip = m.dst / static_cast<uint32_t>(p.procs_per_chip);
    // Ordered by (petit, chip, row).
    ASSERT_TRUE(d.petit > last_petit || (d.petit == last_petit && chip >= last_chip));
    last_petit = d.petit;
    last_chip = chip;
    EXPECT_LT(d.petit, r.petit_cycles);
    groups[{d.petit, m.dst}].push_back(d.msg);
    min_hops += static_cast<uint64_t>(
        std::popcount((m.src ^ m.dst) / static_cast<uint32_t>(p.procs_per_chip)));
  }
  EXPECT_GE(r.crossings, min_hops);
  EXPECT_EQ(r.petit_cycles, r.deliveries.back().petit + 1);
  for (size_t i = 0; i < seen.size(); ++i) ASSERT_EQ(seen[i], 1) << "message " << i;

  std::map<std::pair<uint64_t, uint32_t>, int> per_chip;  // (petit, chip) -> deliveries
  for (const Cm1Delivery& d : r.deliveries) {
    const Message& m = t.messages[d.msg];
    const auto& g = groups[{d.petit, m.dst}];
    if (mode == EjectMode::kOrCombine) {
      uint64_t data = 0;
      uint32_t vp = 0;
      for (size_t k : g) {
        data |= t.messages[k].data;
        vp |= t.messages[k].vp;
      }
      EXPECT_EQ(d.rx_data, data);
      EXPECT_EQ(d.rx_vp, vp);
      EXPECT_EQ(d.combined, static_cast<int>(g.size()));
    } else {
      EXPECT_EQ(d.rx_data, m.data);
      EXPECT_EQ(d.rx_vp, m.vp);
      EXPECT_EQ(d.combined, 1);
      ++per_chip[{d.petit, m.dst / static_cast<uint32_t>(p.procs_per_chip)}];
    }
  }
  for (const auto& [key, count] : per_chip) EXPECT_EQ(count, 1) << "petit " << key.first << " chip " << key.second;
}

TEST(Cm1Model, EveryMessageDeliveredExactlyOnce) {
  for (const char* pattern : {"permutation", "many-to-one", "hot-spot"}) {
    for (int c : {4, 6, 8}) {
      for (int per_proc : {1, 3}) {
        Cm1Params p = small(c, 16, 7);
        p.vp_bits = 2;
        p.data_bits = 32;
        const Traffic t = make_pattern(pattern, p, 1000 + static_cast<uint64_t>(c), per_proc);
        const std::string what = std::string(pattern) + " c=" + std::to_string(c) + " per_proc=" +
                                 std::to_string(per_proc);
        const Cm1RunResult orr = run_cm1_model(p, t, EjectMode::kOrCombine);
        check_run(p, t, orr, EjectMode::kOrCombine, what);
        const Cm1RunResult one = run_cm1_model(p, t, EjectMode::kOnePerPetit);
        check_run(p, t, one, EjectMode::kOnePerPetit, what);
        EXPECT_GE(one.petit_cycles, orr.petit_cycles) << what;
      }
    }
  }
}

TEST(Cm1Model, FixedPatternsComplete) {
  for (const char* pattern : {"bit-complement", "transpose", "identity"}) {
    for (int c : {3, 4, 5}) {
      for (int P : {1, 2, 16}) {
        const Cm1Params p = small(c, P, 7);
        const Traffic t = make_pattern(pattern, p, 5, 2);
        const std::string what = std::string(pattern) + " c=" + std::to_string(c) + " P=" + std::to_string(P);
        for (EjectMode mode : {EjectMode::kOrCombine, EjectMode::kOnePerPetit}) {
          const Cm1RunResult r = run_cm1_model(p, t, mode);
          check_run(p, t, r, mode, what);
        }
      }
    }
  }
}

TEST(Cm1Model, Deterministic) {
  const Cm1Params p = small(6, 8, 5);
  const Traffic t = make_pattern("many-to-one", p, 77, 2);
  const Cm1RunResult a = run_cm1_model(p, t, EjectMode::kOrCombine);
  const Cm1RunResult b = run_cm1_model(p, t, EjectMode::kOrCombine);
  ASSERT_EQ(a.deliveries.size(), b.deliveries.size());
  for (size_t i = 0; i < a.deliveries.size(); ++i) {
    EXPECT_EQ(a.deliveries[i].msg, b.deliveries[i].msg);
    EXPECT_EQ(a.deliveries[i].petit, b.deliveries[i].petit);
  }
  EXPECT_EQ(a.petit_cycles, b.petit_cycles);
  EXPECT_EQ(a.crossings, b.crossings);
  EXPECT_EQ(a.desperation, b.desperation);
}

// ---------------------------------------------------------------------------------------------
// A second, deliberately plain implementation of the rules (vectors of rows, one step at a
// time), compared delivery by delivery with the optimized model.

struct NaiveRow {
  size_t msg;
  uint32_t addr;
};

Cm1RunResult naive_model(const Cm1Params& p, const Traffic& t, EjectMode mode, uint64_t max_petit) {
  const int c = p.cube_dims, b = p.rows;
  const uint32_t P = static_cast<uint32_t>(p.procs_per_chip);
  const uint32_t chips = static_cast<uint32_t>(p.chips());
  std::vector<std::vector<size_t>> queue(static_cast<size_t>(p.processors()));
  for (size_t i = 0; i < t.messages.size(); ++i) queue[t.messages[i].src].push_back(i);
  std::vector<size_t> next(queue.size(), 0);
  std::vector<std::vector<NaiveRow>> heart(chips);
  Cm1RunResult r;
  r.chips.resize(chips);
  for (auto& k : r.chips) k.dim_busy.assign(static_cast<size_t>(c), 0);
  size_t delivered = 0;
  uint64_t petit = 0;
  while (delivered < t.messages.size() && petit < max_petit) {
    for (uint32_t x = 0; x < chips; ++x) {
      for (uint32_t lp = 0; lp < P; ++lp) {
        const uint32_t g = x * P + lp;
        if (heart[x].size() == static_cast<size_t>(b)) break;
        if (next[g] == queue[g].size()) continue;
        const size_t m = queue[g][next[g]++];
        heart[x].push_back({m, (t.messages[m].src / P) ^ (t.messages[m].dst / P)});
        ++r.chips[x].injected;
      }
    }
    for (int i = 0; i < c; ++i) {
      std::vector<std::optional<NaiveRow>> out(chips);
      for (uint32_t x = 0; x < chips; ++x) {
        auto& rows = heart[x];
        EXPECT_LE(rows.size(), static_cast<size_t>(b));
        auto it = std::find_if(rows.begin(), rows.end(), [&](const NaiveRow& row) { return (row.addr >> i) & 1; });
        if (it == rows.end() && rows.size() == static_cast<size_t>(b)) {
          it = rows.end() - 1;
          ++r.chips[x].desperation;
          ++r.desperation;
        }
        if (it == rows.end()) continue;
        out[x] = NaiveRow{it->msg, it->addr ^ (1u << i)};
        rows.erase(it);
        r.chips[x].dim_busy[static_cast<size_t>(i)] += static_cast<uint64_t>(p.msg_len());
        ++r.crossings;
      }
      for (uint32_t x = 0; x < chips; ++x) {
        if (out[x ^ (1u << i)]) heart[x].push_back(*out[x ^ (1u << i)]);
      }
    }
    for (uint32_t x = 0; x < chips; ++x) {
      std::vector<NaiveRow> kept, gone;
      for (const NaiveRow& row : heart[x]) {
        const bool eject = row.addr == 0 && (mode == EjectMode::kOrCombine || gone.empty());
        (eject ? gone : kept).push_back(row);
      }
      for (const NaiveRow& row : gone) {
        Cm1Delivery d;
        d.msg = row.msg;
        d.petit = petit;
        d.combined = 0;
        for (const NaiveRow& o : gone) {
          if (t.messages[o.msg].dst == t.messages[row.msg].dst) {
            d.rx_data |= t.messages[o.msg].data;
            d.rx_vp |= t.messages[o.msg].vp;
            ++d.combined;
          }
        }
        r.deliveries.push_back(d);
      }
      r.chips[x].delivered += gone.size();
      delivered += gone.size();
      heart[x] = kept;
    }
    ++petit;
  }
  r.petit_cycles = petit;
  r.completed = delivered == t.messages.size();
  for (auto& k : r.chips) k.petit_cycles = petit;
  return r;
}

TEST(Cm1Model, MatchesPlainImplementation) {
  struct Case {
    const char* pattern;
    int c, P, b, per_proc;
  };
  const Case cases[] = {
      {"permutation", 5, 16, 7, 2}, {"many-to-one", 4, 4, 2, 3},  {"hot-spot", 5, 8, 3, 2},
      {"permutation", 3, 64, 7, 1}, {"many-to-one", 6, 1, 2, 4},  {"transpose", 5, 2, 4, 2},
      {"hot-spot", 3, 16, 64, 2},   {"bit-complement", 4, 16, 5, 2}, {"identity", 2, 32, 7, 2},
  };
  for (const Case& k : cases) {
    for (EjectMode mode : {EjectMode::kOrCombine, EjectMode::kOnePerPetit}) {
      Cm1Params p = small(k.c, k.P, k.b);
      const Traffic t = make_pattern(k.pattern, p, 31 + static_cast<uint64_t>(k.c), k.per_proc);
      const std::string what = std::string(k.pattern) + " c=" + std::to_string(k.c) + " P=" + std::to_string(k.P) +
                               " b=" + std::to_string(k.b) + " mode " + to_string(mode);
      SCOPED_TRACE(what);
      const Cm1RunResult a = run_cm1_model(p, t, mode);
      const Cm1RunResult n = naive_model(p, t, mode, 100000);
      ASSERT_TRUE(a.completed);
      ASSERT_TRUE(n.completed);
      EXPECT_EQ(a.petit_cycles, n.petit_cycles);
      EXPECT_EQ(a.crossings, n.crossings);
      EXPECT_EQ(a.desperation, n.desperation);
      ASSERT_EQ(a.deliveries.size(), n.deliveries.size());
      for (size_t i = 0; i < a.deliveries.size(); ++i) {
        const Cm1Delivery& x = a.deliveries[i];
        const Cm1Delivery& y = n.deliveries[i];
        ASSERT_TRUE(x.msg == y.msg && x.petit == y.petit && x.rx_data == y.rx_data && x.rx_vp == y.rx_vp &&
                    x.combined == y.combined)
            << "delivery " << i << ": model msg " << x.msg << " petit " << x.petit << ", plain msg " << y.msg
            << " petit " << y.petit;
      }
      for (size_t x = 0; x < a.chips.size(); ++x) {
        EXPECT_EQ(a.chips[x].injected, n.chips[x].injected);
        EXPECT_EQ(a.chips[x].delivered, n.chips[x].delivered);
        EXPECT_EQ(a.chips[x].desperation, n.chips[x].desperation);
        EXPECT_EQ(a.chips[x].dim_busy, n.chips[x].dim_busy);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The full CM-1: 4096 chips x 16 processors, b = 7, one random permutation.

TEST(Cm1Model, FullCm1RandomPermutation) {
  Cm1Params p;
  p.cube_dims = 12;
  p.procs_per_chip = 16;
  p.rows = 7;
  p.vp_bits = 0;
  p.data_bits = 32;
  const Traffic t = make_pattern("permutation", p, 1989, 1);
  ASSERT_EQ(t.messages.size(), 65536u);
  const Cm1RunResult r = run_cm1_model(p, t, EjectMode::kOrCombine);
  check_run(p, t, r, EjectMode::kOrCombine, "full CM-1");
  // Section 4.1: more than 8v petit cycles with overwhelming probability.
  EXPECT_GE(r.petit_cycles, 9u);
  std::printf("[ info     ] full CM-1 random permutation: %llu petit cycles (lower bound 8), %llu crossings, "
              "%llu desperation, %llu bit-times\n",
              static_cast<unsigned long long>(r.petit_cycles), static_cast<unsigned long long>(r.crossings),
              static_cast<unsigned long long>(r.desperation), static_cast<unsigned long long>(r.bit_times));
}

}  // namespace
}  // namespace cmnet
