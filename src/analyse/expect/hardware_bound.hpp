#pragma once
// A collective point held against what its hardware carries, where no published row applies
// (docs/model.md, "Bounds"): the fabric that joins the run's GPUs (the document's topology, else the
// GPU table's row for the model and count: analyse/expect/gpu_hardware.hpp), the ceiling of the
// algorithm that ran on it, and the share of it a healthy run reaches at that size (derived from the
// 2 x H200 rows: analyse/expect/reach.hpp). Without a GPU fabric the slowest path that has no fault
// bounds the figure: peer-to-peer over PCIe, or staging through host memory.
#include <optional>
#include <string>

#include "analyse/expect/ceilings.hpp"
#include "analyse/expect/what_ran.hpp"
#include "model/result.hpp"

namespace fb {

enum class FabricPath {
  gpu_fabric,  // NVLink (through NVSwitch, or an NVLink domain across trays) or xGMI
  pcie_peer,   // peer-to-peer over PCIe
  host_staged  // through host memory (no peer access, by design or by layout): NCCL's SHM
};

struct RunFabric {
  FabricPath path = FabricPath::host_staged;
  PathCeiling ring;    // the ring's SM path ceiling: what the healthy shares are of
  double above = 0;    // a ring's physical ceiling: `ring` where its share is measured, else the wire
  double nvls = 0;     // NVLS's ceiling (each GPU's wire x 2(n-1)/n); 0 where NVLS cannot run
  PathCeiling staged;  // what staging through host memory over PCIe carries; unknown: 0
  std::string what;    // the fabric in words, with where it was read
  bool share_measured = true;
  bool from_table = false;  // the GPU table's row, not the document's topology
  bool p2p_none_by_design = false;
};

// What joins the run's GPUs inside one host or one NVLink domain; nullopt across hosts that meet over
// their NICs, and where neither the topology nor the GPU table says.
std::optional<RunFabric> run_fabric(const Result& r, const Run& run);

// The ring reach's tolerance below what healthy rings reach on a fabric (docs/verdicts.md): the
// published spread between machines, the tools' fidelity bar and our run-to-run spread.
inline constexpr double kReachTolerance = 0.10;
// Where the SM share is not measured (NVLink 1-3: NVLink4's 0.83 applied), a wider tolerance: 8 x A100
// reached 0.65 of the NVLink3 wire in sendrecv (li-plus/playground) and 0.76-0.78 in all_reduce (Azure's
// pass line; LLM-Insights), where NVLink4 reaches 0.83: up to a fifth below the share applied.
inline constexpr double kDerivedShareTolerance = 0.25;
// Below 1 GiB (on 2 GPUs, analyse/expect/reach.hpp's equivalent size) the shares are one machine's curve
// (the 2 x H200 rows): other generations and NCCL versions reach their plateau later (8 x A100 sendrecv
// reached 57% of its 1 GiB figure at 128 MiB where 2 x H200 reach 75% at 64 MiB: li-plus/playground,
// tests/fixtures/imports), so a size there is held to half of its share.
inline constexpr double kMidSizeTolerance = 0.5;
// Above a physical ceiling by more than the tools' fidelity bar (docs/design.md: within 1% of
// nccl-tests, 3% between tools) and the point's interval: the GPU's identity or the ceiling is wrong.
inline constexpr double kAboveMargin = 0.03;
// Rings without a GPU fabric (docs/verdicts.md, "Thresholds"): over PCIe with peer access half the
// ceiling (not measured yet: a wide margin); through host memory a quarter (2 x H200 staged at 0.53
// of the PCIe Gen5 SM ceiling, 8 x RTX 5090 at 0.54: halved for the inter-socket link).
inline constexpr double kPcieReach = 0.5;
inline constexpr double kStagedReach = 0.25;

struct HardwareBound {
  double reach = 0;      // what a healthy run reaches at this size, GB/s
  double tolerance = 0;  // relative, below `reach`
  double ceiling = 0;    // the ceiling `reach` is a share of (the ring's SM path ceiling)
  double above = 0;      // the physical ceiling of the algorithm that ran (0: none judged)
  std::string source;    // the derivation in words
  RunFabric fabric;
  [[nodiscard]] double floor() const { return reach * (1 - tolerance); }
};

// The bound of `p`: nullopt where no fabric is known or the size is below where bandwidth dominates.
std::optional<HardwareBound> hardware_bound(const Result& r, const Run& run, const Point& p,
                                            const WhatRan& w);

// The physical ceiling a point must not pass (with kAboveMargin), at any size; 0 where none is known.
double physical_ceiling(const Result& r, const Run& run, const WhatRan& w, std::string* words = nullptr);

}  // namespace fb
