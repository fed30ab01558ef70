#include "engine/plans/scale_runner.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/interrupt.hpp"
#include "core/text.hpp"
#include "engine/plans/plan_builder.hpp"
#include "engine/plans/plan_runner.hpp"
#include "engine/plans/sweep_progress.hpp"

namespace fb {

std::vector<int> scale_counts(const std::vector<int>& requested, int available) {
  std::vector<int> counts = requested;
  if (counts.empty()) {
    for (int c = 1; c < available; c *= 2) counts.push_back(c);
    counts.push_back(available);
  }
  for (const int c : counts)
    if (c > available)
      FB_USAGE_ERROR(fmt::format("--counts asks for {} GPUs but {} are visible", c, available));
  return counts;
}

Run run_scale_point(const RunRequest& one_size, const MachineFacts& facts, const Topology& topo, int count,
                    Placement placement, SweepProgress& progress, std::size_t index, EventSink& events) {
  RunRequest one = one_size;
  one.gpus = GpuSelection::these(choose_gpus(topo, count, placement));
  Plan plan = build_plan(one, facts);
  attach_cpulists(plan, topo);
  const char* name = placement == Placement::best ? "best" : "worst";
  progress.announce(index, fmt::format("{} on {} GPU{}", one.collectives.at(0), count, count == 1 ? "" : "s"),
                    fmt::format("{} placement: {}", name, join_ints(plan.gpus)));
  Point point;
  const auto outcome = run_plan(
      plan, [&](int, const Point& p) { point = p; }, events);
  Run run = make_run(plan, 0);
  run.kind = RunKind::scale;
  run.label = name;
  run.failure = outcome.failure;
  if (outcome.failure.empty()) run.points = {point};
  return run;
}

std::vector<Run> run_scaling(const ScaleRequest& request, const MachineFacts& facts, const Topology& topo,
                             const std::function<void(const Run&)>& on_run, EventSink& events) {
  const auto counts = scale_counts(request.counts, static_cast<int>(facts.devices.size()));
  std::vector<Placement> placements;
  if (request.best) placements.push_back(Placement::best);
  if (request.worst) placements.push_back(Placement::worst);
  std::vector<Run> runs;
  SweepProgress progress(placements.size() * counts.size(), events);
  for (const auto placement : placements)
    for (const int count : counts) {
      if (interrupt_requested()) return runs;  // Ctrl-C: what was measured, no further group
      runs.push_back(
          run_scale_point(request.measure, facts, topo, count, placement, progress, runs.size(), events));
      on_run(runs.back());
    }
  return runs;
}

}  // namespace fb
