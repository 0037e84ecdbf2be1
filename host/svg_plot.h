// The one SVG writer for every plot cmnet draws (run reports, sweeps, benches, every family):
// titled, with axes that carry values and units, tick marks, legends, and a colour scale on
// heat maps, so a person can read a figure without the code that made it. Deterministic text.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cmnet::plot {

struct Series {
  std::string name;                               // the legend entry
  std::vector<std::pair<double, double>> points;  // (x, y), drawn in order
  std::string color;                              // "" = the palette's next colour
  std::string dash{};                             // stroke-dasharray, e.g. "6 4"; "" = solid
};

// Lines with markers over numeric x; several series share the axes (a second y axis is not
// drawn: plot different units in different charts). Series are drawn in order, so a dashed
// series after a solid one (a model over its board) stays visible where the two coincide. The
// legend sits right of the plot, or under it when its labels are long; the image is sized so it
// fits. An axis whose data are all whole numbers gets whole-number ticks.
struct LineChart {
  std::string title, x_label, y_label;  // labels carry their units, e.g. "latency (petit cycles)"
  std::vector<Series> series;
  std::optional<double> y_min, y_max;   // default: 0 (or the data's minimum if below) .. data max
};

// One bar per category.
struct BarChart {
  std::string title, x_label, y_label;
  std::vector<std::string> categories;
  std::vector<double> values;
  std::string value_format = "%.3g";  // the value printed above each bar
  std::string color = "steelblue";
};

// A grid of values with a colour scale from vmin (white) to vmax (dark blue).
struct HeatMap {
  std::string title, x_label, y_label, value_label;  // value_label names the colour scale
  std::vector<std::string> row_labels, col_labels;
  std::vector<std::vector<double>> values;  // [row][col]
  double vmin = 0, vmax = 1;
};

// How every sweep draws the reference model's curve over the board's.
inline constexpr const char* kModelColor = "#d62728";
inline constexpr const char* kModelDash = "6 4";

std::string line_chart(const LineChart& c);
std::string bar_chart(const BarChart& c);
std::string heat_map(const HeatMap& h);

// "Nice" tick values covering [lo, hi] (about `n` of them, 1, 2 or 5 times a power of ten apart;
// the last one at or above hi); `whole`: the data are whole numbers, so are the ticks (at least
// 1 apart).
std::vector<double> ticks(double lo, double hi, int n = 5, bool whole = false);
// The width of `s` in pixels at `font_px` (sans-serif), estimated on the wide side, for layout.
double text_width(const std::string& s, double font_px = 11);
// Text safe inside SVG (&, <, >, quotes escaped).
std::string escape(const std::string& s);

}  // namespace cmnet::plot
