#include "analyse/expect/what_ran.hpp"

#include <fmt/format.h>

#include "analyse/expect/nvlink_domain.hpp"
#include "analyse/scope/gpu_names.hpp"

namespace fb {
namespace {

std::string env_value(const Result& r, const std::string& name) {
  const auto it = r.env.find(name);
  return it == r.env.end() ? "" : it->second;
}

// One algorithm forced by NCCL_ALGO (the run's own setting first); "" for a list or an exclusion.
std::string forced_algo(const Result& r, const Run& run) {
  const auto it = run.forced.find("NCCL_ALGO");
  std::string value = it != run.forced.end() ? it->second : env_value(r, "NCCL_ALGO");
  if (value.empty() || value.find_first_of(",^") != std::string::npos) return "";
  return value;
}

std::string nvls_off_reason(const Result& r, const Run& run) {
  if (env_value(r, "NCCL_NVLS_ENABLE") == "0") return "NCCL_NVLS_ENABLE=0 in the environment";
  if (run.nccl_nvls_available && !*run.nccl_nvls_available)
    return "NCCL's log found no NVLink SHARP multicast support";
  if (run.nccl_nvls_channels && *run.nccl_nvls_channels == 0) return "NCCL's log gave NVLS no channels";
  if (run.gpus.size() <= 2) return "NCCL connects 2 GPUs point to point";
  return "";
}

}  // namespace

WhatRan what_ran(const Result& r, const Run& run, const Point& p) {
  WhatRan w;
  w.nvls_off = nvls_off_reason(r, run);
  if (!p.nccl_algo.empty()) {
    w.algo = p.nccl_algo;
    w.how = "NCCL's log";
    return w;
  }
  if (const auto forced = forced_algo(r, run); !forced.empty()) {
    w.algo = forced;
    w.how = "NCCL_ALGO=" + forced;
    return w;
  }
  // Only where the table tells NVLS from ring for this machine does the default matter.
  if (!nvls_row_applies(r, run, p)) return w;
  w.algo = w.nvls_off.empty() ? "NVLS" : "RING";
  w.how = w.nvls_off.empty() ? "assumed: NCCL's default on NVSwitch machines, its log not read"
                             : "NVLS off: " + w.nvls_off;
  return w;
}

bool nvls_row_applies(const Result& r, const Run& run, const Point& p) {
  return has_row_for_algo(r, collective_query(r, run, p, WhatRan{}), "NVLS");
}

ExpectationQuery collective_query(const Result& r, const Run& run, const Point& p, const WhatRan& w) {
  return {gpu_name(r, run.gpus),
          static_cast<int>(run.gpus.size()),
          nccl_hosts(r, run),
          run.collective,
          p.bytes,
          w.algo};
}

bool switch_reduces(const WhatRan& w) {
  const auto a = canonical_algo(w.algo);
  return a == "NVLS" || a == "NVLSTREE";
}

std::string algo_phrase(const WhatRan& w) {
  if (w.algo.empty()) return "";
  return w.how == "NCCL's log" ? fmt::format(" over {}", w.algo)
                               : fmt::format(" over {} ({})", w.algo, w.how);
}

}  // namespace fb
