#include "topo/link_rates.hpp"

#include <array>
#include <cmath>

namespace fb {
namespace {

// NVLink: NVIDIA architecture whitepapers; fractions for NVLink4 measured on 2 x H200
// (docs/model.md: SM copy kernels 373 GB/s, copy engine 396 GB/s of 450). NVLink5's SM share is
// NCCL's own model (SM100_NVLINK_BW 40.1 of 50 GB/s per link: 18 x 40.1 = 721.8 GB/s per GPU,
// NVIDIA/nccl #1807), not a measurement; NVLink4's model (SM90_NVLINK_BW 20.0) is kept beside
// the measured share.
constexpr std::array<NvlinkGeneration, 5> kNvlink{{
    {1, "P100", 20.0, 20.0, 0, 0, 0},
    {2, "V100", 25.781, 25.0, 0, 0, 0},
    {3, "A100", 25.781, 25.0, 0, 0, 0},
    {4, "H100, H200", 26.562, 25.0, 0.83, 0.88, 20.0},
    {5, "B200, B300, GB200", 53.125, 50.0, 40.1 / 50.0, 0, 40.1},
}};

// PCIe: PCI-SIG base specifications; 8b/10b encoding for Gen1-2, 128b/130b for Gen3-5,
// FLIT (242/256) for Gen6.
constexpr std::array<PcieGeneration, 6> kPcie{{
    {1, 2.5, 0.25},
    {2, 5.0, 0.5},
    {3, 8.0, 8.0 * 128 / 130 / 8},
    {4, 16.0, 16.0 * 128 / 130 / 8},
    {5, 32.0, 32.0 * 128 / 130 / 8},
    {6, 64.0, 64.0 * 242 / 256 / 8},
}};

// AMD Instinct product briefs for the per-link rate (MI300X/MI325X: 128 GB/s bidirectional per
// link, 7 links to the 7 peers of an 8-GPU platform; MI250X: 100 GB/s bidirectional per link, 8
// links of which 4 join the package's two GCDs); RCCL's model of a link from its topology code
// (ROCm/rccl src/graph/topo.h; 48 confirmed in ROCm/rccl #1210). docs/model.md has the table.
// MI350X/MI355X (gfx950): 153.6 GB/s bidirectional per link (AMD's MI355X specifications), 7 links to
// the 7 peers of an 8-GPU platform; RCCL's topology models gfx95x links at 48 like gfx94x, which
// would put the ring ceiling (7 x 48 = 336) below AMD's acceptance line (350), so the share is
// MI300X's (0.75 of the link, AMD's ROCm blog): 57.6 GB/s. Not measured.
// The 8-GPU platforms of MI300X to MI355X join every pair by one link (a full mesh); MI250X's does not
// (its two GCDs of a package share 4 links): 0.
constexpr std::array<XgmiProduct, 5> kXgmi{{
    {"MI300X", "0x74a1,0x74b5", "gfx942", 64.0, 48.0, 7, 1, 8},
    {"MI325X", "0x74a5", "gfx942", 64.0, 48.0, 7, 1, 8},
    {"MI355X", "", "gfx950", 76.8, 57.6, 7, 1, 8},
    {"MI350X", "", "gfx950", 76.8, 57.6, 7, 1, 8},
    {"MI250", "0x7408,0x740c", "gfx90a", 50.0, 36.0, 8, 1, 0},
}};

}  // namespace

const NvlinkGeneration* nvlink_generation(int version) {
  for (const auto& g : kNvlink)
    if (g.version == version) return &g;
  return nullptr;
}

int pcie_gen_from_gts(double gts) {
  for (const auto& g : kPcie)
    if (std::fabs(g.gts - gts) < 0.01) return g.gen;
  return 0;
}

double pcie_gbps(int gen, int width) {
  for (const auto& g : kPcie)
    if (g.gen == gen) return g.gbps_per_lane * width;
  return 0;
}

const XgmiProduct* xgmi_product(const std::string& gpu_name, const std::string& device_id) {
  for (const auto& p : kXgmi) {
    if (!gpu_name.empty() && gpu_name.find(p.name_contains) != std::string::npos) return &p;
    if (!device_id.empty() && !p.device_ids.empty() &&
        std::string_view(p.device_ids).find(device_id) != std::string_view::npos)
      return &p;
  }
  return nullptr;
}

}  // namespace fb
