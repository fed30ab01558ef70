#include "analyse/run/one_gpu.hpp"

#include <fmt/format.h>

#include "analyse/scope/gpu_names.hpp"
#include "analyse/scope/run_scope.hpp"

namespace fb {

std::vector<Finding> check_one_gpu(const Result& r) {
  const auto gpus = run_gpus(r);
  // Across hosts every host has a GPU 0: one index there is still several GPUs.
  if (gpus.size() != 1 || spans_hosts(r)) return {};
  return {{"ONE_GPU", Severity::info,
           fmt::format("the run used one GPU (GPU{}): there is no interconnect to measure; what the GPU has "
                       "on its own (its host link, memory copy and latency) and local checks only",
                       gpus.front()),
           "two or more GPUs to judge collectives and pairs",
           "to measure an interconnect, run on two or more GPUs of one machine (all of them visible), or "
           "across hosts under mpirun, torchrun or srun (`run` and `algos`)"}};
}

}  // namespace fb
