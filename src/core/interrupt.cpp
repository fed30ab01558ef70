#include "core/interrupt.hpp"

#include <signal.h>

#include <atomic>

namespace fb {
namespace {

// Lock-free atomics: read and written from a signal handler.
std::atomic<int> g_scopes{0};
std::atomic<bool> g_requested{false};

void on_interrupt(int signal) {
  if (g_scopes.load() > 0 && !g_requested.exchange(true)) return;
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  ::sigaction(signal, &dfl, nullptr);
  ::raise(signal);
}

}  // namespace

InterruptScope::InterruptScope() { ++g_scopes; }

InterruptScope::~InterruptScope() { --g_scopes; }

void install_interrupt_handlers() {
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  action.sa_flags = SA_RESTART;  // as signal() had it: reads and writes go on after the request
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
}

void request_interrupt() { g_requested = true; }
bool interrupt_requested() { return g_requested.load(); }
void clear_interrupt_request() { g_requested = false; }

}  // namespace fb
