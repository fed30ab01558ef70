#include "topo/nvml_readout.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "model/json_limits.hpp"
#include "model/topology_json.hpp"

namespace fb {
using nlohmann::json;

void to_json(json& j, const NvmlReadout& r) {
  json gpus = json::object();
  for (const auto& [bus, g] : r.gpus) {
    gpus[bus] = {{"name", g.name}, {"links", g.links}};
  }
  json p2p = json::array();
  for (const auto& [pair, status] : r.p2p)
    p2p.push_back({{"a", pair.first}, {"b", pair.second}, {"status", status}});
  j = {{"driver", r.driver}, {"gpus", gpus}, {"p2p", p2p}};
}

void from_json(const json& j, NvmlReadout& r) {
  j.at("driver").get_to(r.driver);
  r.gpus.clear();
  for (const auto& [bus, g] : j.at("gpus").items()) {
    NvmlGpu gpu;
    g.at("name").get_to(gpu.name);
    g.at("links").get_to(gpu.links);
    r.gpus[bus] = std::move(gpu);
  }
  r.p2p.clear();
  for (const auto& p : j.at("p2p"))
    r.p2p[{p.at("a").get<std::string>(), p.at("b").get<std::string>()}] = p.at("status").get<std::string>();
}

NvmlReadout parse_nvml_readout(const std::string& text) {
  try {
    const auto j = parse_input_json(text);
    if (!j.is_object()) FB_USAGE_ERROR(fmt::format("$: expected an object, got {}", j.type_name()));
    check_json_limits(j);
    return j.get<NvmlReadout>();
  } catch (const json::exception& e) {  // out_of_range too: a number like 1e999
    FB_USAGE_ERROR(e.what());
  }
}

}  // namespace fb
