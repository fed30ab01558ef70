#pragma once
// Result documents built on the host fixture trees (tests/fixtures/host/pcie-switch/NAME, and the
// real 2 x H200 capture): the topology and host facts read from the tree, both GPUs in the run,
// NVML readings of a healthy GPU (NVML is not in the trees: rules over it set the fields they
// test).
#include <string>

#include "model/result.hpp"
#include "topo/host_probe.hpp"
#include "topo/topology_builder.hpp"

inline std::string host_fixture(const std::string& name) {
  return std::string(FB_FIXTURE_DIR) + "/host/pcie-switch/" + name;
}

inline fb::GpuHostFacts healthy_nvml(const std::string& bus_id) {
  fb::GpuHostFacts g;
  g.bus_id = bus_id;
  g.persistence_mode = {"enabled", "NVML nvmlDeviceGetPersistenceMode", ""};
  g.clocks_event_reasons = {"0x0000000000000001", "NVML nvmlDeviceGetCurrentClocksEventReasons", ""};  // idle
  g.ecc_uncorrected_volatile = {"0", "NVML nvmlDeviceGetTotalEccErrors(uncorrected, volatile)", ""};
  g.remapped_rows_pending = {"0", "NVML nvmlDeviceGetRemappedRows", ""};
  g.remapped_rows_failure = {"0", "NVML nvmlDeviceGetRemappedRows", ""};
  g.retired_pages_pending = {"", "NVML nvmlDeviceGetRetiredPagesPendingStatus", "NVML: Not Supported"};
  return g;
}

// The real 2 x H200 machine: its sysfs (topology) and its host files were captured apart.
inline const std::string kRealH200Topology = std::string(FB_FIXTURE_DIR) + "/topo/h200x2";
inline const std::string kRealH200Host = std::string(FB_FIXTURE_DIR) + "/host/h200x2";

// The topology read from `sysfs_root`, the host facts from `host_root`; `gpus`: how many of the
// tree's GPUs the run used (the first ones).
inline fb::Result host_result_from(const std::string& sysfs_root, const std::string& host_root,
                                   std::size_t gpus = 2) {
  fb::TopologyInputs in;
  in.sysfs = fb::read_sysfs(sysfs_root);
  fb::Result r;
  r.topology = fb::build_topology(in);
  r.host.config = fb::read_host_files(host_root, in.sysfs.gpus);
  for (auto& g : r.host.config->gpus) {
    auto nvml = healthy_nvml(g.bus_id);
    nvml.iommu_group_type = g.iommu_group_type;
    g = nvml;
  }
  for (std::size_t i = 0; i < gpus && i < in.sysfs.gpus.size(); ++i) {
    fb::GpuInfo info;
    info.index = static_cast<int>(i);
    info.rank = static_cast<int>(i);
    info.pci_bus_id = in.sysfs.gpus[i].bus_id;
    info.host = "node-1";
    r.gpus.push_back(info);
  }
  return r;
}

inline fb::Result host_result(const std::string& tree, std::size_t gpus = 2) {
  return host_result_from(host_fixture(tree), host_fixture(tree), gpus);
}
