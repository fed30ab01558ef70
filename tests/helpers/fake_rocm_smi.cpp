// A stand-in for librocm_smi64: exports the rsmi_* functions fabricbench calls, answering as the
// driver does on an 8 x MI300X platform laid out like tests/fixtures/topo/mi300x8-rc (synthetic:
// every pair one xGMI link, which amdgpu reports as min = max = 16 lanes x 25 Gb/s / 8 = 50000
// MB/s; hops 1, weight 15; PCIe Gen5 x16; GPUs 0-3 on NUMA node 0). Environment, read per call:
//   FAKE_RSMI_INIT_FAIL=1    rsmi_init fails (status 8, RSMI_STATUS_INIT_ERROR)
//   FAKE_RSMI_INDIRECT=A,B   the pair A-B is reached through another GPU: max bandwidth 0, and
//                            still 1 hop, as rocm-smi reports it (rocm-systems #5763)
#include <cstdlib>
#include <cstring>
#include <string>

#include "topo/rocm_smi_api.hpp"

namespace {

using fb::rsmi::Status;
constexpr Status kOk = 0;
constexpr Status kInvalidArgs = 1;
constexpr Status kInitError = 8;
constexpr std::uint32_t kDevices = 8;

bool bad(std::uint32_t dev) { return dev >= kDevices; }

bool indirect(std::uint32_t a, std::uint32_t b) {
  const char* pair = std::getenv("FAKE_RSMI_INDIRECT");
  if (pair == nullptr) return false;
  const std::string text(pair);
  const auto comma = text.find(',');
  if (comma == std::string::npos) return false;
  const auto x = static_cast<std::uint32_t>(std::stoul(text.substr(0, comma)));
  const auto y = static_cast<std::uint32_t>(std::stoul(text.substr(comma + 1)));
  return (a == x && b == y) || (a == y && b == x);
}

}  // namespace

extern "C" {

Status rsmi_init(std::uint64_t /*flags*/) { return std::getenv("FAKE_RSMI_INIT_FAIL") ? kInitError : kOk; }
Status rsmi_shut_down() { return kOk; }

Status rsmi_status_string(Status s, const char** text) {
  *text = s == kInitError
              ? "RSMI_STATUS_INIT_ERROR: An error occurred when initializing internal data structures"
              : "RSMI_STATUS_INVALID_ARGS: Invalid arguments";
  return kOk;
}

Status rsmi_num_monitor_devices(std::uint32_t* n) {
  *n = kDevices;
  return kOk;
}

// Bus 0x03 + 0x20 per GPU (0000:03:00.0 ... 0000:e3:00.0): the mi300x8-rc fixture's GPUs.
Status rsmi_dev_pci_id_get(std::uint32_t dev, std::uint64_t* bdfid) {
  if (bad(dev)) return kInvalidArgs;
  *bdfid = static_cast<std::uint64_t>(0x03 + 0x20 * dev) << 8;
  return kOk;
}

Status rsmi_dev_name_get(std::uint32_t dev, char* name, std::size_t len) {
  if (bad(dev)) return kInvalidArgs;
  std::strncpy(name, "AMD Instinct MI300X", len);
  return kOk;
}

// Gen1 to Gen5 offered, Gen5 x16 current (transfer rates in T/s).
Status rsmi_dev_pci_bandwidth_get(std::uint32_t dev, fb::rsmi::PcieBandwidth* bw) {
  if (bad(dev)) return kInvalidArgs;
  *bw = {};
  const std::uint64_t rates[] = {2500000000ULL, 5000000000ULL, 8000000000ULL, 16000000000ULL, 32000000000ULL};
  bw->transfer_rate.num_supported = 5;
  bw->transfer_rate.current = 4;
  for (int i = 0; i < 5; ++i) {
    bw->transfer_rate.frequency[i] = rates[i];
    bw->lanes[i] = 16;
  }
  return kOk;
}

Status rsmi_topo_get_numa_node_number(std::uint32_t dev, std::uint32_t* node) {
  if (bad(dev)) return kInvalidArgs;
  *node = dev / 4;
  return kOk;
}

Status rsmi_topo_get_link_weight(std::uint32_t a, std::uint32_t b, std::uint64_t* weight) {
  if (bad(a) || bad(b)) return kInvalidArgs;
  *weight = a == b ? 0 : 15;
  return kOk;
}

Status rsmi_topo_get_link_type(std::uint32_t a, std::uint32_t b, std::uint64_t* hops,
                               fb::rsmi::IoLinkType* type) {
  if (bad(a) || bad(b)) return kInvalidArgs;
  *hops = a == b ? 0 : 1;
  *type = fb::rsmi::IoLinkType::xgmi;
  return kOk;
}

Status rsmi_minmax_bandwidth_get(std::uint32_t a, std::uint32_t b, std::uint64_t* lo, std::uint64_t* hi) {
  if (bad(a) || bad(b) || a == b) return kInvalidArgs;
  *lo = 50000;
  *hi = indirect(a, b) ? 0 : 50000;
  return kOk;
}

Status rsmi_is_P2P_accessible(std::uint32_t a, std::uint32_t b, bool* accessible) {
  if (bad(a) || bad(b)) return kInvalidArgs;
  *accessible = true;
  return kOk;
}

}  // extern "C"
