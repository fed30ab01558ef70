#include "report/svg_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "core/units.hpp"

namespace fb {
namespace {

constexpr double kW = 900, kLeft = 72, kRight = 24, kTop = 40, kPlotH = 280, kAxisH = 46, kLegendRow = 18;
constexpr double kLegendEntry = 240;
constexpr std::array<const char*, 12> kColors{"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                              "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
                                              "#7f7f7f", "#bcbd22", "#393b79", "#637939"};

// The data's extent, widened to whole ticks, and its mapping to SVG coordinates.
struct Scale {
  bool log2_x = false;
  double x_lo = 0, x_hi = 1, y_hi = 1;
  std::vector<Tick> x_ticks, y_ticks;

  [[nodiscard]] double xv(double v) const { return log2_x ? std::log2(std::max(v, 1.0)) : v; }
  [[nodiscard]] double x(double v) const {
    const double lo = xv(x_lo), hi = xv(x_hi);
    return kLeft + (hi > lo ? (xv(v) - lo) / (hi - lo) : 0.5) * (kW - kLeft - kRight);
  }
  [[nodiscard]] double y(double v) const { return kTop + kPlotH - v / y_hi * kPlotH; }
};

std::optional<Scale> fit_scale(const ChartSpec& spec, const std::vector<Series>& series) {
  double xmin = 1e300, xmax = -1e300, ymax = 0;
  for (const auto& s : series)
    for (const auto& [x, y] : s.points) {
      if (!std::isfinite(x) || !std::isfinite(y)) continue;
      xmin = std::min(xmin, x);
      xmax = std::max(xmax, x);
      ymax = std::max(ymax, y);
    }
  if (xmin > xmax) return std::nullopt;
  for (const auto& l : spec.lines)
    if (std::isfinite(l.y)) ymax = std::max(ymax, l.y);
  for (const auto& s : series)
    for (const double e : s.expected)
      if (std::isfinite(e)) ymax = std::max(ymax, e);
  Scale sc;
  sc.log2_x = spec.log2_x;
  sc.y_ticks = nice_ticks(0, ymax > 0 ? ymax * 1.04 : 1, 5);
  sc.y_hi = sc.y_ticks.back().value;
  sc.x_ticks = spec.log2_x ? log2_size_ticks(xmin, xmax, 8) : nice_ticks(xmin, xmax, 6);
  sc.x_lo = sc.x_ticks.front().value;
  sc.x_hi = sc.x_ticks.back().value;
  return sc;
}

std::string x_text(double x, bool log2) {
  return log2 ? format_bytes(static_cast<std::uint64_t>(std::llround(x))) : fmt::format("{:g}", x);
}

std::string y_text(double y) {
  return std::fabs(y) >= 10 ? fmt::format("{:.1f}", y) : fmt::format("{:.3g}", y);
}

std::string axes_and_grid(const Scale& sc) {
  const double bottom = kTop + kPlotH;
  std::string svg = fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#333\"/>\n",
                                kLeft, bottom, kW - kRight);
  svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#333\"/>\n", kLeft, kTop,
                     bottom);
  for (const auto& t : sc.y_ticks)
    svg += fmt::format(
        "<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"#e6e6e6\"/><text class=\"ytick\" "
        "data-value=\"{}\" x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\" "
        "dominant-baseline=\"middle\">{}</text>\n",
        kLeft, sc.y(t.value), kW - kRight, sc.y(t.value), t.value, kLeft - 6, sc.y(t.value), t.label);
  for (const auto& t : sc.x_ticks)
    svg += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#333\"/><text class=\"xtick\" "
        "data-value=\"{3}\" x=\"{0:.1f}\" y=\"{4}\" text-anchor=\"middle\">{5}</text>\n",
        sc.x(t.value), bottom, bottom + 4, t.value, bottom + 18, escape_html(t.label));
  return svg;
}

std::string axis_labels(const ChartSpec& spec) {
  const double mid = kTop + kPlotH / 2;
  return fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", (kLeft + kW - kRight) / 2,
                     kTop + kPlotH + 38, escape_html(spec.x_label)) +
         fmt::format(
             "<text x=\"16\" y=\"{0}\" transform=\"rotate(-90 16 {0})\" text-anchor=\"middle\">{1}</text>\n",
             mid, escape_html(spec.y_label));
}

