#include "report/startup_report.hpp"

#include <fmt/format.h>

namespace fb {

// Each step's own time is the gap to the next milestone; the first is counted from launch.
std::vector<std::string> startup_lines(const std::vector<StartupPhase>& phases) {
  std::vector<std::string> lines{"start-up (ms since fabricbench started; 'took' is until the next line):",
                                 fmt::format("  {:>9} {:>9}  {}", "at ms", "took ms", "step")};
  for (std::size_t i = 0; i < phases.size(); ++i) {
    const auto& p = phases[i];
    if (i + 1 < phases.size())
      lines.push_back(fmt::format("  {:9.1f} {:9.1f}  {}", p.at_ms, phases[i + 1].at_ms - p.at_ms, p.phase));
    else
      lines.push_back(fmt::format("  {:9.1f} {:>9}  {}", p.at_ms, "-", p.phase));
  }
  return lines;
}

}  // namespace fb
