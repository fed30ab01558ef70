#pragma once
// Result documents on the network fixture trees (tests/fixtures/topo/README.md): the topology,
// host facts and network ports read from one tree, every GPU of the tree in the run.
#include <string>

#include "host_fixtures.hpp"

inline std::string nic_fixture(const std::string& name) {
  return std::string(FB_FIXTURE_DIR) + "/topo/" + name;
}

inline fb::Result nic_result(const std::string& name) {
  const auto root = nic_fixture(name);
  return host_result_from(root, root, 8);
}
