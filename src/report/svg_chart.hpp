#pragma once
// Small self-contained SVG charts for the HTML report (no scripts, no network).
#include <string>
#include <vector>

namespace fb {

struct Series {
  std::string name;
  std::vector<std::pair<double, double>> points;  // x, y
};

struct ChartSpec {
  std::string id;  // data-chart attribute, for tests
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log2_x = false;     // sizes in bytes: powers of two apart
  double reference_y = 0;  // a dashed horizontal line (ceiling) when > 0
  std::string reference_label;
};

std::string line_chart(const ChartSpec& spec, const std::vector<Series>& series);

// A matrix of values as coloured cells (value / max), labels on both axes.
std::string heatmap(const std::string& id, const std::string& title, const std::vector<std::string>& labels,
                    const std::vector<std::vector<double>>& values, const std::string& unit);

// HTML-escapes text.
std::string escape_html(const std::string& text);

}  // namespace fb
