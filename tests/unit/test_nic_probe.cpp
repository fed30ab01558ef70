// The network probe (topo/nic_probe.hpp, topo/gdr_probe.hpp) on the real H200 VM's capture and
// the synthesised IB trees: the ports, their rates, states, NUMA nodes, PCI paths and distances
// to the GPUs, what is skipped, and the GPUDirect RDMA facts; their JSON both ways and print.
#include <gtest/gtest.h>

#include <sstream>

#include "model/result_json.hpp"
#include "nic_fixtures.hpp"
#include "report/network_console.hpp"
#include "topo/gdr_probe.hpp"
#include "topo/nic_probe.hpp"
#include "topo/sysfs_probe.hpp"

namespace {

fb::NetworkFacts network_of(const std::string& name) {
  const auto root = nic_fixture(name);
  return fb::read_network(root, fb::read_sysfs(root).gpus);
}

const fb::NicPort* port(const fb::NetworkFacts& n, const std::string& name) {
  for (const auto& p : n.ports)
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace

TEST(NicProbe, RealH200VmHasOneVirtioEthernetPortAndNoRdma) {
  const auto n = network_of("h200-net");
  EXPECT_TRUE(n.read);
  ASSERT_EQ(n.ports.size(), 1U);  // lo, ifb0 and ifb1 have no device: skipped
  const auto& eth = n.ports[0];
  EXPECT_EQ(eth.name, "eth0");
  EXPECT_EQ(eth.kind, "Ethernet");
  EXPECT_EQ(eth.rate_gbps, 0);  // virtio's speed reads -1: unknown
  EXPECT_EQ(eth.state, "up");
  EXPECT_TRUE(eth.up);
  EXPECT_EQ(eth.numa_node, -1);
  // Its `device` is virtio2: the PCI function is the virtio device's parent.
  EXPECT_EQ(eth.bus_id, "0000:00:03.0");
  EXPECT_EQ(eth.pci_path, (std::vector<std::string>{"pci0000:00", "0000:00:03.0"}));
  ASSERT_EQ(eth.gpus.size(), 1U);
  EXPECT_EQ(eth.gpus[0].bus_id, "0000:00:06.0");
  EXPECT_EQ(eth.gpus[0].path_class, "PHB");  // both on the VM's one root bus
  EXPECT_EQ(n.gdr_peer_module.value, "none");
  EXPECT_EQ(n.gdr_dma_buf.value, "possible");  // 6.18 with NVIDIA's open kernel module
}

TEST(NicProbe, EightIbPortsBesideTheirGpus) {
  const auto n = network_of("ib8");
  ASSERT_EQ(n.ports.size(), 9U);  // 8 IB ports, eno1; the IPoIB interfaces, lo and docker0 not
  const auto* ib = port(n, "mlx5_4:1");
  ASSERT_NE(ib, nullptr);
  EXPECT_EQ(ib->kind, "IB");
  EXPECT_EQ(ib->rate_gbps, 400);
  EXPECT_EQ(ib->state, "ACTIVE");
  EXPECT_EQ(ib->phys_state, "LinkUp");
  EXPECT_TRUE(ib->up);
  EXPECT_EQ(ib->netdev, "ibp84s0");
  EXPECT_EQ(ib->numa_node, 1);
  EXPECT_EQ(ib->bus_id, "0000:54:00.0");
  EXPECT_EQ(ib->source, "/sys/class/infiniband/mlx5_4/ports/1");
  ASSERT_EQ(ib->gpus.size(), 8U);
  EXPECT_EQ(ib->gpus[4].path_class, "PIX");   // its own GPU, under the same switch
  EXPECT_EQ(ib->gpus[5].path_class, "NODE");  // another root complex of its socket
  EXPECT_EQ(ib->gpus[0].path_class, "SYS");   // the other socket
  const auto* eno = port(n, "eno1");
  ASSERT_NE(eno, nullptr);
  EXPECT_EQ(eno->kind, "Ethernet");
  EXPECT_EQ(eno->rate_gbps, 1);
  EXPECT_EQ(n.gdr_peer_module.value, "nvidia_peermem");
  EXPECT_EQ(n.gdr_dma_buf.value, "not possible");  // the proprietary module
}

TEST(NicProbe, FaultyTreeReadsTheDownPortTheSlowPortAndNoGdr) {
  const auto n = network_of("ib8-faulty");
  const auto* down = port(n, "mlx5_3:1");
  ASSERT_NE(down, nullptr);
  EXPECT_EQ(down->state, "DOWN");
  EXPECT_EQ(down->phys_state, "Disabled");
  EXPECT_FALSE(down->up);
  EXPECT_EQ(port(n, "mlx5_5:1")->rate_gbps, 200);
  EXPECT_EQ(n.gdr_peer_module.value, "none");
  EXPECT_EQ(n.gdr_dma_buf.value, "not possible");
  EXPECT_EQ(n.gdr_dma_buf.note, "kernel 5.4.0-182-generic is older than 5.12");
}

TEST(NicProbe, WhatATreeDoesNotHoldIsUnknownNotNone) {
  // The 2 x H200 topology capture took no /sys/module, /proc or network: nothing is guessed.
  const auto n = network_of("h200x2");
  EXPECT_TRUE(n.read);
  EXPECT_TRUE(n.ports.empty());
  EXPECT_FALSE(n.gdr_peer_module.known());
  EXPECT_TRUE(n.gdr_peer_module.not_captured());
  EXPECT_FALSE(n.gdr_dma_buf.known());
  std::ostringstream out;
  fb::print_network(out, n, nullptr);
  EXPECT_NE(out.str().find("no network ports found"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("unknown"), std::string::npos) << out.str();
}

TEST(NicProbe, StateWordsAndKernelVersions) {
  EXPECT_EQ(fb::ib_state_word("4: ACTIVE"), "ACTIVE");
  EXPECT_EQ(fb::ib_state_word("5: LinkUp"), "LinkUp");
  EXPECT_EQ(fb::ib_state_word("DOWN"), "DOWN");
  EXPECT_EQ(fb::ib_state_word(""), "");
  EXPECT_EQ(fb::kernel_version("6.18.44-fc-v973-gpu"), std::make_pair(6, 18));
  EXPECT_EQ(fb::kernel_version("5.4.0-182-generic"), std::make_pair(5, 4));
  EXPECT_FALSE(fb::kernel_version("linux").has_value());
  EXPECT_FALSE(fb::kernel_version("6").has_value());
}

TEST(NicProbe, PrintsRatesInGbpsWithStateNumaAndDistances) {
  const auto r = nic_result("ib8-faulty");
  std::ostringstream out;
  fb::print_network(out, r.host.config->network, &*r.topology);
  const auto text = out.str();
  EXPECT_NE(text.find("mlx5_5:1"), std::string::npos) << text;
  EXPECT_NE(text.find("200 Gb/s"), std::string::npos) << text;
  EXPECT_NE(text.find("DOWN/Disabled"), std::string::npos) << text;
  EXPECT_NE(text.find("GPU5 PIX"), std::string::npos) << text;
  EXPECT_EQ(text.find("no network ports found"), std::string::npos) << text;
}

TEST(NicProbe, NetworkFactsRoundTripThroughTheDocument) {
  auto r = nic_result("ib8-faulty");
  const auto back = fb::parse_result(nlohmann::json(r).dump());
  ASSERT_TRUE(back.host.config.has_value());
  const auto& n = back.host.config->network;
  EXPECT_TRUE(n.read);
  ASSERT_EQ(n.ports.size(), r.host.config->network.ports.size());
  const auto* p = port(n, "mlx5_3:1");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->state, "DOWN");
  EXPECT_EQ(p->pci_path, port(r.host.config->network, "mlx5_3:1")->pci_path);
  EXPECT_EQ(p->gpus.size(), 8U);
  EXPECT_EQ(n.gdr_dma_buf.note, r.host.config->network.gdr_dma_buf.note);
  // A document from before the network facts: not read, no ports.
  auto j = nlohmann::json(r);
  j["host"]["config"].erase("network");
  EXPECT_FALSE(fb::parse_result(j.dump()).host.config->network.read);
}
