#include "ingest/nccl_tests_columns.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/parse_number.hpp"
#include "core/text.hpp"

namespace fb {
namespace {

std::string without_hash(const std::string& line) {
  const auto at = line.find_first_not_of(' ');
  if (at == std::string::npos) return "";
  return line[at] == '#' ? line.substr(at + 1) : line;
}

bool is_time_word(const std::string& w) { return w == "time" || w == "cputime"; }

// The figure's printed resolution (the value of one unit in its last digit): "3277.22" 0.01,
// "90330" 1, "1.3e+07" 1e6. What a value printed so can be off by, twice over.
double resolution(const std::string& text) {
  const auto e = text.find_first_of("eE");
  const std::string mantissa = e == std::string::npos ? text : text.substr(0, e);
  const auto dot = mantissa.find('.');
  const int decimals = dot == std::string::npos ? 0 : static_cast<int>(mantissa.size() - dot - 1);
  double r = std::pow(10.0, -decimals);
  if (e != std::string::npos)
    if (const auto exp = try_parse_whole(text.substr(e + 1 + (text[e + 1] == '+' ? 1 : 0))))
      r *= std::pow(10.0, *exp);
  return r;
}

struct VariantColumns {
  std::size_t time = 0, algbw = 0, busbw = 0, wrong = 0;
  std::optional<std::size_t> i_min, i_max, i_p99;
};

// The columns of each variant, in order.
std::vector<VariantColumns> variant_columns(const TableLayout& l) {
  std::vector<VariantColumns> out;
  for (std::size_t i = 0; i < l.names.size(); ++i) {
    if (!is_time_word(l.names[i])) continue;
    VariantColumns v;
    v.time = i;
    for (std::size_t k = i + 1; k < l.names.size() && !is_time_word(l.names[k]); ++k) {
      const auto& n = l.names[k];
      if (n == "algbw")
        v.algbw = k;
      else if (n == "busbw")
        v.busbw = k;
      else if (n == "#wrong" || n == "error" || n == "wrong")
        v.wrong = k;
      else if (n == "i_min")
        v.i_min = k;
      else if (n == "i_max")
        v.i_max = k;
      else if (n == "i_p99")
        v.i_p99 = k;
    }
    out.push_back(v);
  }
  return out;
}

std::optional<std::size_t> column(const TableLayout& l, std::string_view name) {
  const auto it = std::find(l.names.begin(), l.names.end(), name);
  if (it == l.names.end()) return std::nullopt;
  return static_cast<std::size_t>(it - l.names.begin());
}

// The wrong-elements cell: a count, "N/A" (not checked) or the oldest layouts' largest difference
// ("0e+00": none; anything else is not a count and stays unknown).
std::optional<std::int64_t> wrong_cell(const std::string& cell, bool max_error) {
  if (cell == "N/A") return std::nullopt;
  std::string digits = cell;
  if (!digits.empty() && digits.back() == '*') digits.pop_back();  // rccl-tests: above its threshold
  if (max_error) {
    const auto v = try_parse_finite(digits);
    if (v && *v == 0) return 0;
    return std::nullopt;
  }
  if (const auto v = try_parse_finite(digits); v && *v >= 0) return whole_from_double(*v);
  return std::nullopt;
}

std::string check_variant(const ToolPoint& p, const std::string& time_text, double time_printed,
                          const std::string& algbw_text) {
  if (p.time_us <= 0) return p.bytes == 0 ? "" : "a time of 0";
  const double expected = static_cast<double>(p.bytes) / (p.time_us * 1e3);
  const double slack =
      0.006 + expected * (2 * resolution(time_text) / time_printed + 0.002) + resolution(algbw_text);
  if (std::abs(p.algbw - expected) <= slack) return "";
  return fmt::format(
      "algbw {} GB/s is not its size over its time ({} B / {} us = {:.2f} GB/s): a damaged row", algbw_text,
      p.bytes, time_text, expected);
}

}  // namespace

std::optional<TableLayout> read_table_heading(const std::string& line, const std::string& above) {
  const auto words = row_words(lower(without_hash(line)));
  if (words.size() < 5 || words[0] != "size" || words[1] != "count") return std::nullopt;
  TableLayout l;
  l.names = words;
  for (const auto& w : words) {
    if (is_time_word(w)) ++l.variants;
    l.cputime |= w == "cputime";
    l.has_timestamp |= w == "timestamp";
  }
  if (l.variants == 0 || l.variants > 2) return std::nullopt;
  for (const auto& v : variant_columns(l))  // a heading cut short (a terminal's wrap) is not one
    if (v.algbw == 0 || v.busbw == 0) return std::nullopt;
  const std::string top = lower(above);
  l.first_in_place = l.variants == 1 && top.find("in-place") != std::string::npos &&
                     top.find("out-of-place") == std::string::npos;
  return l;
}

bool read_units_line(const std::string& line, TableLayout& layout) {
  const auto words = row_words(without_hash(line));
  if (words.empty() || words[0] != "(B)") return false;
  for (const auto& w : words)
    if (w == "(ms)") layout.time_scale = 1000;
  return true;
}

std::vector<std::string> row_words(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

namespace {

// The size, count, type, op and root of a row; an error in words instead.
std::string read_row_start(const std::vector<std::string>& w, const TableLayout& l, ToolPoint& base) {
  for (const auto& word : w)
    if (word.back() == '.') return fmt::format("'{}' is a number cut short", word);
  const auto bytes = try_parse_unsigned(w[0]);
  const auto count = try_parse_unsigned(w[1]);
  if (!bytes || !count) return "its size or count is not a whole number";
  base.bytes = *bytes;
  base.count = *count;
  base.type = w[2];
  if (const auto c = column(l, "redop")) base.redop = w[*c] == "none" ? "" : w[*c];
  if (const auto c = column(l, "root")) {
    base.root = static_cast<int>(try_parse_whole(w[*c]).value_or(-1));
    base.root_printed = true;
  }
  return "";
}

std::optional<ToolIterations> iterations_of(const std::vector<std::string>& w, const VariantColumns& v) {
  if (!v.i_min || !v.i_max || !v.i_p99) return std::nullopt;
  const auto lo = try_parse_finite(w[*v.i_min]), hi = try_parse_finite(w[*v.i_max]),
             p99 = try_parse_finite(w[*v.i_p99]);
  if (!lo || !hi || !p99) return std::nullopt;
  return ToolIterations{*lo, *hi, *p99, std::nullopt, {}};
}

// One variant's columns into `p`; an error in words instead.
std::string read_variant(const std::vector<std::string>& w, const VariantColumns& v, const TableLayout& l,
                         ToolPoint& p) {
  const auto time = try_parse_finite(w[v.time]);
  const auto algbw = try_parse_finite(w[v.algbw]);
  const auto busbw = try_parse_finite(w[v.busbw]);
  if (!time || !algbw || !busbw || *time < 0 || *algbw < 0 || *busbw < 0)
    return fmt::format("'{} {} {}' are not a time and two bandwidths", w[v.time], w[v.algbw], w[v.busbw]);
  p.time_us = *time * l.time_scale;
  p.algbw = *algbw;
  p.busbw = *busbw;
  if (v.wrong > 0) p.wrong = wrong_cell(w[v.wrong], column(l, "error").has_value());
  p.iterations = iterations_of(w, v);
  return check_variant(p, w[v.time], *time, w[v.algbw]);
}

}  // namespace

RowRead read_table_row(const std::vector<std::string>& w, const TableLayout& l) {
  const std::size_t need = l.width() - (l.has_timestamp ? 1 : 0);
  if (w.size() < need) return {{}, fmt::format("{} of the table's {} columns", w.size(), need)};
  if (w.size() > need + (l.has_timestamp ? 3 : 0))
    return {{}, fmt::format("{} words for the table's {} columns", w.size(), need)};
  ToolPoint base;
  if (auto why = read_row_start(w, l, base); !why.empty()) return {{}, why};
  RowRead out;
  int variant = 0;
  for (const auto& v : variant_columns(l)) {
    ToolPoint p = base;
    p.in_place = l.first_in_place || variant++ == 1;
    if (auto why = read_variant(w, v, l, p); !why.empty()) return {{}, why};
    out.points.push_back(p);
  }
  return out;
}

}  // namespace fb
