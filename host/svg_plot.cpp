#include "host/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cmnet::plot {
namespace {

const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"};

std::string num(double v) {
  char b[32];
  if (v == 0) return "0";
  if (std::fabs(v) >= 1e5 || std::fabs(v) < 1e-3) std::snprintf(b, sizeof b, "%.3g", v);
  else std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string px(double v) { return fmt("%.1f", v); }

// Wide enough for the title (bold 14 px) as well as the plot.
int width_for(const std::string& title, double plot_right) {
  return static_cast<int>(std::ceil(std::max(plot_right, 70.0 + text_width(title, 14) + 10.0)));
}

std::string open_svg(int w, int h) {
  return "<svg xmlns='http://www.w3.org/2000/svg' width='" + std::to_string(w) + "' height='" + std::to_string(h) +
         "' viewBox='0 0 " + std::to_string(w) + " " + std::to_string(h) +
         "' font-family='sans-serif' font-size='11'>\n<rect width='100%' height='100%' fill='white'/>\n";
}

std::string text(double x, double y, const std::string& s, const std::string& extra = "") {
  return "<text x='" + px(x) + "' y='" + px(y) + "'" + (extra.empty() ? "" : " " + extra) + ">" + escape(s) + "</text>\n";
}

// Plot area of a chart: margins for the title, the axis labels and the tick values.
struct Frame {
  double x0 = 70, y0 = 40, w = 460, h = 260;
  double right() const { return x0 + w; }
  double bottom() const { return y0 + h; }
};

std::string axes(const Frame& f, const std::string& title, const std::string& xl, const std::string& yl) {
  std::string s = text(f.x0, 20, title, "font-size='14' font-weight='bold'");
  s += "<line x1='" + px(f.x0) + "' y1='" + px(f.bottom()) + "' x2='" + px(f.right()) + "' y2='" + px(f.bottom()) +
       "' stroke='black'/>\n";
  s += "<line x1='" + px(f.x0) + "' y1='" + px(f.y0) + "' x2='" + px(f.x0) + "' y2='" + px(f.bottom()) +
       "' stroke='black'/>\n";
  s += text(f.x0 + f.w / 2, f.bottom() + 38, xl, "text-anchor='middle'");
  s += text(16, f.y0 + f.h / 2, yl, "text-anchor='middle' transform='rotate(-90 16 " + px(f.y0 + f.h / 2) + ")'");
  return s;
}

// The legend's box: right of the plot, or under the x axis's label when the labels are too long
// to sit beside the plot without making the image twice as wide.
struct Box {
  double x = 0, y = 0, w = 0, h = 0;
  double right() const { return x + w; }
  double bottom() const { return y + h; }
};
constexpr double kLegendRow = 18, kLegendPad = 8, kLegendSample = 20;  // px
constexpr double kLegendBesideMax = 240;  // the widest legend kept right of the plot (px)

Box legend_box(const Frame& f, const std::vector<Series>& series) {
  if (series.empty()) return {f.right(), f.y0, 0, 0};
  double tw = 0;
  for (const Series& se : series) tw = std::max(tw, text_width(se.name));
  Box b;
  b.w = kLegendPad + kLegendSample + 5 + tw + kLegendPad;
  b.h = kLegendRow * static_cast<double>(series.size()) + kLegendPad;
  const bool beside = b.w <= kLegendBesideMax;
  b.x = beside ? f.right() + 15 : f.x0;
  b.y = beside ? f.y0 : f.bottom() + 50;
  return b;
}

std::string series_color(const Series& se, size_t i) { return se.color.empty() ? kPalette[i % 8] : se.color; }
std::string dash_attr(const Series& se) { return se.dash.empty() ? "" : " stroke-dasharray='" + se.dash + "'"; }

std::string legend(const Box& b, const std::vector<Series>& series) {
  if (series.empty()) return "";
  std::string s = "<rect class='legend' x='" + px(b.x) + "' y='" + px(b.y) + "' width='" + px(b.w) + "' height='" +
                  px(b.h) + "' fill='white' stroke='#ccc'/>\n";
  for (size_t i = 0; i < series.size(); ++i) {
    const double y = b.y + kLegendPad / 2 + kLegendRow * static_cast<double>(i) + kLegendRow / 2;
    s += "<line x1='" + px(b.x + kLegendPad) + "' y1='" + px(y) + "' x2='" + px(b.x + kLegendPad + kLegendSample) +
         "' y2='" + px(y) + "' stroke-width='2' stroke='" + series_color(series[i], i) + "'" + dash_attr(series[i]) +
         "/>\n";
    s += text(b.x + kLegendPad + kLegendSample + 5, y + 4, series[i].name);
  }
  return s;
}

bool whole_number(double v) { return std::fabs(v) < 1e15 && std::floor(v) == v; }

}  // namespace

double text_width(const std::string& s, double font_px) {
  // 0.62 em a character: DejaVu Sans (what most renderers fall back to for sans-serif) averages
  // about 0.55 em on this text, its bold about 0.6. UTF-8 continuation bytes do not count.
  size_t chars = 0;
  for (unsigned char c : s) chars += (c & 0xC0) != 0x80;
  return 0.62 * font_px * static_cast<double>(chars);
}

std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '\'': o += "&apos;"; break;
      case '"': o += "&quot;"; break;
      default: o += c;
    }
  }
  return o;
}

