#pragma once
// Small self-contained SVG line charts for the HTML report (no scripts, no network): nice
// ticks in every range, sizes on a log2 axis, reference lines, dashed reference series and a
// hover title on every point.
#include <string>
#include <vector>

namespace fb {

struct Series {
  std::string name;
  std::vector<std::pair<double, double>> points;  // x, y
  bool dashed = false;                            // a reference series (baseline, the other run)
  int color = -1;                                 // palette index; -1: the series' position
  std::vector<bool> marked;                       // per point: drawn with a red ring (a regression)
  // Per point: its expectation (a short bar in the series' colour, analyse/expect/expected_figure.hpp) and
  // where it comes from; 0 where the point has none.
  std::vector<double> expected;
  std::vector<std::string> expected_source;
};

// A dashed horizontal line across the plot (a ceiling, an expected value).
struct ReferenceLine {
  double y = 0;
  std::string label;
  std::string css_class;  // "ceiling", "expected"
};

struct ChartSpec {
  std::string id;  // data-chart attribute, for tests
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log2_x = false;  // sizes in bytes: powers of two apart, labelled 1 MiB, 1 GiB
  std::vector<ReferenceLine> lines;
  std::string unit;  // in the hover titles: "GB/s"
};

// One tick: its value and its label.
struct Tick {
  double value = 0;
  std::string label;
};

// Round-number ticks (steps of 1, 2 or 5 x 10^k) from 0 or below `lo` to at least `hi`, about
// `target` of them, labelled with as many decimals as the step needs.
std::vector<Tick> nice_ticks(double lo, double hi, int target);
// Powers of two from <= lo to >= hi, every 2^k-th so that at most `max_ticks` remain, labelled
// as sizes ("1 MiB").
std::vector<Tick> log2_size_ticks(double lo, double hi, int max_ticks);

// The colour of palette entry k.
const char* series_color(int k);

std::string line_chart(const ChartSpec& spec, const std::vector<Series>& series);

// HTML-escapes text.
std::string escape_html(const std::string& text);
// HTML-escapes text and keeps each of its words (between spaces) on one line: a file name or a pair
// such as "GPU0-GPU7" never breaks at its hyphens or slashes; a web address may break after a slash.
std::string unbroken_words(const std::string& text);

}  // namespace fb
