// The per-machine expectations (docs/verdicts.md, "Expected figures"). Every entry names its
// source and date; a machine or figure not listed gets "no expectation", never a guess.
// `gpu` is matched in the lower-cased GPU name; names with "pcie" or " nvl" (the PCIe cards of
// the same chip) never match the SXM entries, which assume the NVSwitch fabric.
#include <array>
#include <vector>

#include "analyse/expectations.hpp"

namespace fb {
namespace {

constexpr std::uint64_t kMi = 1ULL << 20;
constexpr std::uint64_t kGi = 1ULL << 30;
constexpr std::uint64_t kAny = ~0ULL;
constexpr auto T = ExpectationKind::typical;
constexpr auto A = ExpectationKind::acceptance;

constexpr std::string_view kOurs =
    "our measurement: nccl-tests 2.19.6, NCCL 2.28.3, 2 x H200 NV18 (docs/reference/h200x2-nccl-tests.json)";
constexpr std::string_view kOursNvb =
    "our measurement: nvbandwidth 0.8, 2 x H200 (docs/reference/h200x2-nvbandwidth.json)";
constexpr std::string_view kAzureH100 =
    "Azure/azurehpc-health-checks conf/nd96isr_h100_v5.conf pass line (as quoted in shared/REFERENCE.md)";
constexpr std::string_view kAzureA100 =
    "Azure/azurehpc-health-checks A100 pass lines (as quoted in shared/REFERENCE.md)";
constexpr std::string_view kRingH100 =
    "nccl-tests #212, NVIDIA/nccl #2140: 8 x H100 ring busbw 360-370 (NVLS off; about 480 with NVLS)";
// The xGMI model behind the AMD rows (per-link rate, RCCL's 48 of 64 GB/s): docs/model.md.
constexpr std::string_view kAmdBlog = "AMD ROCm blog mi300x-rccl-xgmi: rccl-tests all_reduce on 8 x MI300X";
constexpr std::string_view kRead = "2026-11-30 (read)";

// 2 x H200 busbw per collective at 16 MiB, 64 MiB, 256 MiB, 1 GiB and 4 GiB and above:
// nccl-tests single process, out-of-place, 2026-11-29.
struct H200x2Row {
  std::string_view collective;
  std::array<double, 5> gbps;
};
constexpr std::array<H200x2Row, 6> kH200x2{{
    {"all_reduce", {211, 267, 300, 331, 346}},
    {"all_gather", {152, 215, 246, 271, 287}},
    {"reduce_scatter", {157, 209, 239, 275, 297}},
    {"alltoall", {147, 243, 285, 332, 338}},
    {"broadcast", {260, 327, 357, 364, 367}},
    {"sendrecv", {200, 270, 305, 361, 364}},
}};
constexpr std::array<std::uint64_t, 5> kH200x2Sizes{16 * kMi, 64 * kMi, 256 * kMi, kGi, 4 * kGi};

constexpr std::array kPublished{
    SkuExpectation{"h200", 0, "pair", 0, 0, 394, T, kOursNvb, "2026-11-29"},
    SkuExpectation{"h200", 0, "host", 0, 0, 55.5, T, kOursNvb, "2026-11-29"},
    SkuExpectation{"h200", 0, "h2d_sm", 0, 0, 51.4, T, kOursNvb, "2026-11-29"},
    SkuExpectation{"h200", 0, "d2h_sm", 0, 0, 52.6, T, kOursNvb, "2026-12-01"},
    SkuExpectation{"h200", 0, "local_copy", 0, 0, 2095, T, kOursNvb, "2026-11-29"},
    SkuExpectation{"h200", 0, "host_latency", 0, 0, 1181, T, kOursNvb, "2026-11-29"},
    SkuExpectation{"h100", 8, "all_reduce", kGi, kAny, 360, T, kRingH100, kRead},
    SkuExpectation{"h200", 8, "all_reduce", kGi, kAny, 360, T, kRingH100, kRead},
    SkuExpectation{"h100", 0, "pair", 0, 0, 335, A, kAzureH100, kRead},
    SkuExpectation{"h100", 0, "host", 0, 0, 48, A, kAzureH100, kRead},
    SkuExpectation{"a100", 8, "all_reduce", kGi, kAny, 228, A, kAzureA100, kRead},
    SkuExpectation{"a100", 0, "pair", 0, 0, 235, A, kAzureA100, kRead},
    SkuExpectation{"a100", 0, "host", 0, 0, 21, A, kAzureA100, kRead},
    SkuExpectation{"mi300x", 8, "all_reduce", kGi, 8 * kGi - 1, 314.7, T, kAmdBlog, "2025-03-02"},
    SkuExpectation{"mi300x", 8, "all_reduce", 8 * kGi, 16 * kGi - 1, 318.0, T, kAmdBlog, "2025-03-02"},
    SkuExpectation{"mi300x", 8, "all_reduce", 16 * kGi, kAny, 319.0, T, kAmdBlog, "2025-03-02"},
    SkuExpectation{"l40s", 0, "host", 0, 0, 27.7, T,
                   "PCI-SIG: PCIe Gen4 x16 31.5 GB/s x the copy-engine share measured on Gen5 (0.88)",
                   "2026-11-30"},
};

}  // namespace

std::span<const SkuExpectation> sku_table() {
  static const std::vector<SkuExpectation> table = [] {
    std::vector<SkuExpectation> t;
    for (const auto& row : kH200x2)
      for (std::size_t i = 0; i < kH200x2Sizes.size(); ++i) {
        const std::uint64_t hi = i + 1 < kH200x2Sizes.size() ? kH200x2Sizes[i] : kAny;
        t.push_back({"h200", 2, row.collective, kH200x2Sizes[i], hi, row.gbps[i], T, kOurs, "2026-11-29"});
      }
    t.insert(t.end(), kPublished.begin(), kPublished.end());
    return t;
  }();
  return table;
}

}  // namespace fb
