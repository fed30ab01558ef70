#include "report/svg_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "core/units.hpp"

namespace fb {
namespace {

constexpr double kW = 640, kH = 320, kLeft = 64, kRight = 16, kTop = 36, kBottom = 48;
constexpr std::array<const char*, 8> kColors{"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                             "#ff7f0e", "#17becf", "#8c564b", "#e377c2"};

std::string x_tick(double x, bool log2) {
  if (!log2) return fmt::format("{:g}", x);
  return format_bytes(static_cast<std::uint64_t>(std::llround(x)));
}

// The data's extent and its mapping to SVG coordinates (x on a log2 scale when asked).
struct Scale {
  bool log2_x = false;
  double xmin = 1e300, xmax = -1e300, ymax = 0;

  double x(double v) const {
    const double a = log2_x ? std::log2(std::max(v, 1.0)) : v;
    const double lo = log2_x ? std::log2(std::max(xmin, 1.0)) : xmin;
    const double hi = log2_x ? std::log2(std::max(xmax, 1.0)) : xmax;
    return kLeft + (hi > lo ? (a - lo) / (hi - lo) : 0.5) * (kW - kLeft - kRight);
  }
  double y(double v) const { return kH - kBottom - v / ymax * (kH - kTop - kBottom); }
};

// nullopt when there is no point to draw; the y axis leaves 10% headroom over the highest
// point or the reference line.
std::optional<Scale> fit_scale(const ChartSpec& spec, const std::vector<Series>& series) {
  Scale sc;
  sc.log2_x = spec.log2_x;
  sc.ymax = spec.reference_y;
  for (const auto& s : series)
    for (const auto& [x, y] : s.points) {
      sc.xmin = std::min(sc.xmin, x);
      sc.xmax = std::max(sc.xmax, x);
      sc.ymax = std::max(sc.ymax, y);
    }
  if (sc.xmin > sc.xmax) return std::nullopt;
  sc.ymax = sc.ymax > 0 ? sc.ymax * 1.1 : 1;
  return sc;
}

std::string chart_open(const ChartSpec& spec) {
  return fmt::format(
      "<svg class=\"chart\" data-chart=\"{}\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
      "xmlns=\"http://www.w3.org/2000/svg\" font-family=\"sans-serif\" font-size=\"11\">\n"
      "<text x=\"{}\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{}</text>\n",
      escape_html(spec.id), kW, kH, kW, kH, kLeft, escape_html(spec.title));
}

// The two axes and five horizontal grid lines with their y values.
std::string axes_and_y_grid(const Scale& sc) {
  std::string svg = fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#333\"/>\n",
                                kLeft, kH - kBottom, kW - kRight);
  svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#333\"/>\n", kLeft, kTop,
                     kH - kBottom);
  for (int i = 0; i <= 4; ++i) {
    const double y = sc.ymax * i / 4;
    svg += fmt::format(
        "<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"#eee\"/><text x=\"{}\" y=\"{:.1f}\" "
        "text-anchor=\"end\">{:.0f}</text>\n",
        kLeft, sc.y(y), kW - kRight, sc.y(y), kLeft - 4, sc.y(y) + 4, y);
  }
  return svg;
}

// At most about eight labels along x, taken from the distinct x values of all series.
std::string x_ticks(const ChartSpec& spec, const std::vector<Series>& series, const Scale& sc) {
  std::vector<double> xs;
  for (const auto& s : series)
    for (const auto& p : s.points) xs.push_back(p.first);
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  const std::size_t step = std::max<std::size_t>(1, xs.size() / 8);
  std::string svg;
  for (std::size_t i = 0; i < xs.size(); i += step)
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", sc.x(xs[i]),
                       kH - kBottom + 16, escape_html(x_tick(xs[i], spec.log2_x)));
  return svg;
}

std::string axis_labels(const ChartSpec& spec) {
  std::string svg = fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                                (kLeft + kW - kRight) / 2, kH - 8, escape_html(spec.x_label));
  return svg +
         fmt::format(
             "<text x=\"14\" y=\"{}\" transform=\"rotate(-90 14 {})\" text-anchor=\"middle\">{}</text>\n",
             (kTop + kH - kBottom) / 2, (kTop + kH - kBottom) / 2, escape_html(spec.y_label));
}

