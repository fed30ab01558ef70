#pragma once
// JSON of the host facts (the result document's "host.config", docs/result-schema.md). Reading
// tolerates absent fields (documents from older builds carry fewer facts): each takes its default.
#include <nlohmann/json.hpp>

#include "model/host_facts.hpp"

namespace fb {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(HostFact, value, source, note)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(BridgeAcs, bus_id, acs_control)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(GpuHostFacts, bus_id, iommu_group_type, persistence_mode,
                                                clocks_event_reasons, sm_clock_max_mhz, sm_clock_target_mhz,
                                                ecc_uncorrected_volatile, remapped_rows_pending,
                                                remapped_rows_failure, retired_pages_pending)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(NicGpuPath, bus_id, path_class)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(NicPort, name, kind, netdev, rate_gbps, state, phys_state, up,
                                                numa_node, bus_id, pci_path, gpus, source)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(NetworkFacts, read, ports, gdr_peer_module, gdr_dma_buf)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(HostFacts, numa_balancing, kernel_cmdline, iommu_units,
                                                shm_bytes, xid_count, xid_lines, bridges, gpus, network)

}  // namespace fb
