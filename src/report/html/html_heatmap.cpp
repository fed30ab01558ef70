#include "report/html/html_heatmap.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/svg_chart.hpp"

namespace fb {
namespace {

constexpr double kLabelW = 58, kTop = 58, kScaleW = 110;

// White to blue: the better the pair, the darker its cell.
std::string cell_fill(double t) {
  const int r = static_cast<int>(std::lround(240 - 200 * t));
  const int g = static_cast<int>(std::lround(245 - 150 * t));
  return fmt::format("rgb({},{},255)", r, g);
}

std::string text_fill(double t) { return t > 0.6 ? "#fff" : "#111"; }

using Grid = std::vector<std::vector<double>>;

// The dense [row][column] grid of a drawable matrix; NaN where nothing was measured.
Grid dense(const PairMatrix& m) {
  const std::size_t n = m.gpus.size();
  Grid grid(n, std::vector<double>(n, std::nan("")));
  const auto pos = [&](int gpu) {
    return static_cast<std::size_t>(std::lower_bound(m.gpus.begin(), m.gpus.end(), gpu) - m.gpus.begin());
  };
  for (const auto& p : m.values) {
    const auto a = pos(p.src), b = pos(p.dst);
    if (a < n && b < n && std::isfinite(p.value)) grid[a][b] = p.value;
  }
  return grid;
}

// Below the reference by this share the colour is at its lightest.
constexpr double kScaleBelowReference = 0.8;

std::pair<double, double> value_range(const PairMatrix& m) {
  double lo = 1e300, hi = 0;
  for (const auto& p : m.values)
    if (std::isfinite(p.value)) lo = std::min(lo, p.value), hi = std::max(hi, p.value);
  if (lo > hi) return {0, 0};
  return {std::min(lo, hi), hi};
}

// The colour scale's ends: around the reference where there is one, else 0 to the highest value.
std::pair<double, double> scale_range(const PairMatrix& m) {
  const auto [lo, hi] = value_range(m);
  if (!(m.reference > 0)) return {0, hi};
  const double top = std::max(hi, m.reference);
  double bottom = std::min(lo, m.reference * kScaleBelowReference);
  if (bottom >= top) bottom = 0;
  return {bottom, top};
}

double cell_size(std::size_t n) {
  return n <= 8 ? 64 : n <= 16 ? 44 : std::max(18.0, 700.0 / static_cast<double>(n));
}

std::string cell(const PairMatrix& m, const Grid& grid, std::size_t i, std::size_t j, double size,
                 std::pair<double, double> range) {
  const double v = grid[i][j];
  const double x = kLabelW + size * static_cast<double>(j), y = kTop + size * static_cast<double>(i);
  const bool has = std::isfinite(v);
  const auto [bottom, top] = range;
  const double t = has && top > bottom ? std::clamp((v - bottom) / (top - bottom), 0.0, 1.0) : 0;
  const std::string label = has ? fmt::format("{:.0f}", v) : "-";
  std::string svg = fmt::format(
      "<rect class=\"cell\" data-src=\"{}\" data-dst=\"{}\" data-value=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" "
      "height=\"{}\" fill=\"{}\" stroke=\"#fff\"><title>GPU{} to GPU{}: {}</title></rect>\n",
      m.gpus[i], m.gpus[j], has ? fmt::format("{}", v) : "", x, y, size, size, has ? cell_fill(t) : "#f4f4f4",
      m.gpus[i], m.gpus[j], has ? fmt::format("{:.1f} {}", v, m.unit) : "not measured");
  // Cells too small for their number keep it in the hover title only.
  if (size >= 28 && static_cast<double>(label.size()) * 7.0 < size)
    svg += fmt::format(
        "<text class=\"cellvalue\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" dominant-baseline=\"middle\" "
        "fill=\"{}\">{}</text>\n",
        x + size / 2, y + size / 2, has ? text_fill(t) : "#888", label);
  return svg;
}

std::string colour_scale(const PairMatrix& m, double x, std::pair<double, double> range) {
  const auto [lo, hi] = range;
  const std::string& unit = m.unit;
  std::string svg = fmt::format(
      "<defs><linearGradient id=\"heatscale\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\"><stop offset=\"0\" "
      "stop-color=\"{}\"/><stop offset=\"1\" stop-color=\"{}\"/></linearGradient></defs>\n<rect "
      "class=\"colourscale\" x=\"{}\" y=\"{}\" width=\"16\" height=\"160\" fill=\"url(#heatscale)\" "
      "stroke=\"#999\"/>\n",
      cell_fill(0), cell_fill(1), x, kTop);
  svg += fmt::format("<text x=\"{}\" y=\"{}\">{:.0f} {}</text>\n", x + 22, kTop + 10, hi, escape_html(unit));
  svg += fmt::format("<text x=\"{}\" y=\"{}\">{:.0f}{}</text>\n", x + 22, kTop + 160, lo,
                     lo > 0 ? " or less" : "");
  if (m.reference > 0 && hi > lo) {
    const double y = kTop + 160 * (1 - (m.reference - lo) / (hi - lo));
    svg += fmt::format(
        "<line class=\"reference\" x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"#111\" "
        "stroke-width=\"2\"><title>{}</title></line>\n",
        x - 3, y, x + 19, y, escape_html(m.reference_label));
    svg +=
        fmt::format("<text class=\"reference-label\" x=\"{}\" y=\"{}\" fill=\"#555\">{}</text>\n", x - 3,
                    kTop + 185, escape_html(fmt::format("\u2014 {} {:.0f}", m.reference_label, m.reference)));
  }
  return svg;
}

std::string matrix_svg(const PairMatrix& m) {
  const std::size_t n = m.gpus.size();
  const double size = cell_size(n), side = size * static_cast<double>(n);
  const auto range = scale_range(m);
  const double width = kLabelW + side + kScaleW + 20, height = std::max(kTop + side, kTop + 190.0) + 10;
  std::string svg = fmt::format(
      "<svg class=\"chart heatmap\" data-chart=\"{}\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" "
      "xmlns=\"http://www.w3.org/2000/svg\" font-family=\"sans-serif\" font-size=\"12\">\n<text "
      "class=\"title\" x=\"0\" y=\"18\" font-size=\"15\" font-weight=\"bold\">{}</text>\n<text x=\"0\" "
      "y=\"36\" "
      "fill=\"#555\">row: source GPU, column: destination GPU</text>\n",
      escape_html(m.id), width, height, width, height, escape_html(m.title));
  const int every = n <= 16 ? 1 : static_cast<int>(std::ceil(16.0 / size));  // labels that fit
  for (std::size_t i = 0; i < n; ++i) {
    if (static_cast<int>(i) % every != 0) continue;
    const double mid = static_cast<double>(i) * size + size / 2;
    svg += fmt::format(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"end\" dominant-baseline=\"middle\">{}</text>\n<text x=\"{}\" "
        "y=\"{}\" text-anchor=\"middle\">{}</text>\n",
        kLabelW - 6, kTop + mid, fmt::format("GPU{}", m.gpus[i]), kLabelW + mid, kTop - 6, m.gpus[i]);
  }
  const Grid grid = dense(m);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) svg += cell(m, grid, i, j, size, range);
  return svg + colour_scale(m, kLabelW + side + 16, range) + "</svg>\n";
}

// Beyond kHeatmapMaxGpus: the spread and the weakest pairs, never a cell per pair.
std::string summary_table(const PairMatrix& m) {
  struct Cell {
    double v;
    int a, b;
  };
  std::vector<Cell> cells;
  for (const auto& p : m.values)
    if (std::isfinite(p.value)) cells.push_back({p.value, p.src, p.dst});
  std::sort(cells.begin(), cells.end(), [](const Cell& x, const Cell& y) { return x.v < y.v; });
  std::string html = fmt::format(
      "<div class=\"heatmap-summary\" data-chart=\"{}\"><h3>{}</h3><p>{} GPUs: more than {}, so the matrix "
      "is "
      "summarised. {} pairs measured",
      escape_html(m.id), escape_html(m.title), m.gpus.size(), kHeatmapMaxGpus, cells.size());
  if (cells.empty()) return html + ".</p></div>\n";
  html += fmt::format(
      "; min {:.1f}, median {:.1f}, max {:.1f} {}.</p>\n<table><tr><th>weakest pairs</th><th>{}</th></tr>\n",
      cells.front().v, cells[cells.size() / 2].v, cells.back().v, escape_html(m.unit), escape_html(m.unit));
  for (std::size_t k = 0; k < std::min<std::size_t>(cells.size(), 10); ++k)
    html +=
        fmt::format("<tr><td>GPU{} to GPU{}</td><td>{:.1f}</td></tr>\n", cells[k].a, cells[k].b, cells[k].v);
  return html + "</table></div>\n";
}

}  // namespace

std::string heatmap_html(const PairMatrix& m) {
  if (m.gpus.size() < 2) return "";
  return m.gpus.size() > kHeatmapMaxGpus ? summary_table(m) : matrix_svg(m);
}

}  // namespace fb
