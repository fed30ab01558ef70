#include "analyse/scope/gpu_names.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <unordered_map>

#include "comm/hostlist.hpp"
#include "core/text.hpp"

namespace fb {
namespace {

std::string name_of(const GpuInfo& g, bool across_hosts) {
  return across_hosts ? fmt::format("{}:{}", g.host.empty() ? "?" : g.host, g.index)
                      : fmt::format("GPU{}", g.index);
}

// The document's GPUs in rank order (a job lists them as its ranks reported).
std::vector<const GpuInfo*> by_rank(const Result& r) {
  std::vector<const GpuInfo*> out;
  out.reserve(r.gpus.size());
  for (const auto& g : r.gpus) out.push_back(&g);
  std::stable_sort(out.begin(), out.end(),
                   [](const GpuInfo* a, const GpuInfo* b) { return a->rank < b->rank; });
  return out;
}

// "0-3,6": sorted, each run of consecutive indices as first-last.
std::string index_ranges(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    parts.push_back(j == i ? std::to_string(v[i]) : fmt::format("{}-{}", v[i], v[j]));
    i = j + 1;
  }
  return fmt::format("{}", fmt::join(parts, ","));
}

// A Slurm hostlist's items: split at the commas outside brackets ("n[1-2,5],cpu5" -> "n[1-2,5]", "cpu5").
std::vector<std::string> hostlist_items(const std::string& list) {
  std::vector<std::string> out(1);
  int depth = 0;
  for (const char c : list) {
    if (c == ',' && depth == 0) {
      out.emplace_back();
      continue;
    }
    depth += c == '[' ? 1 : c == ']' ? -1 : 0;
    out.back() += c;
  }
  return out;
}

}  // namespace

std::vector<std::string> result_host_names(const Result& r) {
  std::vector<std::string> hosts;
  for (const auto* g : by_rank(r))
    if (!g->host.empty() && std::find(hosts.begin(), hosts.end(), g->host) == hosts.end())
      hosts.push_back(g->host);
  return hosts;
}

bool spans_hosts(const Result& r) { return result_host_names(r).size() >= 2; }

std::string run_gpu_list(const Result& r, const Run& run) {
  if (!spans_hosts(r)) return join_ints(run.gpus);
  std::unordered_map<int, const GpuInfo*> by_rank;
  for (const auto& g : r.gpus) by_rank.emplace(g.rank, &g);
  std::vector<std::pair<std::string, int>> gpus;
  gpus.reserve(run.gpus.size());
  for (std::size_t i = 0; i < run.gpus.size(); ++i) {
    const auto it = by_rank.find(static_cast<int>(i));
    gpus.emplace_back(it == by_rank.end() || it->second->host.empty() ? "?" : it->second->host, run.gpus[i]);
  }
  return fmt::format("{}", fmt::join(gpu_ranges(gpus), ","));
}

std::vector<std::string> gpu_ranges(const std::vector<std::pair<std::string, int>>& gpus) {
  std::vector<std::string> hosts;
  std::map<std::string, std::vector<int>> indices;
  for (const auto& [host, index] : gpus) {
    if (!indices.contains(host)) hosts.push_back(host);
    indices[host].push_back(index);
  }
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;  // ranges -> its hosts
  for (const auto& h : hosts) {
    const auto ranges = index_ranges(indices[h]);
    const auto it =
        std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == ranges; });
    if (it == groups.end())
      groups.push_back({ranges, {h}});
    else
      it->second.push_back(h);
  }
  std::vector<std::string> out;
  for (const auto& [ranges, group] : groups)
    for (const auto& item : hostlist_items(compress_hostlist(group)))
      out.push_back(fmt::format("{}:{}", item, ranges));
  return out;
}

std::vector<std::string> document_gpu_ranges(const Result& r) {
  if (!spans_hosts(r)) return document_gpu_names(r);
  std::vector<std::pair<std::string, int>> gpus;
  for (const auto* g : by_rank(r)) gpus.emplace_back(g->host.empty() ? "?" : g->host, g->index);
  return gpu_ranges(gpus);
}

std::string document_gpu_name(const Result& r, const GpuInfo& g) { return name_of(g, spans_hosts(r)); }

std::vector<std::string> document_gpu_names(const Result& r) {
  const bool across = spans_hosts(r);
  std::vector<std::string> out;
  for (const auto* g : by_rank(r)) out.push_back(name_of(*g, across));
  return out;
}

std::vector<std::string> host_gpu_names(const Result& r, const std::string& host) {
  const bool across = spans_hosts(r);
  std::vector<std::string> out;
  for (const auto* g : by_rank(r))
    if (g->host == host) out.push_back(name_of(*g, across));
  return out;
}

std::string host_named(std::string_view evidence, const std::vector<std::string>& hosts) {
  const auto part_of_name = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.';
  };
  const auto names = [&](const std::string& host) {
    for (auto at = evidence.find(host + ":"); at != std::string_view::npos;
         at = evidence.find(host + ":", at + 1)) {
      const auto after = at + host.size() + 1;
      const bool starts = at == 0 || !part_of_name(evidence[at - 1]);
      if (starts && after < evidence.size() && std::isdigit(static_cast<unsigned char>(evidence[after])))
        return true;
    }
    return false;
  };
  std::string named;
  for (const auto& h : hosts) {
    if (!names(h)) continue;
    if (!named.empty()) return "";
    named = h;
  }
  return named;
}

int result_hosts(const Result& r) {
  std::set<std::string> hosts;
  for (const auto& g : r.gpus)
    if (!g.host.empty()) hosts.insert(g.host);
  return std::max<int>(1, static_cast<int>(hosts.size()));
}

std::string gpu_name(const Result& r, const std::vector<int>& gpus) {
  const int first = gpus.empty() ? 0 : gpus.front();
  for (const auto& g : r.gpus)
    if (g.index == first && !g.name.empty()) return g.name;
  if (r.topology)
    if (const auto* g = r.topology->find_gpu(first); g && !g->name.empty()) return g->name;
  return r.gpus.empty() ? "" : r.gpus.front().name;
}

}  // namespace fb
