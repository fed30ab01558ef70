#include "model/nccl_setup_json.hpp"

namespace fb {
using nlohmann::json;

void to_json(json& j, const NcclNic& v) {
  j = json{{"net", v.net},   {"index", v.index}, {"device", v.device},  {"port", v.port},
           {"link", v.link}, {"sharp", v.sharp}, {"address", v.address}};
}
void from_json(const json& j, NcclNic& v) {
  j.at("net").get_to(v.net);
  j.at("index").get_to(v.index);
  j.at("device").get_to(v.device);
  j.at("port").get_to(v.port);
  j.at("link").get_to(v.link);
  j.at("sharp").get_to(v.sharp);
  j.at("address").get_to(v.address);
}

json nccl_setup_json(const Run& run) {
  json j{{"transports", run.nccl_transports},
         {"coll_channels", run.nccl_coll_channels.value_or(0)},
         {"p2p_channels", run.nccl_p2p_channels.value_or(0)}};
  if (run.nccl_nvls_channels) j["nvls_channels"] = *run.nccl_nvls_channels;
  if (run.nccl_nvls_available) j["nvls_available"] = *run.nccl_nvls_available;
  if (run.nccl_nics) j["nics"] = *run.nccl_nics;
  if (!run.nccl_network.empty()) j["network"] = run.nccl_network;
  return j;
}

void read_nccl_setup(const json& j, Run& run) {
  j.at("transports").get_to(run.nccl_transports);
  // NCCL reports at least one collective and one p2p channel: 0 is "not in its log".
  const auto count = [](const json& n) {
    return n.get<int>() > 0 ? std::optional<int>(n.get<int>()) : std::nullopt;
  };
  run.nccl_coll_channels = count(j.at("coll_channels"));
  run.nccl_p2p_channels = count(j.at("p2p_channels"));
  if (j.contains("nvls_channels")) run.nccl_nvls_channels = j.at("nvls_channels").get<int>();
  if (j.contains("nvls_available")) run.nccl_nvls_available = j.at("nvls_available").get<bool>();
  if (j.contains("nics")) run.nccl_nics = j.at("nics").get<std::vector<NcclNic>>();
  run.nccl_network = j.value("network", std::string());
}

}  // namespace fb
