#include "launch/worker_link.hpp"

#include "launch/protocol.hpp"
#include "model/result_json.hpp"

namespace fb {

void WorkerLink::begin(const std::string& label) { channel_.send({{"t", msg::begin}, {"label", label}}); }

void WorkerLink::point(int run_index, const Point& point) {
  channel_.send({{"t", msg::point}, {"run", run_index}, {"point", point}});
}

void WorkerLink::emit(const Event& event) { channel_.send({{"t", msg::event}, {"event", event}}); }

void WorkerLink::gpus(const std::vector<GpuInfo>& all) { channel_.send({{"t", msg::gpus}, {"gpus", all}}); }

void WorkerLink::done() { channel_.send({{"t", msg::done}}); }

void WorkerLink::fatal(ExitCode code, const std::string& text) noexcept {
  try {
    channel_.send({{"t", msg::fatal}, {"code", static_cast<int>(code)}, {"text", text}});
  } catch (...) {
    // Nobody left to tell.
  }
}

}  // namespace fb
