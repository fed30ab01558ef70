#include "report/nccl_choices.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/units.hpp"
#include "report/markdown_text.hpp"
#include "report/svg_chart.hpp"

namespace fb {
namespace {

constexpr std::size_t kMaxRows = 200;  // a table per document, cut with a note past this

struct ChoiceRow {
  const Run* run;
  const Point* point;
};

// The out-of-place point of each size of every collective run that has a choice (in-place ones run the
// same choice at the same size).
std::vector<ChoiceRow> choice_rows(const Result& r) {
  std::vector<ChoiceRow> rows;
  for (const auto& run : r.runs) {
    if (run.kind != RunKind::collective || !has_nccl_choice(run)) continue;
    for (const auto& p : run.points)
      if (!p.in_place) rows.push_back({&run, &p});
  }
  return rows;
}

std::string channels_text(const Point& p) {
  return p.nccl_channels > 0 ? std::to_string(p.nccl_channels) : std::string("-");
}

}  // namespace

bool has_nccl_choice(const Run& run) {
  return std::any_of(run.points.begin(), run.points.end(),
                     [](const Point& p) { return !p.nccl_algo.empty(); });
}

std::string nccl_choice_text(const Point& p) {
  if (p.nccl_algo.empty()) return "";
  const auto pair = p.nccl_proto.empty() ? p.nccl_algo : p.nccl_algo + "/" + p.nccl_proto;
  return p.nccl_channels > 0 ? fmt::format("{} x{}", pair, p.nccl_channels) : pair;
}

std::string nccl_choices_markdown(const Result& r) {
  const auto rows = choice_rows(r);
  if (rows.empty()) return "";
  std::string md =
      "\n## NCCL's choice at each size\n\nFrom NCCL's log (channels: NCCL 2.24 and later; \"-\" where the "
      "log has "
      "none, \"not in log\" where it names no choice for that size).\n\n| collective | GPUs | size | "
      "algorithm | "
      "protocol | channels | busbw |\n|---|---:|---:|---|---|---:|---:|\n";
  for (std::size_t i = 0; i < rows.size() && i < kMaxRows; ++i) {
    const auto& [run, p] = rows[i];
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {:.1f} GB/s |\n", md_text(run->collective),
                      run->gpus.size(), format_bytes(p->bytes),
                      p->nccl_algo.empty() ? "not in log" : md_text(p->nccl_algo),
                      p->nccl_proto.empty() ? "-" : md_text(p->nccl_proto), channels_text(*p), p->busbw_gbps);
  }
  if (rows.size() > kMaxRows)
    md += fmt::format("\n{} more sizes left out of this table.\n", rows.size() - kMaxRows);
  return md;
}

std::string nccl_choices_html(const Result& r) {
  const auto rows = choice_rows(r);
  if (rows.empty()) return "";
  std::string html =
      "<p class=\"note\">NCCL's choice at each size, from its log (channels: NCCL 2.24 and later).</p>\n"
      "<div class=\"wide\"><table class=\"choices\"><tr><th>collective</th><th>GPUs</th><th>size</th>"
      "<th>algorithm</th><th>protocol</th><th>channels</th><th>busbw (GB/s)</th></tr>\n";
  for (std::size_t i = 0; i < rows.size() && i < kMaxRows; ++i) {
    const auto& [run, p] = rows[i];
    html += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1f}</td></tr>\n",
        escape_html(run->collective), run->gpus.size(), format_bytes(p->bytes),
        p->nccl_algo.empty() ? "not in log" : escape_html(p->nccl_algo),
        p->nccl_proto.empty() ? "-" : escape_html(p->nccl_proto), channels_text(*p), p->busbw_gbps);
  }
  html += "</table></div>\n";
  if (rows.size() > kMaxRows)
    html += fmt::format("<p class=\"note\">{} more sizes left out.</p>\n", rows.size() - kMaxRows);
  return html;
}

}  // namespace fb