// Dashed lines with their labels at the right end; a label too close to the previous one goes
// to the left end so that the two never overlap.
std::string reference_lines(const ChartSpec& spec, const Scale& sc) {
  std::string svg;
  double last_label_y = -1e9;
  for (const auto& l : spec.lines) {
    if (!(l.y > 0) || !std::isfinite(l.y)) continue;
    const double y = sc.y(l.y);
    const bool left = std::fabs(y - last_label_y) < 16;
    svg += fmt::format(
        "<line class=\"{}\" data-value=\"{}\" x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" "
        "stroke=\"#777\" "
        "stroke-dasharray=\"6 4\"><title>{}</title></line><text x=\"{}\" y=\"{:.1f}\" text-anchor=\"{}\" "
        "fill=\"#555\">{}</text>\n",
        escape_html(l.css_class), l.y, kLeft, y, kW - kRight, y, escape_html(l.label),
        left ? kLeft + 6 : kW - kRight - 4, y - 5, left ? "start" : "end", escape_html(l.label));
    if (!left) last_label_y = y;
  }
  return svg;
}

std::string series_trace(const ChartSpec& spec, const Series& s, std::size_t k, const Scale& sc) {
  const char* color = series_color(s.color >= 0 ? s.color : static_cast<int>(k));
  std::string d;
  for (const auto& [x, y] : s.points)
    d += fmt::format("{}{:.1f},{:.1f}", d.empty() ? "M" : " L", sc.x(x), sc.y(y));
  std::string svg = fmt::format(
      "<path class=\"series\" data-series=\"{}\" d=\"{}\" fill=\"none\" stroke=\"{}\" "
      "stroke-width=\"2\"{}/>\n",
      escape_html(s.name), d, color, s.dashed ? " stroke-dasharray=\"5 4\"" : "");
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    const auto [x, y] = s.points[i];
    const bool marked = i < s.marked.size() && s.marked[i];
    svg += fmt::format(
        "<circle class=\"point{}\" data-series=\"{}\" data-x=\"{}\" data-y=\"{}\" cx=\"{:.1f}\" "
        "cy=\"{:.1f}\" "
        "r=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"2\"><title>{}: {} {} {}{}</title></circle>\n",
        marked ? " regression" : "", escape_html(s.name), x, y, sc.x(x), sc.y(y), marked ? 6 : 3,
        s.dashed ? "#fff" : color, marked ? "#c0392b" : color, escape_html(s.name),
        escape_html(x_text(x, spec.log2_x)), y_text(y), escape_html(spec.unit),
        marked ? " (regression)" : "");
  }
  return svg;
}

// Each point's expectation: a short bar across the point's x, in the series' colour.
std::string expected_marks(const ChartSpec& spec, const Series& s, std::size_t k, const Scale& sc) {
  const char* color = series_color(s.color >= 0 ? s.color : static_cast<int>(k));
  std::string svg;
  for (std::size_t i = 0; i < s.points.size() && i < s.expected.size(); ++i) {
    if (!(s.expected[i] > 0) || !std::isfinite(s.expected[i])) continue;
    const double x = sc.x(s.points[i].first), y = sc.y(s.expected[i]);
    svg += fmt::format(
        "<line class=\"expected\" data-series=\"{}\" data-x=\"{}\" data-value=\"{}\" x1=\"{:.1f}\" "
        "y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"4\" "
        "stroke-linecap=\"round\" opacity=\"0.8\"><title>{}: expected {} {} at {} ({})</title></line>\n",
        escape_html(s.name), s.points[i].first, s.expected[i], x - 9, y, x + 9, y, color, escape_html(s.name),
        y_text(s.expected[i]), escape_html(spec.unit), escape_html(x_text(s.points[i].first, spec.log2_x)),
        escape_html(i < s.expected_source.size() ? s.expected_source[i] : ""));
  }
  return svg;
}

int legend_columns() { return static_cast<int>((kW - kLeft) / kLegendEntry); }

