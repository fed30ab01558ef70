#pragma once
// JSON of the topology (embedded in every result document), field by field.
#include <nlohmann/json.hpp>

#include "model/json_optional.hpp"
#include "model/topology.hpp"

namespace fb {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PcieLinkState, speed_gts, max_speed_gts, width, max_width, gen, max_gen)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(FabricLink, index, active, version, remote, remote_type)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TopoGpu, index, name, vendor, bus_id, device_id, pci_path, numa_node,
                                   cpulist, pcie, links)

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TopoPair, a, b, connection, pcie_class, links, link_gbps, wire_gbps, limit,
                                   sm_ceiling_gbps, ce_ceiling_gbps, p2p, p2p_detail)

// numa_cpulists is a JSON object keyed by the node number as text.
void to_json(nlohmann::json& j, const Topology& t);
void from_json(const nlohmann::json& j, Topology& t);

}  // namespace fb
