// What the tests ask of an FST waveform (sim/core/harness_driver.h writes them): its time range,
// its signals and the time steps that hold value changes, read with the FST reader Verilator
// ships (GTKWave's fstapi), so a test asserts the waveform itself, not only that a file exists.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace cmnet::test {

struct FstSummary {
  uint64_t start = 0, end = 0;  // the first and last time stamps
  uint64_t vars = 0;            // signals
  uint64_t steps = 0;           // distinct time stamps holding a value change
};

// Throws std::runtime_error when `path` is not a readable FST file.
FstSummary read_fst(const std::string& path);

// A harness driver's waveform of clock cycles t0..t1 of its run and nothing else: cycle c is at
// times 2c (clock low) and 2c + 1 (clock high), so time stamps 2*t0 .. 2*t1 + 1, every one of
// them present (the clock changes at each).
::testing::AssertionResult fst_holds_cycles(const std::string& path, uint64_t t0, uint64_t t1);

// The same from cycle t0 to wherever the run ended (a window open at its end): returns the last
// cycle traced through `last` (when not null).
::testing::AssertionResult fst_holds_cycles_from(const std::string& path, uint64_t t0, uint64_t* last = nullptr);

}  // namespace cmnet::test
