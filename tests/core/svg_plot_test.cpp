// The shared SVG writer: ticks, escaping, and that every chart names its title, axes, values,
// legend and (heat maps) colour scale.
#include "host/svg_plot.h"

#include <gtest/gtest.h>

namespace cmnet::plot {
namespace {

bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

TEST(SvgPlot, NiceTicks) {
  EXPECT_EQ(ticks(0, 1), (std::vector<double>{0, 0.2, 0.4, 0.6000000000000001, 0.8, 1}));
  const auto t = ticks(0, 137);
  EXPECT_EQ(t.front(), 0);
  EXPECT_GE(t.back(), 137 - 1e-9 - 50);
  for (size_t i = 1; i < t.size(); ++i) EXPECT_NEAR(t[i] - t[i - 1], 50, 1e-9);
  EXPECT_FALSE(ticks(5, 5).empty());  // a flat range still gets an axis
}

TEST(SvgPlot, EscapesText) { EXPECT_EQ(escape("a<b & 'c'"), "a&lt;b &amp; &apos;c&apos;"); }

TEST(SvgPlot, LineChartHasTitleAxesTicksAndLegend) {
  LineChart c;
  c.title = "net: throughput";
  c.x_label = "offered load (messages per processor)";
  c.y_label = "throughput (msgs/chip/petit)";
  c.series = {{"board", {{1, 0.5}, {2, 0.9}, {4, 1.2}}, ""}, {"bound", {{1, 1}, {4, 2}}, ""}};
  const std::string s = line_chart(c);
  EXPECT_EQ(s.rfind("<svg", 0), 0u);
  EXPECT_TRUE(has(s, "</svg>"));
  for (const char* w : {"net: throughput", "offered load (messages per processor)", "throughput (msgs/chip/petit)",
                        ">board<", ">bound<", ">0.5<", ">2<"})
    EXPECT_TRUE(has(s, w)) << w;
  EXPECT_EQ(line_chart(c), s);  // deterministic
}

TEST(SvgPlot, HeatMapHasAColourScale) {
  HeatMap h;
  h.title = "util";
  h.value_label = "busy fraction";
  h.row_labels = {"0", "1"};
  h.col_labels = {"d0", "d1"};
  h.values = {{0, 0.5}, {1, 0.25}};
  const std::string s = heat_map(h);
  for (const char* w : {"linearGradient", "busy fraction", ">d0<", ">d1<", "1, d0: 1", ">0.5<"}) EXPECT_TRUE(has(s, w)) << w;
}

TEST(SvgPlot, BarChartLabelsEveryBar) {
  BarChart b;
  b.title = "hist";
  b.x_label = "petit";
  b.y_label = "receptions";
  b.categories = {"0", "1", ">=15"};
  b.values = {3, 7, 1};
  b.value_format = "%.0f";
  const std::string s = bar_chart(b);
  for (const char* w : {">hist<", ">petit<", ">receptions<", "&gt;=15", ">7<"}) EXPECT_TRUE(has(s, w)) << w;
}

}  // namespace
}  // namespace cmnet::plot
