#pragma once
// Times work captured in CUDA graphs on one or more GPUs driven from this thread: `enqueue`
// queues one repetition on every GPU's stream; `reps` of them form one graph per GPU, launched
// once per batch. A batch's time is the slowest GPU's; the result is per repetition.
#include <functional>
#include <memory>
#include <vector>

#include "gpu/runtime.hpp"

namespace fb {

struct GpuLane {
  int device = 0;
  std::unique_ptr<gpu::Stream> stream;  // created on `device`
};

struct GraphTiming {
  double median_us = 0;
  double p99_us = 0;
};

// Runs `enqueue` once uncaptured, then returns the median and p99 over `batches` timed batches
// (after 2 untimed ones).
GraphTiming time_in_graphs(const std::vector<GpuLane*>& lanes, int reps, int batches,
                           const std::function<void()>& enqueue);

}  // namespace fb
