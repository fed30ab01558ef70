#pragma once
// The host's configuration as read: kernel settings, the IOMMU, PCIe ACS on the bridges above
// the GPUs, /dev/shm, the kernel log's Xid lines and NVML's health readings per GPU. Each fact
// keeps where it was read, so that a saved document is judged again the same way
// (analyse/host/host_checks.hpp holds the rules; topo/host_probe.hpp reads the facts).
#include <string>
#include <vector>

#include "model/host_fact.hpp"
#include "model/nic_facts.hpp"

namespace fb {

// A bridge (root port, switch port) on a GPU's PCI path, and its ACS Control register.
struct BridgeAcs {
  std::string bus_id;
  HostFact acs_control;  // "0x001d"; "none": the bridge has no ACS capability
};

struct GpuHostFacts {
  std::string bus_id;
  HostFact iommu_group_type;      // "identity" (passthrough), "DMA", "DMA-FQ"; "none": no group
  HostFact persistence_mode;      // "enabled" | "disabled"
  HostFact clocks_event_reasons;  // NVML's bit mask, "0x0000000000000001"
  HostFact sm_clock_max_mhz;      // the SM clock's maximum, "1980"
  HostFact sm_clock_target_mhz;   // the applications clock it runs to under load (lowered: nvidia-smi -ac)
  HostFact ecc_uncorrected_volatile;  // uncorrected ECC errors since the driver loaded
  HostFact remapped_rows_pending;     // "0" | "1": a row remap waits for a GPU reset
  HostFact remapped_rows_failure;     // "0" | "1": a remap failed (no spare rows)
  HostFact retired_pages_pending;     // "0" | "1": page retirement waits for a reset (before Ampere)
};

struct HostFacts {
  HostFact numa_balancing;  // /proc/sys/kernel/numa_balancing: "0", "1", "2"
  HostFact kernel_cmdline;  // /proc/cmdline (iommu=pt, intel_iommu=, amd_iommu=)
  HostFact iommu_units;     // /sys/class/iommu entries: "dmar0,dmar1"; "none"
  HostFact shm_bytes;       // size of /dev/shm in bytes
  HostFact xid_count;       // NVRM Xid lines in the kernel log
  std::vector<std::string> xid_lines;
  std::vector<BridgeAcs> bridges;  // every bridge on a GPU's path, in path order
  std::vector<GpuHostFacts> gpus;  // by bus id
  NetworkFacts network;            // the network ports and GPUDirect RDMA (added 2026-12-03)
};

}  // namespace fb