std::vector<double> ticks(double lo, double hi, int n, bool whole) {
  if (!(hi > lo)) hi = lo + 1;
  const double raw = (hi - lo) / std::max(1, n);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (raw <= m * mag) {
      step = m * mag;
      break;
    }
  if (whole) step = std::max(step, 1.0);  // no 1.5 between 1 and 2 messages
  // From the first tick at or above lo to the first at or above hi, so the axis covers the data.
  std::vector<double> t;
  for (double v = std::ceil(lo / step - 1e-9) * step;; v += step) {
    t.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
    if (v >= hi - step * 1e-9) break;
  }
  return t;
}

std::string line_chart(const LineChart& c) {
  const Frame f;
  double xlo = 0, xhi = 1, ylo = 0, yhi = 1;
  bool any = false, x_whole = true, y_whole = true;
  for (const auto& s : c.series)
    for (const auto& [x, y] : s.points) {
      if (!any) xlo = xhi = x, ylo = std::min(0.0, y), yhi = y;
      any = true;
      xlo = std::min(xlo, x), xhi = std::max(xhi, x), ylo = std::min(ylo, y), yhi = std::max(yhi, y);
      x_whole = x_whole && whole_number(x), y_whole = y_whole && whole_number(y);
    }
  if (c.y_min) ylo = *c.y_min;
  if (c.y_max) yhi = *c.y_max;
  if (xhi <= xlo) xhi = xlo + 1;
  if (yhi <= ylo) yhi = ylo + 1;
  const auto yt = ticks(ylo, yhi, 5, y_whole), xt = ticks(xlo, xhi, 6, x_whole);
  yhi = std::max(yhi, yt.back());
  auto X = [&](double x) { return f.x0 + (x - xlo) / (xhi - xlo) * f.w; };
  auto Y = [&](double y) { return f.bottom() - (y - ylo) / (yhi - ylo) * f.h; };
  const Box lb = legend_box(f, c.series);
  std::string s = open_svg(width_for(c.title, std::max(f.right() + 20, lb.right() + 10)),
                           static_cast<int>(std::ceil(std::max(f.bottom() + 50, lb.bottom() + 10))));
  for (double v : yt) {
    s += "<line x1='" + px(f.x0) + "' y1='" + px(Y(v)) + "' x2='" + px(f.right()) + "' y2='" + px(Y(v)) +
         "' stroke='#ddd'/>\n";
    s += text(f.x0 - 6, Y(v) + 4, num(v), "text-anchor='end'");
  }
  for (double v : xt) {
    if (v < xlo - 1e-9 || v > xhi + 1e-9) continue;
    s += "<line x1='" + px(X(v)) + "' y1='" + px(f.bottom()) + "' x2='" + px(X(v)) + "' y2='" + px(f.bottom() + 5) +
         "' stroke='black'/>\n";
    s += text(X(v), f.bottom() + 18, num(v), "text-anchor='middle'");
  }
  s += axes(f, c.title, c.x_label, c.y_label);
  for (size_t i = 0; i < c.series.size(); ++i) {
    const Series& se = c.series[i];
    const std::string col = series_color(se, i);
    std::string pts;
    for (const auto& [x, y] : se.points) pts += px(X(x)) + "," + px(Y(y)) + " ";
    s += "<polyline fill='none' stroke-width='2' stroke='" + col + "'" + dash_attr(se) + " points='" + pts + "'><title>" +
         escape(se.name) + "</title></polyline>\n";
    // A dashed series's markers are rings, so a solid series's dots show through where they meet.
    const std::string marker = se.dash.empty() ? "r='3' fill='" + col + "'" : "r='4.5' fill='none' stroke='" + col + "'";
    for (const auto& [x, y] : se.points)
      s += "<circle cx='" + px(X(x)) + "' cy='" + px(Y(y)) + "' " + marker + "><title>" + escape(se.name) + ": (" +
           num(x) + ", " + num(y) + ")</title></circle>\n";
  }
  s += legend(lb, c.series);
  return s + "</svg>\n";
}

