#include "report/startup_report.hpp"

#include <fmt/format.h>

namespace fb {

// Each step's own time is the gap to the next milestone; the first is counted from launch.
void print_startup(std::FILE* out, const std::vector<StartupPhase>& phases) {
  fmt::print(out, "start-up (ms since fabricbench started; 'took' is until the next line):\n");
  fmt::print(out, "  {:>9} {:>9}  {}\n", "at ms", "took ms", "step");
  for (std::size_t i = 0; i < phases.size(); ++i) {
    const auto& p = phases[i];
    const double took = i + 1 < phases.size() ? phases[i + 1].at_ms - p.at_ms : 0.0;
    if (i + 1 < phases.size())
      fmt::print(out, "  {:9.1f} {:9.1f}  {}\n", p.at_ms, took, p.phase);
    else
      fmt::print(out, "  {:9.1f} {:>9}  {}\n", p.at_ms, "-", p.phase);
  }
}

}  // namespace fb
