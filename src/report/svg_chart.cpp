#include "report/svg_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

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
  double xmin = 1e300, xmax = -1e300, ymax = spec.reference_y;
  for (const auto& s : series)
    for (const auto& [x, y] : s.points) {
      xmin = std::min(xmin, x);
      xmax = std::max(xmax, x);
      ymax = std::max(ymax, y);
    }
  if (xmin > xmax) return "";
  ymax = ymax > 0 ? ymax * 1.1 : 1;
  auto fx = [&](double x) {
    const double a = spec.log2_x ? std::log2(std::max(x, 1.0)) : x;
    const double lo = spec.log2_x ? std::log2(std::max(xmin, 1.0)) : xmin;
    const double hi = spec.log2_x ? std::log2(std::max(xmax, 1.0)) : xmax;
    return kLeft + (hi > lo ? (a - lo) / (hi - lo) : 0.5) * (kW - kLeft - kRight);
  };
  auto fy = [&](double y) { return kH - kBottom - y / ymax * (kH - kTop - kBottom); };
  std::string svg = fmt::format(
      "<svg class=\"chart\" data-chart=\"{}\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
      "xmlns=\"http://www.w3.org/2000/svg\" font-family=\"sans-serif\" font-size=\"11\">\n"
      "<text x=\"{}\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{}</text>\n",
      escape_html(spec.id), kW, kH, kW, kH, kLeft, escape_html(spec.title));
  // Axes, grid and ticks.
  svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#333\"/>\n", kLeft,
                     kH - kBottom, kW - kRight);
  svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#333\"/>\n", kLeft, kTop,
                     kH - kBottom);
  for (int i = 0; i <= 4; ++i) {
    const double y = ymax * i / 4;
    svg += fmt::format(
        "<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"#eee\"/><text x=\"{}\" y=\"{:.1f}\" "
        "text-anchor=\"end\">{:.0f}</text>\n",
        kLeft, fy(y), kW - kRight, fy(y), kLeft - 4, fy(y) + 4, y);
  }
  std::vector<double> xs;
  for (const auto& s : series)
    for (const auto& p : s.points) xs.push_back(p.first);
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  const std::size_t step = std::max<std::size_t>(1, xs.size() / 8);
  for (std::size_t i = 0; i < xs.size(); i += step)
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", fx(xs[i]),
                       kH - kBottom + 16, escape_html(x_tick(xs[i], spec.log2_x)));
  svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", (kLeft + kW - kRight) / 2,
                     kH - 8, escape_html(spec.x_label));
  svg += fmt::format(
      "<text x=\"14\" y=\"{}\" transform=\"rotate(-90 14 {})\" text-anchor=\"middle\">{}</text>\n",
      (kTop + kH - kBottom) / 2, (kTop + kH - kBottom) / 2, escape_html(spec.y_label));
  if (spec.reference_y > 0)
    svg += fmt::format(
        "<line class=\"ceiling\" x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"#888\" "
        "stroke-dasharray=\"6 4\"/><text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\" fill=\"#666\">{}</text>\n",
        kLeft, fy(spec.reference_y), kW - kRight, fy(spec.reference_y), kW - kRight, fy(spec.reference_y) - 4,
        escape_html(spec.reference_label));
  for (std::size_t k = 0; k < series.size(); ++k) {
    const auto& s = series[k];
    const char* color = kColors[k % kColors.size()];
    std::string d;
    for (const auto& [x, y] : s.points)
      d += fmt::format("{}{:.1f},{:.1f}", d.empty() ? "M" : " L", fx(x), fy(y));
    svg += fmt::format(
        "<path class=\"series\" data-series=\"{}\" d=\"{}\" fill=\"none\" stroke=\"{}\" "
        "stroke-width=\"2\"/>\n",
        escape_html(s.name), d, color);
    for (const auto& [x, y] : s.points)
      svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\"/>\n", fx(x), fy(y), color);
    svg += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"{}\">{}</text>\n",
                       kLeft + 8 + 120 * static_cast<double>(k % 4),
                       kTop + 12 + 14 * static_cast<double>(k / 4), color, escape_html(s.name));
  }
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
