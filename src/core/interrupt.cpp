#include "core/interrupt.hpp"

#include <atomic>

namespace fb {
namespace {

// Lock-free atomics: read and written from a signal handler.
std::atomic<int> g_scopes{0};
std::atomic<bool> g_requested{false};

}  // namespace

InterruptScope::InterruptScope() {
  g_requested = false;
  ++g_scopes;
}

InterruptScope::~InterruptScope() { --g_scopes; }

bool interrupt_scope_active() { return g_scopes.load() > 0; }
void request_interrupt() { g_requested = true; }
bool interrupt_requested() { return g_requested.load(); }

}  // namespace fb
