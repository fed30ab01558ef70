#pragma once
// The few ROCm SMI declarations fabricbench calls, written from rocm_smi.h's public C API
// (librocm-smi-dev 5.2.3; the library is loaded at run time, so no ROCm header is needed to
// build). tests/unit/test_rocm_smi_header.cpp checks them against the real header when it is
// installed.
#include <cstddef>
#include <cstdint>

namespace fb::rsmi {

using Status = int;  // rsmi_status_t
constexpr Status kSuccess = 0;

// RSMI_IO_LINK_TYPE (an enum whose largest value is 0xFFFFFFFF: four bytes).
enum class IoLinkType : std::uint32_t { undefined = 0, pcie = 1, xgmi = 2 };

constexpr std::size_t kMaxFrequencies = 32;  // RSMI_MAX_NUM_FREQUENCIES

struct Frequencies {  // rsmi_frequencies_t
  std::uint32_t num_supported;
  std::uint32_t current;
  std::uint64_t frequency[kMaxFrequencies];
};

struct PcieBandwidth {  // rsmi_pcie_bandwidth_t: transfer rates in T/s, lanes for each
  Frequencies transfer_rate;
  std::uint32_t lanes[kMaxFrequencies];
};

// Every function the reader calls, as pointers: filled by dlsym from librocm_smi64, or by a test.
struct Api {
  Status (*init)(std::uint64_t flags);
  Status (*shut_down)();
  Status (*status_string)(Status, const char**);
  Status (*num_monitor_devices)(std::uint32_t*);
  Status (*dev_pci_id_get)(std::uint32_t, std::uint64_t*);  // BDFID: domain<<32 | bus<<8 | dev<<3 | fn
  Status (*dev_name_get)(std::uint32_t, char*, std::size_t);
  Status (*dev_pci_bandwidth_get)(std::uint32_t, PcieBandwidth*);
  Status (*topo_get_numa_node_number)(std::uint32_t, std::uint32_t*);
  Status (*topo_get_link_weight)(std::uint32_t, std::uint32_t, std::uint64_t*);
  Status (*topo_get_link_type)(std::uint32_t, std::uint32_t, std::uint64_t*, IoLinkType*);
  Status (*minmax_bandwidth_get)(std::uint32_t, std::uint32_t, std::uint64_t*, std::uint64_t*);  // MB/s
  Status (*is_p2p_accessible)(std::uint32_t, std::uint32_t, bool*);
};

}  // namespace fb::rsmi
