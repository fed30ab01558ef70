#include "analyse/scope/host_scope.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/parse_number.hpp"
#include "topo/sysfs_probe.hpp"

namespace fb {

std::uint64_t number_or_zero(const HostFact& f, int base) {
  return f.known() ? try_parse_unsigned(f.value, base).value_or(0) : 0;  // NVML's masks use bit 63
}

HostScope host_scope(const Result& r) {
  HostScope s;
  if (!r.host.config) return s;
  s.facts = &*r.host.config;
  for (const auto& g : r.gpus) s.bus_ids.push_back(normalize_bus_id(g.pci_bus_id));
  if (s.bus_ids.empty()) {
    s.machine_wide = true;
    for (const auto& g : s.facts->gpus) s.bus_ids.push_back(g.bus_id);
  }
  std::sort(s.bus_ids.begin(), s.bus_ids.end());
  s.bus_ids.erase(std::unique(s.bus_ids.begin(), s.bus_ids.end()), s.bus_ids.end());
  return s;
}

const GpuHostFacts* gpu_facts(const HostScope& scope, const std::string& bus_id) {
  if (scope.facts == nullptr) return nullptr;
  const auto& gpus = scope.facts->gpus;
  const auto it =
      std::find_if(gpus.begin(), gpus.end(), [&](const GpuHostFacts& g) { return g.bus_id == bus_id; });
  return it == gpus.end() ? nullptr : &*it;
}

std::string gpu_label(const Result& r, const std::string& bus_id) {
  const auto* g = r.topology ? r.topology->find_gpu_by_bus(bus_id) : nullptr;
  return g != nullptr ? fmt::format("GPU {} ({})", g->index, bus_id) : bus_id;
}

std::string cite(const HostFact& f) { return fmt::format("{} ({})", f.value, f.source); }

bool nccl_fell_back(const Result& r) {
  return std::any_of(r.runs.begin(), r.runs.end(), [](const Run& run) {
    return std::any_of(run.nccl_transports.begin(), run.nccl_transports.end(),
                       [](const std::string& t) { return t.rfind("SHM", 0) == 0 || t.rfind("NET", 0) == 0; });
  });
}

}  // namespace fb
