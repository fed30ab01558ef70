#include "report/hosts_markdown.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analyse/hosts/cluster_limit.hpp"
#include "analyse/hosts/host_consistency.hpp"
#include "core/text.hpp"
#include "report/markdown_text.hpp"

namespace fb {
namespace {

// The up IB/RoCE ports, then the up Ethernet ports, as the host comparison words them.
std::string nic_words(const HostSection& s) {
  const auto rdma = ports_text(s, true);
  return rdma.empty() ? "not read" : rdma + "; " + ports_text(s, false);
}

std::string verdict_words(const HostSection& s) {
  if (!s.verdict) return "-";
  return fmt::format("{} ({})", s.verdict->status, s.verdict->action);
}

std::string gpu_words(const HostSection& s) { return s.gpus.empty() ? "none seen" : gpus_text(s.gpus); }

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
  return fmt::format("The cluster: {}. Limited by {}. The hosts: {}.", verdict, cluster_limit(r),
                     slow_host_words(r));
}

std::string hosts_markdown(const Result& r) {
  if (r.hosts.empty()) return "";
  std::string md = fmt::format(
      "\n## Hosts ({})\n\n| host | ranks | GPUs | {} | driver | NICs up | NET plugin | verdict (action) |\n"
      "|---|---|---|---|---|---|---|---|\n",
      r.hosts.size(), r.host.comm.name.empty() ? "NCCL" : r.host.comm.name);

  for (const auto& s : r.hosts) {
    auto cells = host_row_cells(s);
    for (auto& c : cells) c = md_text(c);
    md += fmt::format("| {} |\n", fmt::join(cells, " | "));
  }
  md += "\n" + md_text(cluster_line(r)) + "\n";
  for (const auto& s : r.hosts) {
    md += fmt::format("\n### {}: {}\n\n", md_text(s.name), md_text(verdict_words(s)));
    if (s.findings.empty()) md += "no finding on this host alone\n";
    for (const auto& f : s.findings)
      md += fmt::format("- **[{}] {}**: {}  \n  hint: {}\n", f.severity, md_text(f.code), md_text(f.evidence),
                        md_text(f.hint));
  }
  return md;
}

}  // namespace fb
