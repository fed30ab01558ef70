#include "analyse/expect/reach.hpp"

#include <array>
#include <cmath>
#include <string_view>

namespace fb {
namespace {

constexpr std::uint64_t kGi = 1ULL << 30;

// What healthy rings reach of the SM ceiling on a GPU fabric: nccl-tests on 2 x H200 (373.5 GB/s
// ceiling, docs/reference/h200x2-nccl-tests.json) at 256 MiB and at 1 GiB. Rings of 8 GPUs reach
// more (8 x H100: 360-370), so these floors are the lenient side.
struct Reach {
  std::string_view collective;
  double at_256m;
  double at_1g;
};
constexpr std::array<Reach, 8> kReach{{
    {"all_reduce", 300 / 373.5, 331 / 373.5},
    {"all_gather", 246 / 373.5, 271 / 373.5},
    {"reduce_scatter", 239 / 373.5, 275 / 373.5},
    {"alltoall", 285 / 373.5, 332 / 373.5},
    {"broadcast", 357 / 373.5, 364 / 373.5},
    {"sendrecv", 305 / 373.5, 361 / 373.5},
    {"gather", 352.0 / 373.5, 369.0 / 373.5},
    {"scatter", 346.4 / 373.5, 364.6 / 373.5},
}};

}  // namespace

double interval(const Point& p) { return std::isfinite(p.time_us.median_ci) ? p.time_us.median_ci : 0.0; }

bool judged_run(const Run& run) { return run.kind == RunKind::collective && run.gpus.size() >= 2; }

double fabric_reach(const std::string& collective, std::uint64_t bytes) {
  for (const auto& r : kReach)
    if (r.collective == collective) return bytes >= kGi ? r.at_1g : r.at_256m;
  return 239 / 373.5;  // a collective not measured: the lowest healthy reach above
}

}  // namespace fb
