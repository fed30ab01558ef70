#pragma once
// What a machine of a given kind should reach, as rows (analyse/expect/sku_table.cpp holds the built-in
// ones; `--expectations FILE` a site's own). A result judged against a site file carries its rows,
// so `report --analyse` gives the same verdict later.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/enum_names.hpp"

namespace fb {

enum class ExpectationKind {
  typical,    // what healthy machines of this kind reach (a measurement or a published figure)
  acceptance  // a pass line of a health check: below it the machine fails
};

inline constexpr std::uint64_t kAnyBytes = ~0ULL;

struct ExpectationRow {
  std::string gpu;  // the GPU's model key ("H200", "MI300X", "A100 PCIe"): analyse/scope/gpu_model.hpp
  int gpus = 0;     // GPUs in the job (0: any)
  int hosts = 1;    // hosts the job spans, as NCCL counts nodes (an NVLink domain is one) (0: any)
  // A collective's name (busbw), "pair", "host", "h2d_sm", "d2h_sm", "local_copy" (GB/s) or
  // "host_latency" (ns).
  std::string figure;
  std::uint64_t min_bytes = 0;  // collectives: the sizes the figure holds for
  std::uint64_t max_bytes = kAnyBytes;
  std::string algo;  // NCCL's algorithm the figure was measured with ("NVLS", "RING"); "" any
  double value = 0;
  ExpectationKind kind = ExpectationKind::typical;
  double tolerance = -1;       // fraction below `value` still healthy; -1: the kind's default
  bool single_report = false;  // rests on one public report
  std::string source;
  std::string date;
  int min_hosts = 0;  // 1.6: the job spans at least this many hosts (with hosts 0: "across hosts")
};

// A site's baseline (`--expectations FILE`): its rows replace the built-in rows of each GPU model
// and figure they name.
struct ExpectationSet {
  std::string file;
  std::vector<ExpectationRow> rows;
};

template <>
struct EnumNames<ExpectationKind> {
  static constexpr std::string_view what = "expectation kind";
  static constexpr std::array<EnumName<ExpectationKind>, 2> table{
      {{ExpectationKind::typical, "typical"}, {ExpectationKind::acceptance, "acceptance"}}};
};

}  // namespace fb
