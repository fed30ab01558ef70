#include "report/expectations_table.hpp"

#include <fmt/format.h>

#include <cmath>

#include "core/units.hpp"

namespace fb {
namespace {

std::string count_text(int n) { return n == 0 ? "any" : std::to_string(n); }

// "2 or more" where a row holds from a number of hosts on (min_hosts), else the count.
std::string hosts_text(const ExpectationRow& e) {
  return e.hosts == 0 && e.min_hosts > 0 ? fmt::format("{} or more", e.min_hosts) : count_text(e.hosts);
}

std::string value_text(const ExpectationRow& e) {
  const bool ns = e.figure.ends_with("latency");
  const std::string number =
      e.value == std::floor(e.value) ? fmt::format("{:.0f}", e.value) : fmt::format("{:g}", e.value);
  return number + (ns ? " ns" : " GB/s");
}

std::string kind_text(const ExpectationRow& e) {
  std::string k = e.kind == ExpectationKind::acceptance ? "acceptance" : "typical";
  if (e.tolerance >= 0) k += fmt::format(", tolerance {:.2f}", e.tolerance);
  if (e.single_report) k += ", single report";
  return k;
}

// A table cell: no '|' or newline from a site file may break the row.
std::string cell(std::string text) {
  for (auto& c : text)
    if (c == '|' || c == '\n') c = c == '|' ? '/' : ' ';
  return text;
}

}  // namespace

std::string sizes_text(const ExpectationRow& e) {
  if (e.min_bytes == 0 && e.max_bytes == kAnyBytes) return "any";
  if (e.max_bytes == kAnyBytes) return ">= " + format_bytes(e.min_bytes);
  if (e.min_bytes == e.max_bytes) return format_bytes(e.min_bytes);
  const std::string next = format_bytes(e.max_bytes + 1);
  if (next.find('.') == std::string::npos) return format_bytes(e.min_bytes) + " up to below " + next;
  return format_bytes(e.min_bytes) + " to " + format_bytes(e.max_bytes);
}

std::string expectations_markdown(std::span<const ExpectationRow> rows) {
  std::string out =
      "| GPU | GPUs | hosts | figure | sizes | algorithm | expected | kind | source | date |\n"
      "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& e : rows)
    out +=
        fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", cell(e.gpu), count_text(e.gpus),
                    hosts_text(e), cell(e.figure), sizes_text(e), e.algo.empty() ? "any" : cell(e.algo),
                    value_text(e), kind_text(e), cell(e.source), cell(e.date));
  return out;
}

}  // namespace fb
