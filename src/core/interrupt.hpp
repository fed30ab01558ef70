#pragma once
// Ctrl-C/SIGTERM as a request to stop early, for commands that can end keeping what they
// measured. While an InterruptScope lives (a long command's measuring, a Supervisor's watch),
// the handler install_interrupt_handlers() sets the request instead of ending the process;
// loops read it between steps and end with what they have (status failed, "interrupted", exit 4).
// Outside every scope, and at a second signal, the default action ends the process at once, as
// the shell expects (exit 128 + signal). The request stays set for the rest of the process: a
// command is not resumed once its user asked it to stop.
namespace fb {

class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
};

// SIGINT and SIGTERM: a request inside a scope, the default action outside (see above).
void install_interrupt_handlers();

void request_interrupt();  // async-signal-safe
[[nodiscard]] bool interrupt_requested();
void clear_interrupt_request();  // for tests that interrupt more than once in one process

}  // namespace fb
