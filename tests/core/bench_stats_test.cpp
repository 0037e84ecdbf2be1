// The figures every bench reports (host/cli/bench_stats.h): the mean over seeds with its
// spread, the steady-window check, the Wilson bound; then each family's bench section in its
// --quick form writes figures that carry their seeds, mean, spread, window and load.
#include <algorithm>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "host/cli/bench_stats.h"
#include "host/cli/family.h"

namespace cmnet {
namespace {

namespace fs = std::filesystem;
using bench::Spread;

TEST(BenchStats, SpreadOfSeeds) {
  const Spread s = Spread::of({7, 8, 9}, {0.948, 0.957, 0.926});
  EXPECT_NEAR(s.mean, (0.948 + 0.957 + 0.926) / 3, 1e-12);
  EXPECT_DOUBLE_EQ(s.min, 0.926);
  EXPECT_DOUBLE_EQ(s.max, 0.957);
  EXPECT_NEAR(s.range(), 0.031, 1e-12);
  EXPECT_NEAR(s.stddev, 0.0159478, 1e-6);  // sample standard deviation (n - 1)
  EXPECT_EQ(s.str(), "0.944 [0.926, 0.957]");
  const auto j = s.to_json();
  EXPECT_EQ(j["seeds"].size(), 3u);
  EXPECT_NEAR(j["spread"].get<double>(), 0.031, 1e-12);
  EXPECT_THROW(Spread::of({1, 2}, {1.0}), std::invalid_argument);
  EXPECT_THROW(Spread::of({}, {}), std::invalid_argument);
  EXPECT_DOUBLE_EQ(Spread::of({1}, {2.5}).stddev, 0.0);
}

TEST(BenchStats, SteadyWhenTheLongerWindowStaysWithinTheSpread) {
  const Spread a = Spread::of({7, 8, 9}, {0.90, 0.92, 0.91});
  EXPECT_TRUE(bench::is_steady(a, Spread::of({7, 8, 9}, {0.905, 0.915, 0.91}), 0));
  // The case: 4,500 cycles against a long window.
  const Spread shortw = Spread::of({7, 8, 9}, {0.957, 0.948, 0.926});
  EXPECT_FALSE(bench::is_steady(shortw, Spread::of({7, 8, 9}, {0.89, 0.90, 0.91}), 0.01));
  // A short window's wide spread does not hide the drift (cm5data, 8 slots, 64 leaves, measured).
  EXPECT_FALSE(bench::is_steady(Spread::of({7, 8, 9}, {0.9566, 0.9483, 0.9262}),
                                Spread::of({7, 8, 9}, {0.9198, 0.9236, 0.9205}), 0.01));
  // Seeds that agree exactly have no spread: the relative tolerance decides.
  const Spread z = Spread::of({7, 8, 9}, {1.0, 1.0, 1.0});
  EXPECT_TRUE(bench::is_steady(z, Spread::of({7, 8, 9}, {1.005, 1.005, 1.005}), 0.01));
  EXPECT_FALSE(bench::is_steady(z, Spread::of({7, 8, 9}, {1.05, 1.05, 1.05}), 0.01));
}

TEST(BenchStats, MeasureSteadyDoublesTheWindowUntilTheMeanStopsMoving) {
  // A transient that decays as 1 / window plus a seed's offset: steady once 1000 / W is small.
  int calls = 0;
  auto f = [&](uint64_t seed, uint64_t w) {
    ++calls;
    return 1.0 - 1000.0 / static_cast<double>(w) + 1e-3 * static_cast<double>(seed);
  };
  bench::SteadyOptions o;
  o.window = 1000;
  o.max_doublings = 8;
  o.load = "1.25 of the bound";
  o.window_unit = "cycles";
  const bench::SteadyFigure r = bench::measure_steady(f, o);
  EXPECT_TRUE(r.steady);
  EXPECT_EQ(r.window, 2 * r.shorter_window);
  EXPECT_GT(r.window, 2000u);  // 1000 against 2000 moves the mean by 0.5: not steady
  EXPECT_EQ(calls, static_cast<int>(3 * (1 + std::log2(r.window / 1000.0))));
  EXPECT_LE(std::fabs(r.moved()), std::max(r.figure.range(), 0.01 * r.figure.mean));
  const auto j = r.to_json();
  for (const char* k : {"seeds", "values", "mean", "min", "max", "spread", "stddev", "load", "window", "window_unit",
                        "shorter_window", "shorter_mean", "moved", "steady"})
    EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_NE(r.str().find("steady"), std::string::npos);

  // A figure that keeps growing with the window is reported as not steady after the limit.
  o.max_doublings = 2;
  const bench::SteadyFigure g = bench::measure_steady([](uint64_t, uint64_t w) { return static_cast<double>(w); }, o);
  EXPECT_FALSE(g.steady);
  EXPECT_EQ(g.window, 4000u);
  EXPECT_EQ(g.shorter_window, 2000u);
  EXPECT_NE(g.str().find("NOT steady"), std::string::npos);

  o.seeds = {1, 2};
  EXPECT_THROW(bench::measure_steady(f, o), std::invalid_argument);
  o.seeds = {1, 2, 3};
  o.window = 0;
  EXPECT_THROW(bench::measure_steady(f, o), std::invalid_argument);
}

TEST(BenchStats, WilsonBound) {
  const auto [lo, hi] = bench::wilson95(0, 251595);
  EXPECT_DOUBLE_EQ(lo, 0.0);
  EXPECT_NEAR(hi, 1.53e-5, 0.01e-5);  // 1.96^2 / (n + 1.96^2)
  const auto [lo2, hi2] = bench::wilson95(50, 100);
  EXPECT_NEAR(lo2, 0.404, 0.001);
  EXPECT_NEAR(hi2, 0.596, 0.001);
  EXPECT_EQ(bench::wilson95(0, 0), std::make_pair(0.0, 1.0));
}

// Every object with "seeds" in a bench's JSON: a figure over at least three seeds with its mean
// and spread. Returns how many carry a window (with its unit, the load and the steady verdict).
int check_figures(const nlohmann::json& j, int& figures) {
  int windows = 0;
  if (j.is_object()) {
    if (j.contains("seeds") && j.contains("values")) {
      ++figures;
      EXPECT_GE(j["seeds"].size(), 3u) << j.dump();
      EXPECT_EQ(j["values"].size(), j["seeds"].size()) << j.dump();
      for (const char* k : {"mean", "min", "max", "spread", "stddev"}) EXPECT_TRUE(j.contains(k)) << k << " " << j.dump();
      if (j.contains("window")) {
        ++windows;
        for (const char* k : {"window_unit", "load", "steady", "shorter_window", "shorter_mean"})
          EXPECT_TRUE(j.contains(k)) << k << " " << j.dump();
        EXPECT_GT(j["window"].get<uint64_t>(), j["shorter_window"].get<uint64_t>());
      }
    }
    for (const auto& [k, v] : j.items()) windows += check_figures(v, figures);
  } else if (j.is_array()) {
    for (const auto& v : j) windows += check_figures(v, figures);
  }
  return windows;
}

struct Section {
  const char* family;
  const char* only;
  bool windows;  // its figures have a window (CM-1's delivery cycles run to the end: seeds only)
};

// Printed by name, so that the test's listed name carries no bytes of the struct (pointers).
void PrintTo(const Section& s, std::ostream* os) { *os << s.family << " " << s.only; }

class BenchFigures : public ::testing::TestWithParam<Section> {};

TEST_P(BenchFigures, QuickSectionWritesFiguresOverSeeds) {
  const Section s = GetParam();
  const fs::path dir = fs::temp_directory_path() / ("cmnet-bench-figures-" + std::string(s.family) + "-" + s.only);
  fs::remove_all(dir);
  fs::create_directories(dir);
  BenchArgs a;
  a.quick = true;
  a.only = s.only;
  a.json = (dir / "bench.json").string();
  const Family& f = find_family(s.family, "test");
  const auto sections = f.bench_sections();
  ASSERT_NE(std::find(sections.begin(), sections.end(), s.only), sections.end());
  ASSERT_EQ(f.bench(a), 0);
  std::ifstream in(a.json);
  const auto j = nlohmann::json::parse(in);
  int figures = 0;
  const int windows = check_figures(j, figures);
  EXPECT_GT(figures, 0);
  if (s.windows) EXPECT_EQ(windows, figures);
  else EXPECT_EQ(windows, 0);
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Families, BenchFigures,
                         ::testing::Values(Section{"cm5data", "saturation", true}, Section{"cm5data", "request-stage", true},
                                           Section{"clos", "blocking", true}, Section{"hcube", "ratios", true},
                                           Section{"cm1", "figure12", false}),
                         [](const auto& info) {
                           std::string n = std::string(info.param.family) + "_" + info.param.only;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

// cm5ctl and cm5 state no saturation, throughput or blocking figure that a seed could move (their
// READMEs say why): their benches have no figure section.
TEST(BenchFigures, FamiliesWithoutSuchFigures) {
  EXPECT_TRUE(find_family("cm5ctl", "test").bench_sections().empty());
  EXPECT_TRUE(find_family("cm5", "test").bench_sections().empty());
}

}  // namespace
}  // namespace cmnet
