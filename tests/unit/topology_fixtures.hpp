#pragma once
// Loads a topology fixture (tests/fixtures/topo/NAME: sysfs tree, NVML readout, rocm-smi text).
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "topo/topology_builder.hpp"

inline std::string read_fixture(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline fb::Topology load_topology_fixture(const std::string& name) {
  const std::string dir = std::string(FB_FIXTURE_DIR) + "/topo/" + name;
  fb::TopologyInputs in;
  in.sysfs = fb::read_sysfs(dir);
  if (std::ifstream(dir + "/nvml.json"))
    in.nvml = nlohmann::json::parse(read_fixture(dir + "/nvml.json")).get<fb::NvmlReadout>();
  if (std::ifstream(dir + "/rocm-smi-showtopo.txt"))
    in.amd = fb::parse_rocm_smi_topo(read_fixture(dir + "/rocm-smi-showtopo.txt"));
  return fb::build_topology(in);
}
