#include "report/html/html_banner.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "analyse/scope/gpu_names.hpp"
#include "analyse/verdict/outcome.hpp"
#include "core/units.hpp"
#include "report/judgement.hpp"
#include "report/svg_chart.hpp"

namespace fb {
namespace {

constexpr std::size_t kTopFindings = 3;

// "8 x NVIDIA H100" (several names: each with its count).
std::string gpu_summary(const Result& r) {
  std::map<std::string, int> names;
  for (const auto& g : r.gpus) ++names[g.name.empty() ? "GPU" : g.name];
  if (names.empty() && r.topology)
    for (const auto& g : r.topology->gpus) ++names[g.name.empty() ? "GPU" : g.name];
  if (names.empty()) return "no GPU recorded";
  std::string out;
  for (const auto& [name, n] : names) out += fmt::format("{}{} x {}", out.empty() ? "" : ", ", n, name);
  return out;
}

// The connections between GPU pairs, most common first: "NV18 between all 28 pairs".
std::string link_summary(const Result& r) {
  if (!r.topology || r.topology->pairs.empty()) return "";
  std::map<std::string, int> kinds;
  for (const auto& p : r.topology->pairs) ++kinds[p.connection.to_string()];
  std::vector<std::pair<int, std::string>> sorted;
  sorted.reserve(kinds.size());
  for (const auto& [k, n] : kinds) sorted.emplace_back(n, k);
  std::sort(sorted.rbegin(), sorted.rend());
  const auto total = r.topology->pairs.size();
  if (sorted.size() == 1)
    return fmt::format("{} between {} {} pair{}", sorted[0].second, total == 1 ? "the" : "all", total,
                       total == 1 ? "" : "s");
  std::string out;
  for (const auto& [n, k] : sorted)
    out += fmt::format("{}{} {} pair{}", out.empty() ? "" : ", ", k, n, n == 1 ? "" : "s");
  return out;
}

int rank(Severity s) { return s == Severity::error ? 0 : s == Severity::warning ? 1 : 2; }

std::string finding_box(const Finding& f) {
  return fmt::format(
      "<div class=\"top-finding sev-{0}\" data-severity=\"{0}\"><b>{0}: {1}</b><div>{2}</div>{3}{4}</div>\n",
      f.severity, escape_html(f.code), escape_html(with_human_sizes(f.evidence)),
      f.expected.empty() ? "" : "<div><i>expected:</i> " + escape_html(f.expected) + "</div>",
      f.hint.empty() ? "" : "<div><i>fix:</i> " + escape_html(f.hint) + "</div>");
}

// The most severe findings, one card per code (the list below has every one).
std::string top_findings(const Result& r) {
  std::vector<const Finding*> sorted;
  sorted.reserve(r.findings.size());
  for (const auto& f : r.findings) sorted.push_back(&f);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Finding* a, const Finding* b) { return rank(a->severity) < rank(b->severity); });
  std::string html;
  std::set<std::string> shown;
  for (const auto* f : sorted)
    if (f->severity != Severity::info && shown.size() < kTopFindings && shown.insert(f->code).second)
      html += finding_box(*f);
  if (r.findings.size() > kTopFindings)
    html += fmt::format("<p class=\"more\">{} finding{} in all: see Findings below.</p>\n", r.findings.size(),
                        r.findings.size() == 1 ? "" : "s");
  return html;
}

}  // namespace

std::string outcome(const Result& r) { return headline_outcome(r).key; }

std::string machine_line(const Result& r) {
  std::vector<std::string> parts{gpu_summary(r)};
  if (const auto links = link_summary(r); !links.empty()) parts.push_back(links);
  if (!r.host.driver.empty()) parts.push_back("driver " + r.host.driver);
  if (!r.host.runtime.empty()) parts.push_back("runtime " + r.host.runtime);
  if (!r.host.comm.name.empty()) parts.push_back(r.host.comm.name + " " + r.host.comm.version);
  if (spans_hosts(r)) {  // every host has a GPU 0: the GPUs by host:index
    parts.push_back(fmt::format("hosts {}", fmt::join(result_host_names(r), ", ")));
    parts.push_back(fmt::format("GPUs {}", fmt::join(document_gpu_ranges(r), ", ")));
  } else if (!r.host.hostname.empty()) {
    parts.push_back("host " + r.host.hostname);
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : " · ") + p;
  return out;
}

std::string banner_html(const Result& r, const std::optional<SavedFindings>& saved) {
  const auto o = headline_outcome(r);
  std::string html = fmt::format(
      "<section class=\"banner outcome-{0}\" data-outcome=\"{0}\">\n<h1>{1}</h1>\n<p "
      "class=\"machine\">{2}</p>\n<p class=\"rules\" data-rules=\"{3}\">{4}</p>\n",
      o.key, escape_html(o.words), escape_html(machine_line(r)), escape_html(r.rules_version),
      escape_html(judged_by_line(r, saved)));
  if (!r.failure.empty())
    html += fmt::format("<p class=\"failure\"><b>Failed:</b> {}</p>\n", escape_html(r.failure));
  return html + top_findings(r) + "</section>\n";
}

}  // namespace fb
