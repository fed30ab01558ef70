#include "analyse/gpu_names.hpp"

#include <fmt/format.h>

#include <algorithm>

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

}  // namespace

std::vector<std::string> result_host_names(const Result& r) {
  std::vector<std::string> hosts;
  for (const auto* g : by_rank(r))
    if (!g->host.empty() && std::find(hosts.begin(), hosts.end(), g->host) == hosts.end())
      hosts.push_back(g->host);
  return hosts;
}

bool spans_hosts(const Result& r) { return result_host_names(r).size() >= 2; }

std::string rank_gpu_name(const Result& r, const Run& run, std::size_t rank) {
  const int index = rank < run.gpus.size() ? run.gpus[rank] : -1;
  if (!spans_hosts(r)) return fmt::format("GPU{}", index);
  // A job's rank drives the GPU its host's local rank names: the document's GPU of that rank.
  for (const auto& g : r.gpus)
    if (g.rank == static_cast<int>(rank)) return fmt::format("{}:{}", g.host.empty() ? "?" : g.host, index);
  return fmt::format("?:{}", index);
}

std::string run_gpu_list(const Result& r, const Run& run) {
  const bool across = spans_hosts(r);
  std::string out;
  for (std::size_t i = 0; i < run.gpus.size(); ++i) {
    if (i > 0) out += ',';
    out += across ? rank_gpu_name(r, run, i) : std::to_string(run.gpus[i]);
  }
  return out;
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

}  // namespace fb
