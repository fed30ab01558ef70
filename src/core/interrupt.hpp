#pragma once
// Ctrl-C/SIGTERM as a request to stop early, for commands that run in this process and can end
// keeping what they measured (p2p). While an InterruptScope lives, main()'s signal handler sets
// the request instead of ending the process; the command's loops read it between steps.
// (Commands whose work runs in workers use the Supervisor's own stop, launch/supervisor.hpp.)
namespace fb {

class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
};

[[nodiscard]] bool interrupt_scope_active();
void request_interrupt();  // async-signal-safe
[[nodiscard]] bool interrupt_requested();

}  // namespace fb
