// The built-in expectations (docs/verdicts.md, "Expected figures", is printed from these rows by
// `fabricbench expectations --markdown`). Every row names its source and date; a machine, size or
// algorithm not listed gets "no expectation", never a neighbour's row. `gpu` is the model key of
// analyse/scope/gpu_model.hpp, matched exactly. Across hosts the figures come from the hosts' NICs
// (analyse/expect/cross_host_expectation.hpp), not from rows.
#include <array>
#include <vector>

#include "analyse/expect/expectations.hpp"

namespace fb {
namespace {

constexpr std::uint64_t kMi = 1ULL << 20;
constexpr std::uint64_t kGi = 1ULL << 30;
constexpr std::uint64_t kAny = kAnyBytes;
constexpr auto T = ExpectationKind::typical;
constexpr auto A = ExpectationKind::acceptance;

// A row as data: the figure's key, its value and where it comes from.
struct Row {
  std::string_view gpu;
  int gpus;
  int hosts;
  std::string_view figure;
  std::uint64_t min_bytes;
  std::uint64_t max_bytes;
  std::string_view algo;
  double value;
  ExpectationKind kind;
  std::string_view source;
  std::string_view date;
  bool single = false;    // one public report
  double tolerance = -1;  // the kind's default where -1
  int min_hosts = 0;
};

constexpr std::string_view kOurs =
    "our measurement: nccl-tests 2.19.6, NCCL 2.28.3, 2 x H200 NV18 (docs/reference/h200x2-nccl-tests.json)";
constexpr std::string_view kOursNvb =
    "our measurement: nvbandwidth 0.8, 2 x H200 (docs/reference/h200x2-nvbandwidth.json)";
constexpr std::string_view kAzureH100 =
    "Azure/azurehpc-health-checks conf/nd96isr_h100_v5.conf pass line (as quoted in shared/REFERENCE.md)";
constexpr std::string_view kAzureA100 =
    "Azure/azurehpc-health-checks A100 pass lines (as quoted in shared/REFERENCE.md)";
constexpr std::string_view kRingH100 =
    "nccl-tests #212, https://github.com/NVIDIA/nccl/issues/2140: 8 x H100 ring busbw 360-370 with NVLS off "
    "(read 2026-11-30)";
constexpr std::string_view kNvlsH100 =
    "https://github.com/NVIDIA/nccl/issues/2140 (8 x H100 NVLS 480), "
    "https://github.com/NVIDIA/nccl-tests/issues/272 (8 x H200 475), "
    "https://github.com/NVIDIA/nccl-tests/issues/290 (NVIDIA: 476 'in the expected range'): the middle of "
    "475-480 (read 2026-12-02)";
constexpr std::string_view kB200 =
    "https://github.com/NVIDIA/nccl/issues/1807: 8 x B200 in one machine, busbw '830+' (algorithm not "
    "stated; "
    "NCCL's default there is NVLS) (read 2026-12-02)";
constexpr std::string_view kB300 =
    "https://github.com/NVIDIA/nccl/issues/2140: 8 x B300 busbw 695 with NVLS off, 845 with NVLS (read "
    "2026-12-02)";
constexpr std::string_view kGb200 =
    "https://github.com/coreweave/nccl-tests/pull/43: one GB200 NVL72 rack (72 GPUs, 18 trays), busbw "
    "834.6-846.8 at 4-8 GiB (read 2026-12-02)";
constexpr std::string_view kAmdLine =
    "AMD's rccl-tests node check (all_reduce_perf -b 8 -e 8G -f 2 -g 8 fails below 304 GB/s at 8589934592 B; "
    "script (c) AMD 2025, undated, public code index; repository not identified) (read 2026-12-02)";
constexpr std::string_view kAmdLine325 =
    "AMD's MI300X rccl-tests node check (304 GB/s at 8589934592 B, -g 8), applied to MI325X as fabricbench "
    "issue 32 does (the same xGMI, docs/model.md); the script itself names MI300X (read 2026-12-02)";
constexpr std::string_view kAmdLine355 =
    "fabricbench issue 32, quoting AMD's acceptance line for MI350X/MI355X (>= 350 GB/s at 8 GiB, -g 8); no "
    "public document found (2026-12-02)";
// The xGMI model behind the AMD rows (per-link rate, RCCL's 48 of 64 GB/s): docs/model.md.
constexpr std::string_view kAmdBlog =
    "AMD ROCm blog mi300x-rccl-xgmi (https://rocm.blogs.amd.com/software-tools-optimization/mi300x-rccl-xgmi/"
    "README.html): rccl-tests all_reduce on 8 x MI300X";
constexpr std::string_view kRead = "2026-11-30";
// Azure's published baselines per SKU: Expected, Warn (re-test) and GHR (drain the node and file a Guest
// Health Report: replace). Their H100 "Expected ~450" and "Warn < 400" are not rows: the NVLS and ring rows
// above hold the same sizes from nccl-tests and NVIDIA; the GHR line is the drain line they lack.
constexpr std::string_view kAzureH100Ghr =
    "Azure/ai-infrastructure-on-azure skills/ai-infra/references/sku_baselines.md at 6ac01e7, "
    "Standard_ND96isr_H100_v5: NCCL all_reduce busbw (full sweep, 16 G) GHR < 300 GB/s (drain and file a "
    "Guest "
    "Health Report)";
constexpr std::string_view kAzureGb300Rack =
    "Azure/ai-infrastructure-on-azure skills/ai-infra/references/sku_baselines.md at 6ac01e7, "
    "Standard_ND128isr_GB300_v6: NCCL all_reduce busbw (intra-rack, MNNVL, 16 G, a full rack of 72) ~937 "
    "GB/s, "
    "Warn < 800, GHR < 600";
constexpr std::string_view kAzureGb300Ib =
    "Azure/ai-infrastructure-on-azure skills/ai-infra/references/sku_baselines.md at 6ac01e7, "
    "Standard_ND128isr_GB300_v6: NCCL all_reduce busbw (inter-rack, IB-only over 4 x 400 Gb/s per node, 16 "
    "G) "
    "~200 GB/s, Warn < 180, GHR < 150";
constexpr std::string_view kAzureRead = "2026-12-05";

// 2 x H200 busbw per collective at 16 MiB, 64 MiB, 256 MiB, 1 GiB and 4 GiB and above:
// nccl-tests single process, out-of-place, 2026-11-29 (NCCL runs no NVLS on 2 GPUs).
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

// Where two rows hold for one figure, the first wins: a pass line before a typical figure.
constexpr std::array kPublished{
    Row{"H200", 0, 1, "pair", 0, 0, "", 394, T, kOursNvb, "2026-11-29"},
    Row{"H200", 0, 1, "host", 0, 0, "", 55.5, T, kOursNvb, "2026-11-29"},
    Row{"H200", 0, 1, "h2d_sm", 0, 0, "", 51.4, T, kOursNvb, "2026-11-29"},
    Row{"H200", 0, 1, "d2h_sm", 0, 0, "", 52.6, T, kOursNvb, "2026-12-01"},
    Row{"H200", 0, 1, "local_copy", 0, 0, "", 2095, T, kOursNvb, "2026-11-29"},
    Row{"H200", 0, 1, "host_latency", 0, 0, "", 1181, T, kOursNvb, "2026-11-29"},
    Row{"H100", 8, 1, "all_reduce", kGi, kAny, "NVLS", 478, T, kNvlsH100, "2026-04-28"},
    Row{"H100", 8, 1, "all_reduce", kGi, kAny, "RING", 360, T, kRingH100, kRead},
    Row{"H200", 8, 1, "all_reduce", kGi, kAny, "NVLS", 478, T, kNvlsH100, "2026-04-28"},
    Row{"H200", 8, 1, "all_reduce", kGi, kAny, "RING", 360, T, kRingH100, kRead},
    Row{"B200", 8, 1, "all_reduce", kGi, kAny, "NVLS", 830, T, kB200, "2025-08-13", true},
    Row{"B300", 8, 1, "all_reduce", kGi, kAny, "NVLS", 845, T, kB300, "2026-04-28", true},
    Row{"B300", 8, 1, "all_reduce", kGi, kAny, "RING", 695, T, kB300, "2026-04-28", true},
    Row{"GB200", 72, 1, "all_reduce", 4 * kGi, 8 * kGi, "NVLS", 835, T, kGb200, "2025-02-20", true},
    Row{"GB300", 72, 1, "all_reduce", 16 * kGi, kAny, "", 937, T, kAzureGb300Rack, kAzureRead, false,
        1 - 800.0 / 937.0},
    Row{"GB300", 72, 1, "all_reduce", 16 * kGi, kAny, "", 600, A, kAzureGb300Rack, kAzureRead},
    Row{"GB300", 0, 0, "all_reduce", 16 * kGi, kAny, "", 200, T, kAzureGb300Ib, kAzureRead, false,
        1 - 180.0 / 200.0, 2},
    Row{"GB300", 0, 0, "all_reduce", 16 * kGi, kAny, "", 150, A, kAzureGb300Ib, kAzureRead, false, -1, 2},
    Row{"H100", 8, 1, "all_reduce", 16 * kGi, kAny, "", 300, A, kAzureH100Ghr, kAzureRead},
    Row{"H100", 0, 1, "pair", 0, 0, "", 335, A, kAzureH100, kRead},
    Row{"H100", 0, 1, "host", 0, 0, "", 48, A, kAzureH100, kRead},
    Row{"A100", 8, 1, "all_reduce", kGi, kAny, "", 228, A, kAzureA100, kRead},
    Row{"A100", 0, 1, "pair", 0, 0, "", 235, A, kAzureA100, kRead},
    Row{"A100", 0, 1, "host", 0, 0, "", 21, A, kAzureA100, kRead},
    Row{"MI300X", 8, 1, "all_reduce", 8 * kGi, 8 * kGi, "", 304, A, kAmdLine, "2026-12-02"},
    Row{"MI325X", 8, 1, "all_reduce", 8 * kGi, 8 * kGi, "", 304, A, kAmdLine325, "2026-12-02", true},
    Row{"MI350X", 8, 1, "all_reduce", 8 * kGi, 8 * kGi, "", 350, A, kAmdLine355, "2026-12-02", true},
    Row{"MI355X", 8, 1, "all_reduce", 8 * kGi, 8 * kGi, "", 350, A, kAmdLine355, "2026-12-02", true},
    Row{"MI300X", 8, 1, "all_reduce", kGi, 8 * kGi - 1, "", 314.7, T, kAmdBlog, "2025-03-02"},
    Row{"MI300X", 8, 1, "all_reduce", 8 * kGi, 16 * kGi - 1, "", 318.0, T, kAmdBlog, "2025-03-02"},
    Row{"MI300X", 8, 1, "all_reduce", 16 * kGi, kAny, "", 319.0, T, kAmdBlog, "2025-03-02"},
    Row{"L40S", 0, 1, "host", 0, 0, "", 27.7, T,
        "PCI-SIG: PCIe Gen4 x16 31.5 GB/s x the copy-engine share measured on Gen5 (0.88)", "2026-11-30"},
};

ExpectationRow owned(const Row& r) {
  ExpectationRow e;
  e.gpu = r.gpu;
  e.gpus = r.gpus;
  e.hosts = r.hosts;
  e.figure = r.figure;
  e.min_bytes = r.min_bytes;
  e.max_bytes = r.max_bytes == 0 ? kAny : r.max_bytes;
  e.algo = r.algo;
  e.value = r.value;
  e.kind = r.kind;
  e.single_report = r.single;
  e.tolerance = r.tolerance;
  e.min_hosts = r.min_hosts;
  e.source = r.source;
  e.date = r.date;
  return e;
}

}  // namespace

std::span<const ExpectationRow> builtin_expectations() {
  static const std::vector<ExpectationRow> table = [] {
    std::vector<ExpectationRow> t;
    for (const auto& row : kH200x2)
      for (std::size_t i = 0; i < kH200x2Sizes.size(); ++i) {
        const std::uint64_t hi = i + 1 < kH200x2Sizes.size() ? kH200x2Sizes[i] : kAny;  // the size alone
        t.push_back(owned(
            {"H200", 2, 1, row.collective, kH200x2Sizes[i], hi, "", row.gbps[i], T, kOurs, "2026-11-29"}));
      }
    for (const auto& r : kPublished) t.push_back(owned(r));
    return t;
  }();
  return table;
}

}  // namespace fb
