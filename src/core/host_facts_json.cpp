#include "core/host_facts_json.hpp"

namespace fb {
using nlohmann::json;

namespace {
template <typename T>
void read_if_present(const json& j, const char* key, T& out) {
  if (j.contains(key) && !j.at(key).is_null()) j.at(key).get_to(out);
}
}  // namespace

void to_json(json& j, const HostFact& v) {
  j = json{{"value", v.value}, {"source", v.source}, {"note", v.note}};
}
void from_json(const json& j, HostFact& v) {
  read_if_present(j, "value", v.value);
  read_if_present(j, "source", v.source);
  read_if_present(j, "note", v.note);
}

void to_json(json& j, const BridgeAcs& v) { j = json{{"bus_id", v.bus_id}, {"acs_control", v.acs_control}}; }
void from_json(const json& j, BridgeAcs& v) {
  read_if_present(j, "bus_id", v.bus_id);
  read_if_present(j, "acs_control", v.acs_control);
}

void to_json(json& j, const GpuHostFacts& v) {
  j = json{{"bus_id", v.bus_id},
           {"iommu_group_type", v.iommu_group_type},
           {"persistence_mode", v.persistence_mode},
           {"clocks_event_reasons", v.clocks_event_reasons},
           {"ecc_uncorrected_volatile", v.ecc_uncorrected_volatile},
           {"remapped_rows_pending", v.remapped_rows_pending},
           {"remapped_rows_failure", v.remapped_rows_failure},
           {"retired_pages_pending", v.retired_pages_pending}};
}
void from_json(const json& j, GpuHostFacts& v) {
  read_if_present(j, "bus_id", v.bus_id);
  read_if_present(j, "iommu_group_type", v.iommu_group_type);
  read_if_present(j, "persistence_mode", v.persistence_mode);
  read_if_present(j, "clocks_event_reasons", v.clocks_event_reasons);
  read_if_present(j, "ecc_uncorrected_volatile", v.ecc_uncorrected_volatile);
  read_if_present(j, "remapped_rows_pending", v.remapped_rows_pending);
  read_if_present(j, "remapped_rows_failure", v.remapped_rows_failure);
  read_if_present(j, "retired_pages_pending", v.retired_pages_pending);
}

void to_json(json& j, const HostFacts& v) {
  j = json{{"numa_balancing", v.numa_balancing},
           {"kernel_cmdline", v.kernel_cmdline},
           {"iommu_units", v.iommu_units},
           {"shm_bytes", v.shm_bytes},
           {"xid_count", v.xid_count},
           {"xid_lines", v.xid_lines},
           {"bridges", v.bridges},
           {"gpus", v.gpus}};
}
void from_json(const json& j, HostFacts& v) {
  read_if_present(j, "numa_balancing", v.numa_balancing);
  read_if_present(j, "kernel_cmdline", v.kernel_cmdline);
  read_if_present(j, "iommu_units", v.iommu_units);
  read_if_present(j, "shm_bytes", v.shm_bytes);
  read_if_present(j, "xid_count", v.xid_count);
  read_if_present(j, "xid_lines", v.xid_lines);
  read_if_present(j, "bridges", v.bridges);
  read_if_present(j, "gpus", v.gpus);
}

}  // namespace fb
