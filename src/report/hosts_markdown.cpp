#include "report/hosts_markdown.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>

#include "analyse/cluster_limit.hpp"
#include "core/text.hpp"
#include "core/units.hpp"

namespace fb {
namespace {

// "2 x IB 400 Gb/s, 1 x Ethernet 100 Gb/s" of the ports that are up; what was not read, said so.
std::string nic_words(const HostSection& s) {
  if (!s.host.config || !s.host.config->network.read) return "not read";
  std::map<std::string, int> count;
  for (const auto& p : s.host.config->network.ports)
    if (p.up)
      ++count[p.rate_gbps > 0 ? fmt::format("{} {:.0f} Gb/s", p.kind, p.rate_gbps)
                              : p.kind + " (rate unknown)"];
  if (count.empty()) return "none up";
  std::vector<std::string> parts;
  parts.reserve(count.size());
  for (const auto& [what, n] : count) parts.push_back(fmt::format("{} x {}", n, what));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string verdict_words(const HostSection& s) {
  if (!s.verdict) return "-";
  return fmt::format("{} ({})", s.verdict->status, s.verdict->action);
}

std::string gpu_words(const HostSection& s) {
  if (s.gpus.empty()) return "none seen";
  return fmt::format("{} x {}", s.gpus.size(), s.gpus.front().name);
}

}  // namespace

std::vector<std::string> host_row_cells(const HostSection& s) {
  return {s.name,
          join_ints(s.ranks, ","),
          gpu_words(s),
          s.host.comm.version.empty() ? "-" : s.host.comm.version,
          s.host.driver.empty() ? "-" : s.host.driver,
          nic_words(s),
          s.net_plugin.empty() ? "none" : s.net_plugin,
          verdict_words(s)};
}

std::string cluster_line(const Result& r) {
  const std::string verdict = r.verdict ? fmt::format("{} ({})", r.verdict->status, r.verdict->action) : "-";
  return fmt::format("The cluster: {}. Limited by {}.", verdict, cluster_limit(r));
}

std::string hosts_markdown(const Result& r) {
  if (r.hosts.empty()) return "";
  std::string md = fmt::format(
      "\n## Hosts ({})\n\n| host | ranks | GPUs | {} | driver | NICs up | NET plugin | verdict (action) |\n"
      "|---|---|---|---|---|---|---|---|\n",
      r.hosts.size(), r.host.comm.name.empty() ? "NCCL" : r.host.comm.name);

  for (const auto& s : r.hosts) md += fmt::format("| {} |\n", fmt::join(host_row_cells(s), " | "));
  md += "\n" + cluster_line(r) + "\n";
  for (const auto& s : r.hosts) {
    md += fmt::format("\n### {}: {}\n\n", s.name, verdict_words(s));
    if (s.findings.empty()) md += "no finding on this host alone\n";
    for (const auto& f : s.findings)
      md += fmt::format("- **[{}] {}**: {}  \n  hint: {}\n", f.severity, f.code, f.evidence, f.hint);
  }
  return md;
}

}  // namespace fb