std::string bar_chart(const BarChart& c) {
  Frame f;
  const size_t n = std::max<size_t>(1, c.categories.size());
  f.w = std::max(200.0, std::min(900.0, 40.0 * static_cast<double>(n)));
  double yhi = 0;
  for (double v : c.values) yhi = std::max(yhi, v);
  if (yhi <= 0) yhi = 1;
  const auto yt = ticks(0, yhi, 5, std::all_of(c.values.begin(), c.values.end(), whole_number));
  yhi = std::max(yhi, yt.back());
  auto Y = [&](double y) { return f.bottom() - y / yhi * f.h; };
  std::string s = open_svg(width_for(c.title, f.right() + 30), static_cast<int>(f.bottom() + 50));
  for (double v : yt) {
    s += "<line x1='" + px(f.x0) + "' y1='" + px(Y(v)) + "' x2='" + px(f.right()) + "' y2='" + px(Y(v)) +
         "' stroke='#ddd'/>\n";
    s += text(f.x0 - 6, Y(v) + 4, num(v), "text-anchor='end'");
  }
  const double slot = f.w / static_cast<double>(n);
  for (size_t i = 0; i < c.values.size(); ++i) {
    const double x = f.x0 + slot * static_cast<double>(i);
    const double v = c.values[i];
    const std::string cat = i < c.categories.size() ? c.categories[i] : std::to_string(i);
    s += "<rect x='" + px(x + slot * 0.15) + "' y='" + px(Y(v)) + "' width='" + px(slot * 0.7) + "' height='" +
         px(f.bottom() - Y(v)) + "' fill='" + c.color + "'><title>" + escape(cat) + ": " + num(v) +
         "</title></rect>\n";
    if (slot >= 24) s += text(x + slot / 2, Y(v) - 4, fmt(c.value_format.c_str(), v), "text-anchor='middle' font-size='9'");
    if (slot >= 14 || i % static_cast<size_t>(std::ceil(14 / slot)) == 0)
      s += text(x + slot / 2, f.bottom() + 16, cat, "text-anchor='middle'");
  }
  s += axes(f, c.title, c.x_label, c.y_label);
  return s + "</svg>\n";
}

