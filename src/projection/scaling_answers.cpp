#include "projection/scaling_answers.hpp"

#include <fmt/format.h>

#include <cstddef>

namespace fb {
namespace {

// What a step from `a` to `b` must gain to pay: 1 + share x (b/a - 1), as a factor of speedup.
double needed_gain(const ProjectionRow& a, const ProjectionRow& b, double pays_share) {
  return 1 + pays_share * (static_cast<double>(b.tp) / a.tp - 1);
}

bool step_pays(const ProjectionRow& a, const ProjectionRow& b, double pays_share) {
  return b.speedup / a.speedup >= needed_gain(a, b, pays_share) - 1e-12;
}

std::size_t fastest_row(const ProjectionPhase& ph) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < ph.rows.size(); ++i)
    if (ph.rows[i].pass_ms < ph.rows[best].pass_ms) best = i;
  return best;
}

// The smallest TP over which no larger TP listed pays.
std::size_t cheapest_paying_row(const ProjectionPhase& ph, double pays_share) {
  for (std::size_t i = 0; i < ph.rows.size(); ++i) {
    bool larger_pays = false;
    for (std::size_t j = i + 1; j < ph.rows.size() && !larger_pays; ++j)
      larger_pays = step_pays(ph.rows[i], ph.rows[j], pays_share);
    if (!larger_pays) return i;
  }
  return ph.rows.size() - 1;
}

// Said beside an answer whose TP's all_reduce was not measured.
std::string basis_words(const ProjectionRow& r) {
  if (r.comm_basis == "bounded") return "; its all_reduce bounded, not measured: the best case";
  if (r.comm_basis == "assumed") return "; its all_reduce assumed, not measured";
  return "";
}

std::string pass_words(const ProjectionPhase& ph) {
  return ph.phase == "prefill" ? "time to first token" : "time per output token";
}

std::string fastest_words(const ProjectionPhase& ph, const ProjectionRow& r) {
  if (r.tp == 1)
    return fmt::format("TP=1: no larger TP listed has a shorter pass ({}: {:.2f} ms)", pass_words(ph),
                       r.pass_ms);
  return fmt::format("TP={}: the shortest pass ({} {:.2f} ms, {:.2f}x faster than TP=1{})", r.tp,
                     pass_words(ph), r.pass_ms, r.speedup, basis_words(r));
}

std::string cheapest_words(const ProjectionPhase& ph, std::size_t i, double pays_share) {
  const auto& r = ph.rows[i];
  const std::string rule = fmt::format(
      "a step from TP a to b pays when it runs at least 1 + {:g} x (b/a - 1) times faster: --pays-share {:g} "
      "of the ideal gain",
      pays_share, pays_share);
  if (ph.rows.size() == 1) return "TP=1: the only TP projected";
  if (i + 1 == ph.rows.size())
    return fmt::format(
        "TP={}: over every smaller TP listed a larger one pays ({}); list larger TPs to see "
        "where adding GPUs stops paying{}",
        r.tp, rule, basis_words(r));
  const auto& next = ph.rows[i + 1];
  return fmt::format(
      "TP={}: no larger TP listed pays over it ({}): TP={} runs {:.2f}x as fast as TP={} on "
      "{:g}x the GPUs, where {:.2f}x would pay{}",
      r.tp, rule, next.tp, next.speedup / r.speedup, r.tp, static_cast<double>(next.tp) / r.tp,
      needed_gain(r, next, pays_share), basis_words(r));
}

}  // namespace

void judge_scaling(ProjectionPhase& phase, double pays_share) {
  phase.answers.clear();
  if (phase.rows.empty()) return;
  const double base_ms = phase.rows.front().pass_ms;
  for (auto& row : phase.rows) {
    row.speedup = base_ms / row.pass_ms;
    row.efficiency = row.speedup / row.tp;
  }
  const std::size_t fastest = fastest_row(phase);
  const std::size_t cheapest = cheapest_paying_row(phase, pays_share);
  phase.fastest_tp = phase.rows[fastest].tp;
  phase.best_tp = phase.rows[cheapest].tp;
  phase.stops_paying_at_tp = cheapest + 1 < phase.rows.size() ? phase.rows[cheapest + 1].tp : 0;
  phase.answers.push_back({"fastest", phase.fastest_tp, fastest_words(phase, phase.rows[fastest])});
  phase.answers.push_back({"cheapest_that_pays", phase.best_tp, cheapest_words(phase, cheapest, pays_share)});
}

}  // namespace fb
