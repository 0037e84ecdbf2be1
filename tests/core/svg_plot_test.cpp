// The shared SVG writer: ticks (whole numbers for whole-number data), escaping, and that every
// chart names its title, axes, values, legend (inside the image, however long its labels) and
// (heat maps) colour scale; a sweep's model is a line series of its own.
#include "host/svg_plot.h"

#include <gtest/gtest.h>

#include <regex>

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

TEST(SvgPlot, WholeNumberDataGetWholeNumberTicks) {
  EXPECT_EQ(ticks(1, 4, 6), (std::vector<double>{1, 1.5, 2, 2.5, 3, 3.5, 4}));  // what a sweep of 1..4 had
  EXPECT_EQ(ticks(1, 4, 6, true), (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(ticks(0, 1, 5, true), (std::vector<double>{0, 1}));
  EXPECT_EQ(ticks(1, 32, 6, true), (std::vector<double>{10, 20, 30, 40}));  // the nice steps stay
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

namespace cmnet::plot {
namespace {

double attr(const std::string& tag, const std::string& name) {
  std::smatch m;
  if (!std::regex_search(tag, m, std::regex(" " + name + "='([-0-9.]+)'"))) return -1;
  return std::stod(m[1]);
}

// The x-axis tick labels of a line chart: the texts centred under the axis.
std::vector<std::string> x_tick_labels(const std::string& svg) {
  std::vector<std::string> v;
  const std::regex re("<text x='[0-9.]+' y='318.0' text-anchor='middle'>([^<]*)</text>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it)
    v.push_back((*it)[1]);
  return v;
}

// A sweep as the CM-1 and stream sweeps draw it: whole-number offered load, the board's curve
// with a long legend entry and the model's, dashed.
LineChart sweep(const std::string& board_label) {
  LineChart c;
  c.title = "cm1-board-c3: accepted throughput, permutation, ejector 'or'";
  c.x_label = "offered load (messages per processor)";
  c.y_label = "throughput (messages / chip / petit cycle)";
  c.series = {{board_label, {{1, 1.0}, {2, 1.6}, {3, 1.333}, {4, 1.6}}, ""},
              {"reference model", {{1, 1.0}, {2, 1.6}, {3, 1.333}, {4, 1.6}}, kModelColor, kModelDash}};
  return c;
}

TEST(SvgPlot, LegendFitsInsideTheImage) {
  for (const std::string& label : {std::string("board"), std::string("board (agrees with the model at every point: yes)"),
                                  std::string(150, 'w')}) {
    const std::string s = line_chart(sweep(label));
    std::smatch m;
    ASSERT_TRUE(std::regex_search(s, m, std::regex("viewBox='0 0 ([0-9]+) ([0-9]+)'")));
    const double w = std::stod(m[1]), h = std::stod(m[2]);
    ASSERT_TRUE(std::regex_search(s, m, std::regex("<rect class='legend'[^>]*>")));
    const std::string box = m[0];
    const double x = attr(box, "x"), y = attr(box, "y"), bw = attr(box, "width"), bh = attr(box, "height");
    EXPECT_GE(x, 0);
    EXPECT_GE(y, 0);
    EXPECT_LE(x + bw, w) << label.size() << " characters: " << box;
    EXPECT_LE(y + bh, h) << box;
    // The box holds the label at the widest estimate of its text.
    EXPECT_GE(bw, text_width(label) + 20) << box;
    EXPECT_TRUE(has(s, ">" + label + "<")) << label;
    // A long legend goes under the plot rather than doubling the image's width.
    if (label.size() > 40) EXPECT_GT(y, 300) << box;
    else EXPECT_LT(y, 300) << box;
  }
}

TEST(SvgPlot, WholeNumberOfferedLoadHasWholeNumberTicks) {
  const std::string s = line_chart(sweep("board"));
  EXPECT_EQ(x_tick_labels(s), (std::vector<std::string>{"1", "2", "3", "4"})) << s;
  LineChart frac = sweep("board");
  frac.series[0].points[1].first = 2.5;  // not whole numbers: finer ticks allowed
  EXPECT_EQ(x_tick_labels(line_chart(frac)).size(), 7u);
}

TEST(SvgPlot, TheModelIsALineOfItsOwn) {
  const std::string s = line_chart(sweep("board"));
  // Its own polyline, dashed, in its colour, named, and its own legend entry.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(s, m, std::regex("<polyline[^>]*stroke='#d62728' stroke-dasharray='6 4' points='([^']*)'><title>reference model</title>")))
      << s;
  EXPECT_EQ(std::count(m[1].first, m[1].second, ','), 4);  // its four points
  EXPECT_TRUE(std::regex_search(s, std::regex("<line[^>]*stroke='#d62728' stroke-dasharray='6 4'/>\\n<text[^>]*>reference model</text>")))
      << s;
  // Drawn after the board's, so it shows where the two coincide.
  EXPECT_LT(s.find("<title>board</title>"), s.find("<title>reference model</title>"));
}

}  // namespace
}  // namespace cmnet::plot
