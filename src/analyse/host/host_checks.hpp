#pragma once
// Rules over the host facts a document carries (result.host.config, model/host_facts.hpp), for
// the GPUs of the run (every GPU of the machine where the document names none, e.g. `topo`).
// Each finding cites the value read and where it was read, and the fix.
//   HOST_ACS_REDIRECT      PCIe ACS sends peer traffic between two of the run's GPUs (a pair
//                          without a GPU fabric) up to the root complex; error when P2P is
//                          also broken (no peer access, or NCCL fell back to SHM/NET)
//   HOST_IOMMU_TRANSLATION the run's GPUs sit in IOMMU groups that translate DMA (not
//                          passthrough); warning where PCIe peer traffic is involved, else info
//   HOST_NUMA_BALANCING    automatic NUMA balancing on (info; warning on AMD GPUs)
//   HOST_PERSISTENCE_OFF   GPU persistence mode off (info)
//   HOST_CLOCKS_THROTTLED  NVML clock event reasons: HW slowdown, HW thermal, power brake
//                          (error), SW thermal (warning), SW power cap (info)
//   HOST_ECC_UNCORRECTED   volatile uncorrected ECC errors (error)
//   HOST_ROW_REMAP         a row remap pending (warning) or failed (error); retired pages
//                          pending (warning)
//   HOST_XID               NVRM Xid lines in the kernel log for the run's GPUs
//   HOST_SHM_SMALL         /dev/shm under 1 GiB with more than one GPU
//   HOST_NOT_READABLE      facts that could not be read (ACS without root, the kernel log, NVML)
#include <cstdint>
#include <string>
#include <vector>

#include "model/result.hpp"

namespace fb {

std::vector<Finding> check_host_pcie(const Result& r);    // ACS, IOMMU
std::vector<Finding> check_host_kernel(const Result& r);  // NUMA balancing, /dev/shm, Xid
std::vector<Finding> check_host_gpus(const Result& r);    // NVML: persistence, clocks, ECC, remapping
std::vector<Finding> check_host_unreadable(const Result& r);

// All of the above, in that order; nothing when the document carries no host facts.
std::vector<Finding> check_host(const Result& r);

// NVML's clock event reasons in `mask` that hold a GPU's clocks down ("SW power cap", "HW slowdown").
std::vector<std::string> clock_reason_names(std::uint64_t mask);

}  // namespace fb
