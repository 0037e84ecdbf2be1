// The end-to-end check shared by every test that runs a pattern on a CM-1 board (simulated
// board over TCP, the FIFO-PHY board, the fake FT2232H over usb://, the flow's host top):
// everything the board reports must equal what the reference model implies, and agree with what
// the paper promises (the functional oracle, sim/cm1/oracle).
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "host/cm1/cm1_board.h"
#include "sim/cm1/cm1_model.h"
#include "sim/cm1/cm1_traffic.h"

namespace cmnet {

// Polls until the run is over (a test failure, not a hang, after `limit`).
inline Cm1BoardStatus wait_run_done(Cm1Board& b,
                                    std::chrono::seconds limit = std::chrono::seconds(60)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  Cm1BoardStatus s;
  do {
    s = b.status();
    if (std::chrono::steady_clock::now() > deadline) {
      ADD_FAILURE() << "the run did not finish within " << limit.count() << " s";
      break;
    }
  } while (s.running);
  return s;
}

// `t` has just run on `b` in `mode` and ended with status `s`: petit cycles, every chip's
// counters, every processor's reception check (count, XOR, petit sum, injections) and latency
// histogram, and the global histogram must agree with the model.
inline void expect_board_matches_model(Cm1Board& b, const Cm1Params& p, const Traffic& t,
                                       EjectMode mode, const Cm1BoardStatus& s,
                                       const std::string& what) {
  SCOPED_TRACE(what);
  const Cm1RunResult m = run_cm1_model(p, t, mode);
  ASSERT_TRUE(m.completed);
  EXPECT_EQ(s.petit, m.petit_cycles);
  EXPECT_FALSE(s.hist_overrun);
  const auto chips = b.counters();
  ASSERT_EQ(chips.size(), m.chips.size());
  for (size_t n = 0; n < chips.size(); ++n) {
    EXPECT_EQ(chips[n].injected, m.chips[n].injected) << "chip " << n;
    EXPECT_EQ(chips[n].delivered, m.chips[n].delivered) << "chip " << n;
    EXPECT_EQ(chips[n].desperation, m.chips[n].desperation) << "chip " << n;
    EXPECT_EQ(chips[n].petit_cycles, m.chips[n].petit_cycles) << "chip " << n;
    EXPECT_EQ(chips[n].dim_busy, m.chips[n].dim_busy) << "chip " << n;
    EXPECT_EQ(chips[n].parity_errors, 0u) << "chip " << n;
  }
  const auto rx = b.receptions();
  const auto want = expected_rx_checks(p, t, m);
  ASSERT_EQ(rx.size(), want.size());
  uint64_t received = 0;
  for (size_t g = 0; g < rx.size(); ++g) {
    EXPECT_EQ(rx[g], want[g]) << "processor " << g << ": count " << rx[g].count << " vs "
                              << want[g].count << ", injected " << rx[g].injected << " vs "
                              << want[g].injected;
    received += rx[g].count;
  }
  uint64_t hist = 0;
  for (uint32_t h : b.histogram()) hist += h;
  EXPECT_EQ(hist, received);
  const auto eh = b.endpoint_histograms();
  const auto want_eh = expected_endpoint_histograms(p, t, m);
  ASSERT_EQ(eh.size(), want_eh.size());
  for (size_t g = 0; g < eh.size(); ++g) EXPECT_EQ(eh[g], want_eh[g]) << "processor " << g;
  // The second view, which shares no code with the model (sim/cm1/oracle).
  std::string paper;
  for (const std::string& v : cm1_oracle_disagreements(p, t, mode, rx, s.petit)) paper += "  " + v + "\n";
  EXPECT_EQ(paper, "") << "the paper's view disagrees";
}

// Loads `t`, runs it and checks it.
inline void load_run_and_check(Cm1Board& b, const Cm1Params& p, const Traffic& t, EjectMode mode,
                               const std::string& what) {
  b.clear();
  b.load(t);
  b.start(mode);
  const Cm1BoardStatus s = wait_run_done(b);
  expect_board_matches_model(b, p, t, mode, s, what);
}

}  // namespace cmnet
