#pragma once
// What NVML says about the GPUs' NVLinks and peer-to-peer status, as plain data. The live
// probe (nvml_probe.hpp) fills it; tests load captured ones from JSON fixtures.
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <utility>
#include <vector>

#include "model/topology.hpp"

namespace fb {

struct NvmlGpu {
  std::string name;
  // Every link index NVML reports, active or not; `version` holds NVML's nvmlNvlinkVersion_t
  // value as read (the builder turns it into the NVLink generation).
  std::vector<FabricLink> links;
};

struct NvmlReadout {
  std::string driver;                   // "580.159.04"
  std::map<std::string, NvmlGpu> gpus;  // by normalized bus id
  // NVML P2P read status per ordered pair of bus ids: "OK", "not supported", ...
  std::map<std::pair<std::string, std::string>, std::string> p2p;
};

void to_json(nlohmann::json& j, const NvmlReadout& r);
void from_json(const nlohmann::json& j, NvmlReadout& r);

// A saved readout (--nvml-file) from its text; anything malformed is Error(usage) with the
// JSON path or nlohmann's reason.
NvmlReadout parse_nvml_readout(const std::string& text);

}  // namespace fb
