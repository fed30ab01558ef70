#include "model/topology_json.hpp"

#include "model/json_limits.hpp"

namespace fb {
using nlohmann::json;

void to_json(json& j, const Topology& t) {
  json numa = json::object();
  for (const auto& [node, cpus] : t.numa_cpulists) numa[std::to_string(node)] = cpus;
  j = json{{"gpus", t.gpus},
           {"pairs", t.pairs},
           {"numa_cpulists", numa},
           {"sources", t.sources},
           {"missing", t.missing}};
}

void from_json(const json& j, Topology& t) {
  j.at("gpus").get_to(t.gpus);
  j.at("pairs").get_to(t.pairs);
  t.numa_cpulists.clear();
  for (const auto& [node, cpus] : j.at("numa_cpulists").items())
    t.numa_cpulists[json_key_number(node, "$.topology.numa_cpulists", 0, kMaxGpus - 1)] =
        cpus.get<std::string>();
  j.at("sources").get_to(t.sources);
  j.at("missing").get_to(t.missing);
}

}  // namespace fb
