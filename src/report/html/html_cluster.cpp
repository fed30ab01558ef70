#include "report/html/html_cluster.hpp"

#include <fmt/format.h>

#include <map>

#include "analyse/scope/gpu_names.hpp"
#include "comm/hostlist.hpp"
#include "report/svg_chart.hpp"

namespace fb {
namespace {

const HostSection* section_of(const Result& r, const std::string& host) {
  for (const auto& s : r.hosts)
    if (s.name == host) return &s;
  return nullptr;
}

std::string gpu_chip(const Result& r, const GpuInfo& g) {
  return fmt::format("<li class=\"gpu\"><b>{}</b> {} <span class=\"note\">rank {}</span></li>",
                     escape_html(document_gpu_name(r, g)), escape_html(g.name.empty() ? "GPU" : g.name),
                     g.rank);
}

std::string host_card(const Result& r, const std::string& host, const std::vector<const GpuInfo*>& gpus) {
  const HostSection* s = section_of(r, host);
  std::string verdict;
  if (s != nullptr && s->verdict)
    verdict = fmt::format(" <span class=\"host-verdict\" data-status=\"{0}\">{0} (action: {1})</span>",
                          s->verdict->status, s->verdict->action);
  std::string html = fmt::format("<div class=\"host-card\" data-host=\"{0}\"><b>{0}</b>: {1} GPU{2}{3}<ul>",
                                 escape_html(host), gpus.size(), gpus.size() == 1 ? "" : "s", verdict);
  for (const auto* g : gpus) html += gpu_chip(r, *g);
  return html + "</ul></div>\n";
}

}  // namespace

std::string report_title(const Result& r) {
  if (!spans_hosts(r)) return "fabricbench report: " + r.host.hostname;
  const auto hosts = result_host_names(r);
  return fmt::format("fabricbench report: {} hosts {}", hosts.size(), compress_hostlist(hosts));
}

std::string cluster_html(const Result& r) {
  if (!spans_hosts(r)) return "";
  std::map<std::string, std::vector<const GpuInfo*>> by_host;
  for (const auto& g : r.gpus) by_host[g.host].push_back(&g);
  const auto hosts = result_host_names(r);
  std::string html = fmt::format(
      "<p>{} GPUs on {} hosts, joined by the network (NCCL's transports: the findings and \"Run and "
      "environment\"). Each host's own topology is read by <code>fabricbench doctor</code> or "
      "<code>topo</code> there.</p>\n<div "
      "class=\"hosts-drawn\">\n",
      r.gpus.size(), hosts.size());
  for (const auto& h : hosts) html += host_card(r, h, by_host[h]);
  return html + "</div>\n";
}

}  // namespace fb
