#include "core/topology_json.hpp"

namespace fb {
using nlohmann::json;

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PcieLinkState, speed_gts, max_speed_gts, width, max_width, gen, max_gen)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(FabricLink, index, active, version, remote, remote_type)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TopoGpu, index, name, vendor, bus_id, device_id, pci_path, numa_node,
                                   cpulist, pcie, links)

namespace {

void pair_to_json(json& j, const TopoPair& p) {
  j = json{{"a", p.a},
           {"b", p.b},
           {"connection", p.connection},
           {"pcie_class", p.pcie_class},
           {"links", p.links},
           {"link_gbps", p.link_gbps},
           {"wire_gbps", p.wire_gbps},
           {"limit", p.limit},
           {"sm_ceiling_gbps", p.sm_ceiling_gbps},
           {"ce_ceiling_gbps", p.ce_ceiling_gbps},
           {"p2p", p.p2p ? json(*p.p2p) : json(nullptr)},
           {"p2p_detail", p.p2p_detail}};
}

TopoPair pair_from_json(const json& j) {
  TopoPair p;
  j.at("a").get_to(p.a);
  j.at("b").get_to(p.b);
  j.at("connection").get_to(p.connection);
  j.at("pcie_class").get_to(p.pcie_class);
  j.at("links").get_to(p.links);
  j.at("link_gbps").get_to(p.link_gbps);
  j.at("wire_gbps").get_to(p.wire_gbps);
  j.at("limit").get_to(p.limit);
  j.at("sm_ceiling_gbps").get_to(p.sm_ceiling_gbps);
  j.at("ce_ceiling_gbps").get_to(p.ce_ceiling_gbps);
  if (!j.at("p2p").is_null()) p.p2p = j.at("p2p").get<bool>();
  j.at("p2p_detail").get_to(p.p2p_detail);
  return p;
}

}  // namespace

void to_json(json& j, const Topology& t) {
  json pairs = json::array();
  for (const auto& p : t.pairs) {
    json pj;
    pair_to_json(pj, p);
    pairs.push_back(pj);
  }
  json numa = json::object();
  for (const auto& [node, cpus] : t.numa_cpulists) numa[std::to_string(node)] = cpus;
  j = json{{"gpus", t.gpus},
           {"pairs", pairs},
           {"numa_cpulists", numa},
           {"sources", t.sources},
           {"missing", t.missing}};
}

void from_json(const json& j, Topology& t) {
  j.at("gpus").get_to(t.gpus);
  t.pairs.clear();
  for (const auto& pj : j.at("pairs")) t.pairs.push_back(pair_from_json(pj));
  t.numa_cpulists.clear();
  for (const auto& [node, cpus] : j.at("numa_cpulists").items())
    t.numa_cpulists[std::stoi(node)] = cpus.get<std::string>();
  j.at("sources").get_to(t.sources);
  j.at("missing").get_to(t.missing);
}

}  // namespace fb