std::string legend(const std::vector<Series>& series) {
  std::string svg;
  const int cols = legend_columns();
  for (std::size_t k = 0; k < series.size(); ++k) {
    const auto& s = series[k];
    const int column = static_cast<int>(k) % cols;
    const int row = static_cast<int>(k) / cols;  // whole rows: integer division meant
    const double x = kLeft + kLegendEntry * static_cast<double>(column);
    const double y = kTop + kPlotH + kAxisH + 10 + kLegendRow * static_cast<double>(row);
    const char* color = series_color(s.color >= 0 ? s.color : static_cast<int>(k));
    std::string name = s.name.size() > 32 ? s.name.substr(0, 31) + "…" : s.name;
    svg += fmt::format(
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"3\"{}/><text "
        "class=\"legend\" "
        "x=\"{}\" y=\"{}\">{}</text>\n",
        x, y - 4, x + 18, y - 4, color, s.dashed ? " stroke-dasharray=\"5 3\"" : "", x + 24, y,
        escape_html(name));
  }
  return svg;
}

// "0.250" -> "0.25", "1.0" -> "1": the step's decimals without trailing zeros.
std::string trimmed(double v, int decimals) {
  std::string s = fmt::format("{:.{}f}", v, decimals);
  if (s.find('.') == std::string::npos) return s;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

}  // namespace

const char* series_color(int k) { return kColors[static_cast<std::size_t>(std::abs(k)) % kColors.size()]; }

std::vector<Tick> nice_ticks(double lo, double hi, int target) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0, hi = 1;
  if (hi <= lo) hi = lo + (lo == 0 ? 1 : std::fabs(lo) * 0.1);
  const double raw = (hi - lo) / std::max(target, 1);
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  const double frac = raw / mag;
  const double step = (frac <= 1 ? 1 : frac <= 2 ? 2 : frac <= 5 ? 5 : 10) * mag;
  const int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9)));
  std::vector<Tick> out;
  const double first = std::floor(lo / step + 1e-9);
  for (double i = first;; ++i) {
    const double v = i * step;
    out.push_back({v, trimmed(std::fabs(v) < step / 2 ? 0.0 : v, decimals)});
    if (v >= hi - step * 1e-9 || out.size() > 100) break;
  }
  return out;
}

std::vector<Tick> log2_size_ticks(double lo, double hi, int max_ticks) {
  int a = static_cast<int>(std::floor(std::log2(std::max(lo, 1.0)) + 1e-9));
  int b = static_cast<int>(std::ceil(std::log2(std::max(hi, 1.0)) - 1e-9));
  if (b <= a) b = a + 1;
  const int step = std::max(1, (b - a + max_ticks - 1) / std::max(max_ticks - 1, 1));
  // The axis ends at the data's last power of two; the first tick steps back from there (never
  // further than one step below the data), so no empty span is drawn past the largest size.
  a = b - step * ((b - a + step - 1) / step);
  std::vector<Tick> out;
  for (int e = a; e <= b; e += step) {
    const double v = std::ldexp(1.0, e);
    out.push_back({v, format_bytes(static_cast<std::uint64_t>(v))});
  }
  return out;
}

std::string escape_html(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string unbroken_words(const std::string& text) {
  std::string out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto end = std::min(text.find(' ', start), text.size());
    const auto word = text.substr(start, end - start);
    if (word.find("://") !=
        std::string::npos)  // an address may break after a slash, else it widens its table
      for (const char c : escape_html(word)) out += c == '/' ? std::string("/<wbr>") : std::string(1, c);
    else if (end > start)
      out += "<span class=\"nw\">" + escape_html(word) + "</span>";
    if (end < text.size()) out += ' ';
    start = end + 1;
  }
  return out;
}

std::string line_chart(const ChartSpec& spec, const std::vector<Series>& series) {
  const auto scale = fit_scale(spec, series);
  if (!scale) return "";
  const int rows = (static_cast<int>(series.size()) + legend_columns() - 1) / legend_columns();
  const double height = kTop + kPlotH + kAxisH + 8 + kLegendRow * rows;
  std::string svg = fmt::format(
      "<svg class=\"chart\" data-chart=\"{}\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" "
      "xmlns=\"http://www.w3.org/2000/svg\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\">\n"
      "<title>{}</title><text class=\"title\" x=\"{}\" y=\"22\" font-size=\"15\" "
      "font-weight=\"bold\">{}</text>\n",
      escape_html(spec.id), kW, height, kW, height, escape_html(spec.title), kLeft, escape_html(spec.title));
  svg += axes_and_grid(*scale) + axis_labels(spec) + reference_lines(spec, *scale);
  for (std::size_t k = 0; k < series.size(); ++k)
    svg += expected_marks(spec, series[k], k, *scale) + series_trace(spec, series[k], k, *scale);
  return svg + legend(series) + "</svg>\n";
}

}  // namespace fb
