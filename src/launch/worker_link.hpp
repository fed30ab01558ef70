#pragma once
// The worker's side of the launcher protocol: progress and results go out as messages.
#include "bench/progress.hpp"
#include "comm/channel.hpp"
#include "core/error.hpp"

namespace fb {

class WorkerLink final : public ProgressSink {
 public:
  explicit WorkerLink(Channel& channel) : channel_(channel) {}
  void begin(const std::string& label) override;
  void point(int run_index, const Point& point) override;
  void emit(const Event& event) override;
  void gpus(const std::vector<GpuInfo>& all) override;
  void done();
  // Best effort: the launcher may already be gone.
  void fatal(ExitCode code, const std::string& text) noexcept;

 private:
  Channel& channel_;
};

}  // namespace fb