std::string heat_map(const HeatMap& h) {
  const size_t rows = h.values.size(), cols = rows ? h.values[0].size() : 0;
  const double cw = std::clamp(480.0 / std::max<size_t>(1, cols), 6.0, 48.0);
  const double ch = std::clamp(480.0 / std::max<size_t>(1, rows), 3.0, 24.0);
  Frame f;
  f.w = cw * static_cast<double>(cols);
  f.h = ch * static_cast<double>(rows);
  const double scale_x = f.right() + 30;
  std::string s = open_svg(width_for(h.title, scale_x + 120), static_cast<int>(std::max(f.bottom() + 50, f.y0 + 230.0)));
  auto colour = [&](double v) {
    const double t = h.vmax > h.vmin ? std::clamp((v - h.vmin) / (h.vmax - h.vmin), 0.0, 1.0) : 0.0;
    // white -> dark blue
    const int r = static_cast<int>(255 - t * (255 - 8)), g = static_cast<int>(255 - t * (255 - 48)),
              b = static_cast<int>(255 - t * (255 - 107));
    char buf[32];
    std::snprintf(buf, sizeof buf, "rgb(%d,%d,%d)", r, g, b);
    return std::string(buf);
  };
  const size_t row_step = ch >= 10 ? 1 : static_cast<size_t>(std::ceil(10 / ch));
  const size_t col_step = cw >= 24 ? 1 : static_cast<size_t>(std::ceil(24 / cw));
  for (size_t r = 0; r < rows; ++r) {
    if (r % row_step == 0 && r < h.row_labels.size())
      s += text(f.x0 - 6, f.y0 + ch * (static_cast<double>(r) + 0.5) + 4, h.row_labels[r], "text-anchor='end'");
    for (size_t c = 0; c < cols; ++c) {
      const double v = h.values[r][c];
      const std::string rl = r < h.row_labels.size() ? h.row_labels[r] : std::to_string(r);
      const std::string cl = c < h.col_labels.size() ? h.col_labels[c] : std::to_string(c);
      s += "<rect x='" + px(f.x0 + cw * static_cast<double>(c)) + "' y='" + px(f.y0 + ch * static_cast<double>(r)) +
           "' width='" + px(cw - 1) + "' height='" + px(std::max(1.0, ch - 1)) + "' fill='" + colour(v) +
           "'><title>" + escape(rl + ", " + cl + ": " + num(v)) + "</title></rect>\n";
    }
  }
  for (size_t c = 0; c < cols; c += col_step)
    if (c < h.col_labels.size())
      s += text(f.x0 + cw * (static_cast<double>(c) + 0.5), f.bottom() + 16, h.col_labels[c], "text-anchor='middle'");
  s += axes(f, h.title, h.x_label, h.y_label);
  // The colour scale: a gradient bar with its values.
  s += "<defs><linearGradient id='scale' x1='0' y1='1' x2='0' y2='0'><stop offset='0' stop-color='" + colour(h.vmin) +
       "'/><stop offset='1' stop-color='" + colour(h.vmax) + "'/></linearGradient></defs>\n";
  s += "<rect x='" + px(scale_x) + "' y='" + px(f.y0) + "' width='16' height='180' fill='url(#scale)' stroke='black'/>\n";
  for (double v : ticks(h.vmin, h.vmax, 4)) {
    if (v < h.vmin - 1e-12 || v > h.vmax + 1e-12) continue;
    const double y = f.y0 + 180 - (v - h.vmin) / std::max(1e-300, h.vmax - h.vmin) * 180;
    s += "<line x1='" + px(scale_x + 16) + "' y1='" + px(y) + "' x2='" + px(scale_x + 20) + "' y2='" + px(y) +
         "' stroke='black'/>\n";
    s += text(scale_x + 23, y + 4, num(v));
  }
  s += text(scale_x, f.y0 + 198, h.value_label);
  return s + "</svg>\n";
}

}  // namespace cmnet::plot
