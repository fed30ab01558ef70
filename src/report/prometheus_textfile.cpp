#include "report/prometheus_textfile.hpp"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <set>
#include <string_view>
#include <vector>

#include "analyse/gpu_names.hpp"
#include "analyse/verdict_contract.hpp"

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

// Whether `evidence` names a GPU of `host` as host:index (the host name not part of a longer one).
bool names_host(std::string_view evidence, const std::string& host) {
  const auto part_of_name = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.';
  };
  for (auto at = evidence.find(host + ":"); at != std::string_view::npos;
       at = evidence.find(host + ":", at + 1)) {
    const auto after = at + host.size() + 1;
    const bool starts = at == 0 || !part_of_name(evidence[at - 1]);
    if (starts && after < evidence.size() && std::isdigit(static_cast<unsigned char>(evidence[after])))
      return true;
  }
  return false;
}

// One host's verdict: the contract over the findings that name its GPUs, those that name no host's
// (those concern the whole run) and, where the document has a section for it (the doctor across
// hosts), what was found on that host alone.
Verdict host_verdict(const Result& r, const std::string& host, const std::vector<std::string>& hosts) {
  std::vector<Finding> mine;
  for (const auto& f : r.findings) {
    bool names_any = false;
    for (const auto& h : hosts) names_any = names_any || names_host(f.evidence, h);
    if (!names_any || names_host(f.evidence, host)) mine.push_back(f);
  }
  for (const auto& section : r.hosts)
    if (section.name == host) mine.insert(mine.end(), section.findings.begin(), section.findings.end());
  return verdict_of(r, mine);
}

void verdict_lines(std::string& out, const Result& r, const Verdict& run_verdict) {
  const auto hosts = result_host_names(r);
  std::vector<std::pair<std::string, Verdict>> verdicts;
  if (hosts.size() >= 2)
    for (const auto& h : hosts) verdicts.emplace_back(h, host_verdict(r, h, hosts));
  else
    verdicts.emplace_back(r.host.hostname, run_verdict);
  header(out, "fabricbench_verdict",
         "The verdict per host: 1 for its status (PASS, INFO, UNKNOWN, WARNING, CRITICAL) and recommended "
         "action (none, investigate, drain).");
  for (const auto& [host, v] : verdicts)
    out += fmt::format("fabricbench_verdict{{host=\"{}\",status=\"{}\",action=\"{}\"}} 1\n", label(host),
                       v.status, v.action);
  header(out, "fabricbench_verdict_level",
         "The verdict per host as a number: 0 PASS, 1 INFO, 2 UNKNOWN, 3 WARNING, 4 CRITICAL (drain at 4).");
  for (const auto& [host, v] : verdicts)
    out +=
        fmt::format("fabricbench_verdict_level{{host=\"{}\"}} {}\n", label(host), static_cast<int>(v.status));
}

void check_lines(std::string& out, const Verdict& v) {
  header(out, "fabricbench_check_status",
         "Each check of the verdict contract (docs/verdicts.md): 1 for its status and action.");
  for (const auto& c : v.checks)
    out += fmt::format("fabricbench_check_status{{check=\"{}\",status=\"{}\",action=\"{}\"}} 1\n",
                       label(c.check), c.status, c.action);
}

void finding_lines(std::string& out, const Result& r) {
  header(out, "fabricbench_findings", "How many findings the rules raised, by severity.");
  for (const auto s : {Severity::error, Severity::warning, Severity::info}) {
    int n = 0;
    for (const auto& f : r.findings) n += f.severity == s ? 1 : 0;
    out += fmt::format("fabricbench_findings{{severity=\"{}\"}} {}\n", s, n);
  }
}

void busbw_lines(std::string& out, const Result& r) {
  header(out, "fabricbench_busbw_gbps",
         "Bus bandwidth of each collective run at its largest size, GB/s (1e9 bytes per second).");
  std::set<std::string> seen;  // one series per label set (a repeated run keeps its first)
  for (const auto& run : r.runs) {
    if (run.kind != RunKind::collective || run.points.empty()) continue;
    const Point* largest = &run.points.front();
    for (const auto& p : run.points)
      if (p.bytes > largest->bytes) largest = &p;
    const auto labels =
        fmt::format("collective=\"{}\",dtype=\"{}\",op=\"{}\",bytes=\"{}\",gpus=\"{}\"",
                    label(run.collective), label(run.dtype), label(run.op), largest->bytes, run.gpus.size());
    if (seen.insert(labels).second)
      out += fmt::format("fabricbench_busbw_gbps{{{}}} {:.3f}\n", labels, largest->busbw_gbps);
  }
}

}  // namespace

std::string prometheus_textfile(const Result& r) {
  std::string out;
  const Verdict v = r.verdict ? *r.verdict : verdict_of(r, r.findings);
  verdict_lines(out, r, v);
  check_lines(out, v);
  finding_lines(out, r);
  busbw_lines(out, r);
  header(out, "fabricbench_result_timestamp_seconds",
         "When the result was written (finished, else started), seconds since the Unix epoch.");
  out += fmt::format("fabricbench_result_timestamp_seconds {:.0f}\n",
                     epoch_seconds(r.finished.empty() ? r.started : r.finished));
  header(out, "fabricbench_rules_info", "The verdict rules' version and the tool's: always 1.");
  out += fmt::format("fabricbench_rules_info{{rules=\"{}\",tool=\"{}\"}} 1\n", label(r.rules_version),
                     label(r.tool.version));
  return out;
}

}  // namespace fb
