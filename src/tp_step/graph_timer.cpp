#include "tp_step/graph_timer.hpp"

#include <algorithm>

#include "core/stats.hpp"

namespace fb {

GraphTiming time_in_graphs(const std::vector<GpuLane*>& lanes, int reps, int batches,
                           const std::function<void()>& enqueue) {
  // Once outside the capture: cuBLAS and NCCL set themselves up on a first call (kernels,
  // connections), which a capture must not record.
  enqueue();
  for (auto* l : lanes) l->stream->synchronize();
  for (auto* l : lanes) {
    gpu::set_device(l->device);
    gpu::Graph::begin_capture(*l->stream);
  }
  for (int r = 0; r < reps; ++r) enqueue();
  std::vector<gpu::Graph> graphs;
  for (auto* l : lanes) {
    gpu::set_device(l->device);
    graphs.push_back(gpu::Graph::end_capture(*l->stream));
  }
  std::vector<std::unique_ptr<gpu::Event>> starts;
  std::vector<std::unique_ptr<gpu::Event>> stops;
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    gpu::set_device(lanes[i]->device);
    graphs[i].instantiate();
    starts.push_back(std::make_unique<gpu::Event>());
    stops.push_back(std::make_unique<gpu::Event>());
  }
  constexpr int kUntimed = 2;
  std::vector<double> samples;
  for (int b = 0; b < kUntimed + batches; ++b) {
    for (std::size_t i = 0; i < lanes.size(); ++i) {
      gpu::set_device(lanes[i]->device);
      starts[i]->record(*lanes[i]->stream);
      graphs[i].launch(*lanes[i]->stream);
      stops[i]->record(*lanes[i]->stream);
    }
    double slowest_ms = 0;
    for (std::size_t i = 0; i < lanes.size(); ++i) {
      stops[i]->synchronize();
      slowest_ms = std::max(slowest_ms, gpu::Event::elapsed_ms(*starts[i], *stops[i]));
    }
    if (b >= kUntimed) samples.push_back(slowest_ms * 1e3 / reps);
  }
  const TimeStats s = summarize(samples);
  return {s.median, s.p99};
}

}  // namespace fb