// The dashed ceiling line with its label; nothing when the spec has none.
std::string reference_line(const ChartSpec& spec, const Scale& sc) {
  if (!(spec.reference_y > 0)) return "";  // NaN draws nothing, as before
  return fmt::format(
      "<line class=\"ceiling\" x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"#888\" "
      "stroke-dasharray=\"6 4\"/><text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\" fill=\"#666\">{}</text>\n",
      kLeft, sc.y(spec.reference_y), kW - kRight, sc.y(spec.reference_y), kW - kRight,
      sc.y(spec.reference_y) - 4, escape_html(spec.reference_label));
}

// Series k: its line, a dot per point, and its name in the legend (four names a row).
std::string series_trace(const Series& s, std::size_t k, const Scale& sc) {
  const char* color = kColors[k % kColors.size()];
  std::string d;
  for (const auto& [x, y] : s.points)
    d += fmt::format("{}{:.1f},{:.1f}", d.empty() ? "M" : " L", sc.x(x), sc.y(y));
  std::string svg = fmt::format(
      "<path class=\"series\" data-series=\"{}\" d=\"{}\" fill=\"none\" stroke=\"{}\" "
      "stroke-width=\"2\"/>\n",
      escape_html(s.name), d, color);
  for (const auto& [x, y] : s.points)
    svg +=
        fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\"/>\n", sc.x(x), sc.y(y), color);
  const std::size_t legend_row = k / 4;  // whole rows of four names
  return svg + fmt::format("<text x=\"{}\" y=\"{}\" fill=\"{}\">{}</text>\n",
                           kLeft + 8 + 120 * static_cast<double>(k % 4),
                           kTop + 12 + 14 * static_cast<double>(legend_row), color, escape_html(s.name));
}

}  // namespace

std::string escape_html(const std::string& text) {
  std::string out;
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

std::string line_chart(const ChartSpec& spec, const std::vector<Series>& series) {
  const auto scale = fit_scale(spec, series);
  if (!scale) return "";
  std::string svg = chart_open(spec) + axes_and_y_grid(*scale) + x_ticks(spec, series, *scale) +
                    axis_labels(spec) + reference_line(spec, *scale);
  for (std::size_t k = 0; k < series.size(); ++k) svg += series_trace(series[k], k, *scale);
  return svg + "</svg>\n";
}

std::string heatmap(const std::string& id, const std::string& title, const std::vector<std::string>& labels,
                    const std::vector<std::vector<double>>& values, const std::string& unit) {
  const double cell = 64;
  const double left = 70, top = 44;
  const double size = static_cast<double>(labels.size());
  double vmax = 0;
  for (const auto& row : values)
    for (double v : row) vmax = std::max(vmax, v);
  std::string svg = fmt::format(
      "<svg class=\"chart heatmap\" data-chart=\"{}\" width=\"{}\" height=\"{}\" "
      "xmlns=\"http://www.w3.org/2000/svg\" "
      "font-family=\"sans-serif\" font-size=\"11\">\n<text x=\"0\" y=\"18\" font-size=\"14\" "
      "font-weight=\"bold\">{}</text>\n",
      escape_html(id), left + cell * size + 10, top + cell * size + 10, escape_html(title));
  for (std::size_t i = 0; i < labels.size(); ++i) {
    svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n", left - 6,
                       top + cell * static_cast<double>(i) + cell / 2 + 4, escape_html(labels[i]));
    svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                       left + cell * static_cast<double>(i) + cell / 2, top - 6, escape_html(labels[i]));
    for (std::size_t j = 0; j < labels.size(); ++j) {
      const double v = values.at(i).at(j);
      const double t = vmax > 0 ? v / vmax : 0;
      const int shade = static_cast<int>(255 - 180 * t);
      svg += fmt::format(
          "<rect class=\"cell\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"rgb({},{},255)\" "
          "stroke=\"#fff\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
          left + cell * static_cast<double>(j), top + cell * static_cast<double>(i), cell, cell, shade, shade,
          left + cell * static_cast<double>(j) + cell / 2, top + cell * static_cast<double>(i) + cell / 2 + 4,
          v > 0 ? fmt::format("{:.0f}", v) : std::string("-"));
    }
  }
  return svg + fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n</svg>\n", left, top + cell * size + 8,
                           escape_html(unit));
}

}  // namespace fb
