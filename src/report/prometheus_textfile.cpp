#include "report/prometheus_textfile.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <set>
#include <string_view>
#include <vector>

#include "analyse/judge.hpp"
#include "analyse/scope/gpu_names.hpp"
#include "core/error.hpp"

namespace fb {
namespace {

// A label value as the text format wants it: backslash, double quote and newline escaped.
std::string label(std::string_view value) {
  std::string out;
  for (const char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    out += c == '\n' ? std::string("\\n") : std::string(1, c);
  }
  return out;
}

void header(std::string& out, std::string_view name, std::string_view help) {
  out += fmt::format("# HELP {} {}\n# TYPE {} gauge\n", name, help, name);
}

// Seconds since the epoch of an ISO 8601 UTC time ("2026-11-29T20:14:55Z"); 0 when it is not one.
double epoch_seconds(const std::string& iso) {
  std::tm t{};
  if (std::sscanf(iso.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d", &t.tm_year, &t.tm_mon, &t.tm_mday, &t.tm_hour,
                  &t.tm_min, &t.tm_sec) != 6)
    return 0;
  t.tm_year -= 1900;
  t.tm_mon -= 1;
  return static_cast<double>(timegm(&t));
}

// What one host's series say: its verdict and the findings behind it.
struct HostSeries {
  std::string host;
  Verdict verdict;
  std::vector<Finding> findings;
};

std::vector<HostSeries> series_of(const Result& r, const std::vector<std::string>& wanted) {
  std::vector<HostSeries> out;
  out.reserve(wanted.size());
  for (const auto& h : wanted) out.push_back({h, host_verdict(r, h), host_findings(r, h)});
  return out;
}

void verdict_lines(std::string& out, const std::vector<HostSeries>& series) {
  header(out, "fabricbench_verdict",
         "The verdict per host: 1 for its status (PASS, INFO, UNKNOWN, WARNING, CRITICAL) and recommended "
         "action (none, investigate, fix_configuration, drain).");
  for (const auto& s : series)
    out += fmt::format("fabricbench_verdict{{host=\"{}\",status=\"{}\",action=\"{}\"}} 1\n", label(s.host),
                       s.verdict.status, s.verdict.action);
  header(out, "fabricbench_verdict_level",
         "The verdict per host as a number: 0 PASS, 1 INFO, 2 UNKNOWN, 3 WARNING, 4 CRITICAL (drain at 4).");
  for (const auto& s : series)
    out += fmt::format("fabricbench_verdict_level{{host=\"{}\"}} {}\n", label(s.host),
                       static_cast<int>(s.verdict.status));
}

void check_lines(std::string& out, const std::vector<HostSeries>& series) {
  header(out, "fabricbench_check_status",
         "Each check of the verdict contract (docs/verdicts.md) per host: 1 for its status and action.");
  for (const auto& s : series)
    for (const auto& c : s.verdict.checks)
      out +=
          fmt::format("fabricbench_check_status{{host=\"{}\",check=\"{}\",status=\"{}\",action=\"{}\"}} 1\n",
                      label(s.host), label(c.check), c.status, c.action);
}

void finding_lines(std::string& out, const std::vector<HostSeries>& series) {
  header(out, "fabricbench_findings", "How many findings the rules raised for the host, by severity.");
  for (const auto& s : series)
    for (const auto severity : {Severity::error, Severity::warning, Severity::info}) {
      int n = 0;
      for (const auto& f : s.findings) n += f.severity == severity ? 1 : 0;
      out +=
          fmt::format("fabricbench_findings{{host=\"{}\",severity=\"{}\"}} {}\n", label(s.host), severity, n);
    }
}

// Each collective run at its largest size: on one host its figures; across hosts the job's runs, in
// which every host took part.
void busbw_lines(std::string& out, const Result& r, const std::vector<HostSeries>& series) {
  header(out, "fabricbench_busbw_gbps",
         "Bus bandwidth of each collective run the host took part in, at its largest size, GB/s (1e9 bytes "
         "per second).");
  for (const auto& s : series) {
    std::set<std::string> seen;  // one series per label set (a repeated run keeps its first)
    for (const auto& run : r.runs) {
      if (run.kind != RunKind::collective || run.points.empty()) continue;
      const Point* largest = &run.points.front();
      for (const auto& p : run.points)
        if (p.bytes > largest->bytes) largest = &p;
      const auto labels = fmt::format(
          "host=\"{}\",collective=\"{}\",dtype=\"{}\",op=\"{}\",bytes=\"{}\",gpus=\"{}\"", label(s.host),
          label(run.collective), label(run.dtype), label(run.op), largest->bytes, run.gpus.size());
      if (seen.insert(labels).second)
        out += fmt::format("fabricbench_busbw_gbps{{{}}} {:.3f}\n", labels, largest->busbw_gbps);
    }
  }
}

void about_lines(std::string& out, const Result& r, const std::vector<HostSeries>& series) {
  header(out, "fabricbench_result_timestamp_seconds",
         "When the result was written (finished, else started), seconds since the Unix epoch.");
  for (const auto& s : series)
    out += fmt::format("fabricbench_result_timestamp_seconds{{host=\"{}\"}} {:.0f}\n", label(s.host),
                       epoch_seconds(r.finished.empty() ? r.started : r.finished));
  header(out, "fabricbench_rules_info", "The verdict rules' version and the tool's: always 1.");
  for (const auto& s : series)
    out += fmt::format("fabricbench_rules_info{{host=\"{}\",rules=\"{}\",tool=\"{}\"}} 1\n", label(s.host),
                       label(r.rules_version), label(r.tool.version));
}

std::string textfile(const Result& r, const std::vector<std::string>& hosts) {
  const auto series = series_of(r, hosts);
  std::string out;
  verdict_lines(out, series);
  check_lines(out, series);
  finding_lines(out, series);
  busbw_lines(out, r, series);
  about_lines(out, r, series);
  return out;
}

}  // namespace

std::vector<std::string> textfile_hosts(const Result& r) {
  auto hosts = result_host_names(r);
  if (hosts.size() >= 2) return hosts;
  return {r.host.hostname};
}

std::string prometheus_textfile(const Result& r) { return textfile(r, textfile_hosts(r)); }

std::string host_prometheus_textfile(const Result& r, const std::string& host) {
  const auto hosts = textfile_hosts(r);
  if (std::find(hosts.begin(), hosts.end(), host) == hosts.end())
    FB_USAGE_ERROR(fmt::format("no host '{}' in the result: its hosts are {}", host, fmt::join(hosts, ", ")));
  return textfile(r, {host});
}

}  // namespace fb
