#pragma once
// Where a benchmark reports what it is doing and what it measured. Benches never print:
// the worker forwards these to the launcher, which hands the points to the reporters and the
// events (warnings: core/events.hpp) to the command's event sink.
#include <string>
#include <vector>

#include "core/events.hpp"
#include "model/result.hpp"

namespace fb {

class ProgressSink : public EventSink {
 public:
  // A new step starts (the launcher's timeout clock restarts; the label names the step).
  virtual void begin(const std::string& label) = 0;
  // A point of plan.runs[run_index] is complete (sent by process 0 only).
  virtual void point(int run_index, const Point& point) = 0;
  // Every rank's GPU, as its own process saw it (in a job, where ranks span hosts).
  virtual void gpus(const std::vector<GpuInfo>& /*all*/) {}
};

}  // namespace fb
