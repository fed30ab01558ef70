// The GPU table (gpu_hardware.hpp): the vendors' data sheets for the links, the threads that
// established what the driver allows, and the reference platforms for the network. docs/model.md,
// "GPUs without a topology", prints the same rows.
#include "analyse/expect/gpu_hardware.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "analyse/scope/gpu_model.hpp"

namespace fb {
namespace {

constexpr auto S = GpuFabric::nvswitch;
constexpr auto X = GpuFabric::xgmi_mesh;
constexpr auto B = GpuFabric::bridge;
constexpr auto P = GpuFabric::platform;
constexpr auto N = GpuFabric::none;
constexpr auto Y = PeerAccess::supported;
constexpr auto No = PeerAccess::none_by_design;
constexpr auto U = PeerAccess::unknown;

constexpr std::string_view kH100 =
    "NVIDIA H100 data sheet (SXM5: NVLink 900 GB/s = 18 NVLink4 links, PCIe Gen5 x16); HGX H100: 8 GPUs on "
    "third-generation NVSwitch (NVLink SHARP)";
constexpr std::string_view kH200 =
    "NVIDIA H200 data sheet (SXM: NVLink 900 GB/s, PCIe Gen5 x16); HGX H200: 8 GPUs on NVSwitch";
constexpr std::string_view kH100Pcie =
    "NVIDIA H100 data sheet (PCIe and NVL cards: an NVLink bridge of 600 GB/s joins 2 cards where fitted, "
    "PCIe Gen5 x16)";
constexpr std::string_view kA100 =
    "NVIDIA A100 data sheet (SXM4: NVLink 600 GB/s = 12 NVLink3 links, PCIe Gen4 x16); HGX A100 8-GPU: "
    "NVSwitch (the 4-GPU board joins every pair by 4 links, 12 per GPU as well)";
constexpr std::string_view kA100Pcie =
    "NVIDIA A100 data sheet (PCIe card: an NVLink bridge joins 2 cards where fitted, PCIe Gen4 x16)";
constexpr std::string_view kBlackwell =
    "NVIDIA HGX B200 / B300: 8 GPUs on NVSwitch, NVLink5 1.8 TB/s = 18 links per GPU (NVIDIA Blackwell "
    "architecture brief; the PCIe link not stated here)";
constexpr std::string_view kNvl72 =
    "NVIDIA GB200 / GB300 NVL72: 72 GPUs in one NVLink domain (18 compute trays of 4 GPUs, NVLink5 1.8 TB/s "
    "= "
    "18 links per GPU through the NVLink switch trays); NCCL counts such a domain as one node (MNNVL)";
constexpr std::string_view kV100 =
    "NVIDIA V100 data sheet (SXM2: 6 NVLink2 links, 300 GB/s; which pairs they join is the platform's: "
    "DGX-1's "
    "hybrid cube mesh or DGX-2's NVSwitch; PCIe Gen3 x16)";
constexpr std::string_view kA40 =
    "NVIDIA A40 data sheet (PCIe Gen4 x16; an NVLink bridge of 112.5 GB/s joins 2 cards where fitted)";
constexpr std::string_view kPcieAda = "NVIDIA L40S / L40 / L4 data sheets (PCIe Gen4 x16, no NVLink)";
constexpr std::string_view kT4 = "NVIDIA T4 data sheet (PCIe Gen3 x16, no NVLink)";
constexpr std::string_view kRtx4090 =
    "NVIDIA GeForce RTX 4090 (PCIe Gen4 x16, no NVLink); the driver gives GeForce RTX 40 no peer-to-peer "
    "access (https://github.com/NVIDIA/nccl/issues/1127, https://github.com/NVIDIA/nccl-tests/issues/117; "
    "tinygrad/open-gpu-kernel-modules patches the driver to allow it)";
constexpr std::string_view kRtx5090 =
    "NVIDIA GeForce RTX 5090 (PCIe Gen5 x16, no NVLink); no peer-to-peer access, NCCL stages through host "
    "memory (https://github.com/NVIDIA/nccl-tests/issues/287, https://github.com/NVIDIA/nccl/issues/1637; "
    "NVIDIA on 8 x 5090 at 28 GB/s: \"on PCI systems the performance ... is usually determined by the "
    "bandwidth your CPU and memory can deliver\", https://github.com/NVIDIA/nccl/issues/1639)";
constexpr std::string_view kMi300 =
    "AMD Instinct MI300X / MI325X data sheets (7 xGMI links, one to each peer of the 8-GPU platform; PCIe "
    "Gen5 x16)";
constexpr std::string_view kMi355 =
    "AMD Instinct MI350X / MI355X specifications (7 xGMI links, one to each peer; PCIe Gen5 x16)";
constexpr std::string_view kMi250 =
    "AMD Instinct MI250X / MI250 data sheet (xGMI between GCDs and packages as the platform joins them; PCIe "
    "Gen4 x16)";
constexpr std::string_view kMi100 =
    "AMD Instinct MI100 data sheet (PCIe Gen4 x16; Infinity Fabric bridges join hives of 4 cards where "
    "fitted)";

constexpr std::string_view kRdmaHopper =
    "8 x 400 Gb/s per 8 GPUs on NVIDIA DGX H100 and Azure ND H100 v5 (Azure/ai-infrastructure-on-azure "
    "skills/ai-infra/references/sku_baselines.md: \"8 x 400 Gb/s (ib0-ib7)\"), 8 x 200 Gb/s on GCP a3-mega "
    "(tests/fixtures/imports/README.md)";
constexpr std::string_view kRdmaB200 =
    "8 x 400 Gb/s per 8 GPUs (AWS P6-B200, 8 x 400 Gbps EFA: tests/fixtures/imports/README.md; NVIDIA DGX "
    "B200)";
constexpr std::string_view kRdmaNvl =
    "4 x 400 Gb/s per tray of 4 GPUs (Azure ND GB300 v6: \"4 x 400 Gb/s (ib0-ib3)\", "
    "Azure/ai-infrastructure-on-azure sku_baselines.md) to 4 x 800 Gb/s (ConnectX-8)";
constexpr std::string_view kRdmaA100 =
    "4 x 100 Gb/s EFA per 8 GPUs (AWS p4d, 400 Gbps) to 8 x 200 Gb/s HDR (NVIDIA DGX A100)";

constexpr std::array kRows{
    GpuHardware{"H100", S, 4, 18, 8, 8, 5, 16, Y, true, 200, 400, kH100, kRdmaHopper},
    GpuHardware{"H200", S, 4, 18, 8, 8, 5, 16, Y, true, 200, 400, kH200, kRdmaHopper},
    GpuHardware{"H100 PCIe", B, 4, 0, 2, 0, 5, 16, Y, false, 0, 0, kH100Pcie, ""},
    GpuHardware{"H100 NVL", B, 4, 0, 2, 0, 5, 16, Y, false, 0, 0, kH100Pcie, ""},
    GpuHardware{"A100", S, 3, 12, 8, 8, 4, 16, Y, false, 50, 200, kA100, kRdmaA100},
    GpuHardware{"A100 PCIe", B, 3, 0, 2, 0, 4, 16, Y, false, 0, 0, kA100Pcie, ""},
    GpuHardware{"B200", S, 5, 18, 8, 8, 0, 0, Y, true, 400, 400, kBlackwell, kRdmaB200},
    GpuHardware{"B300", S, 5, 18, 8, 8, 0, 0, Y, true, 400, 400, kBlackwell, kRdmaB200},
    GpuHardware{"GB200", S, 5, 18, 72, 4, 0, 0, Y, true, 400, 800, kNvl72, kRdmaNvl},
    GpuHardware{"GB300", S, 5, 18, 72, 4, 0, 0, Y, true, 400, 800, kNvl72, kRdmaNvl},
    GpuHardware{"V100", P, 2, 6, 8, 8, 3, 16, Y, false, 0, 0, kV100, ""},
    GpuHardware{"V100 PCIe", N, 0, 0, 0, 0, 3, 16, Y, false, 0, 0, kV100, ""},
    GpuHardware{"A40", B, 3, 0, 2, 0, 4, 16, Y, false, 0, 0, kA40, ""},
    GpuHardware{"L40S", N, 0, 0, 0, 0, 4, 16, U, false, 0, 0, kPcieAda, ""},
    GpuHardware{"L40", N, 0, 0, 0, 0, 4, 16, U, false, 0, 0, kPcieAda, ""},
    GpuHardware{"L4", N, 0, 0, 0, 0, 4, 16, U, false, 0, 0, kPcieAda, ""},
    GpuHardware{"T4", N, 0, 0, 0, 0, 3, 16, U, false, 0, 0, kT4, ""},
    GpuHardware{"4090", N, 0, 0, 0, 0, 4, 16, No, false, 0, 0, kRtx4090, ""},
    GpuHardware{"5090", N, 0, 0, 0, 0, 5, 16, No, false, 0, 0, kRtx5090, ""},
    GpuHardware{"MI300X", X, 0, 7, 8, 8, 5, 16, Y, false, 0, 0, kMi300, ""},
    GpuHardware{"MI325X", X, 0, 7, 8, 8, 5, 16, Y, false, 0, 0, kMi300, ""},
    GpuHardware{"MI350X", X, 0, 7, 8, 8, 5, 16, Y, false, 0, 0, kMi355, ""},
    GpuHardware{"MI355X", X, 0, 7, 8, 8, 5, 16, Y, false, 0, 0, kMi355, ""},
    GpuHardware{"MI250X", P, 0, 8, 8, 8, 4, 16, Y, false, 0, 0, kMi250, ""},
    GpuHardware{"MI250", P, 0, 8, 8, 8, 4, 16, Y, false, 0, 0, kMi250, ""},
    GpuHardware{"MI100", B, 0, 0, 4, 0, 4, 16, Y, false, 0, 0, kMi100, ""},
};

}  // namespace

const GpuHardware* gpu_hardware(std::string_view model_key) {
  const auto* it =
      std::find_if(kRows.begin(), kRows.end(), [&](const GpuHardware& h) { return h.model == model_key; });
  return it == kRows.end() ? nullptr : &*it;
}

const GpuHardware* gpu_hardware_of(std::string_view gpu_name) {
  return gpu_name.empty() ? nullptr : gpu_hardware(gpu_model_key(std::string(gpu_name)));
}

std::span<const GpuHardware> gpu_hardware_rows() { return kRows; }

bool no_p2p_by_design(std::string_view gpu_name) {
  const auto* h = gpu_hardware_of(gpu_name);
  return h != nullptr && h->p2p == PeerAccess::none_by_design;
}

}  // namespace fb
