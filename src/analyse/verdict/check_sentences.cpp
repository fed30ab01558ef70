#include "analyse/verdict/check_sentences.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <set>
#include <utility>

#include "analyse/expect/expectations.hpp"
#include "analyse/expect/reach.hpp"
#include "analyse/scope/gpu_names.hpp"
#include "analyse/scope/run_scope.hpp"
#include "analyse/verdict/headline_figures.hpp"
#include "analyse/verdict/headline_words.hpp"
#include "model/p2p_tests.hpp"

namespace fb {
namespace {

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string run_sentence(const Result& r) {
  std::size_t points = 0;
  for (const auto& run : r.runs) points += run.points.size();
  std::size_t copies = 0;
  for (const auto& m : r.p2p) copies += m.samples > 0 ? 1 : 0;
  return fmt::format("{} and {} measured, status {}, no wrong data", plural(points, "point", "points"),
                     plural(copies, "copy figure", "copy figures"), r.status);
}

std::string transports_sentence(const Result& r) {
  for (const auto& run : r.runs)
    if (judged_run(run) && !run.nccl_transports.empty())
      return fmt::format("{}: NCCL connected the GPUs via {}", run.collective,
                         fmt::join(run.nccl_transports, ", "));
  return "";
}

std::string topology_sentence(const Result& r) {
  if (!r.topology) return "";
  const auto scope = scoped_topology(*r.topology, run_gpus(r));
  std::set<std::string> links;
  for (const auto& g : scope.gpus)
    if (g.pcie.gen > 0) links.insert(fmt::format("PCIe Gen{} x{}", g.pcie.gen, g.pcie.width));
  std::set<std::string> classes;
  for (const auto& p : scope.pairs) classes.insert(p.connection.to_string());
  return fmt::format("{}{}{}: no link down, none below its maximum, peer access where expected",
                     plural(scope.gpus.size(), "GPU", "GPUs"),
                     links.empty() ? "" : fmt::format(" on {}", fmt::join(links, ", ")),
                     classes.empty() ? "" : fmt::format(", pairs over {}", fmt::join(classes, ", ")));
}

// What a copy is held against: its table row ("expected"), else its path ceiling; 0 when neither.
struct CopyReference {
  double gbps = 0;
  bool row = false;
};

CopyReference copy_reference(const Result& r, const P2pMeasurement& m) {
  const auto& spec = p2p_test_spec(m.test);
  if (m.samples <= 0 || m.value <= 0 || spec.unit != P2pUnit::gbps) return {};
  const auto figure = expectation_figure(m.test);
  if (!figure.empty() && !spec.every_gpu)
    if (const auto e =
            expected_for(r, {gpu_name(r, {m.src >= 0 ? m.src : m.dst}), 0, 1, std::string(figure), 0, ""}))
      return {e->value, true};
  return {m.ceiling_gbps, false};
}

std::string copy_where(const P2pMeasurement& m) {
  if (m.src < 0) return fmt::format("host -> GPU{}", m.dst);
  if (m.dst < 0) return fmt::format("GPU{} -> host", m.src);
  return fmt::format("GPU{} {} GPU{}", m.src, p2p_test_spec(m.test).bidirectional ? "<->" : "->", m.dst);
}

// The copy furthest below what it is held against.
std::string pairs_sentence(const Result& r) {
  const P2pMeasurement* worst = nullptr;
  CopyReference worst_ref;
  for (const auto& m : r.p2p) {
    const auto ref = copy_reference(r, m);
    if (ref.gbps <= 0 || (worst != nullptr && m.value / ref.gbps >= worst->value / worst_ref.gbps)) continue;
    worst = &m;
    worst_ref = ref;
  }
  if (worst == nullptr) return "";
  return fmt::format("nominal: {} {} {:.1f} GB/s of the {:.1f} GB/s {} ({:.0f}%), the lowest of {}",
                     worst->test, copy_where(*worst), worst->value, worst_ref.gbps,
                     worst_ref.row ? "expected" : "path ceiling", worst->value / worst_ref.gbps * 100,
                     plural(r.p2p.size(), "figure", "figures"));
}

std::string environment_sentence(const Result& r) {
  const auto n =
      std::count_if(r.env.begin(), r.env.end(), [](const auto& kv) { return kv.first.starts_with("NCCL_"); });
  // Another tool's output: where its environment was read.
  const std::string where = r.source && !r.source->env_sources.empty()
                                ? fmt::format(" (read from the output: {})", r.source->env_sources.front())
                                : "";
  return n == 0
             ? "no NCCL_* setting in the environment" + where
             : fmt::format("{} in the environment, none that changes this run{}",
                           plural(static_cast<std::size_t>(n), "NCCL_* setting", "NCCL_* settings"), where);
}

// The collective figure furthest below its reference among the headline's: against the rows, or against
// the bound the hardware gives (its share of the ring's ceiling).
std::string collectives_sentence(const Result& r, bool against_rows) {
  auto figures = headline_figures(r);
  std::erase_if(figures, [](const HeadlineFigure& h) { return h.collective.empty(); });
  auto rows = figures;
  std::erase_if(rows, [](const HeadlineFigure& h) { return h.expected <= 0; });
  auto bounds = figures;
  std::erase_if(bounds, [](const HeadlineFigure& h) { return h.reach <= 0; });
  if (against_rows && !rows.empty()) return "the lowest: " + figure_sentence(worst_shortfall(rows)->figure);
  if (!bounds.empty())
    return fmt::format("{}held against the bound its hardware gives: {}",
                       against_rows ? "no published row; " : "the lowest ",
                       figure_sentence(worst_shortfall(bounds)->figure));
  std::erase_if(figures, [](const HeadlineFigure& h) { return h.ceiling <= 0; });
  if (against_rows || figures.empty()) return "";
  const auto& low = *std::min_element(figures.begin(), figures.end(), [](const auto& a, const auto& b) {
    return a.measured / a.ceiling < b.measured / b.ceiling;
  });
  return fmt::format(
      "the lowest against the ring's ceiling: {}: {:.1f} GB/s, {:.0f}% of the ring's ceiling {:.1f} GB/s",
      low.figure, low.measured, low.measured / low.ceiling * 100, low.ceiling);
}

std::string count_sentence(const Result& r, RunKind kind, std::string_view what) {
  const auto n =
      std::count_if(r.runs.begin(), r.runs.end(), [kind](const Run& run) { return run.kind == kind; });
  return fmt::format("{}, {}", plural(static_cast<std::size_t>(n), "run", "runs"), what);
}

}  // namespace

std::string pass_sentence(std::string_view check, const Result& r) {
  using Words = std::string (*)(const Result&);
  static constexpr std::array<std::pair<std::string_view, Words>, 13> kWords{{
      {"run", run_sentence},
      {"transports", transports_sentence},
      {"topology", topology_sentence},
      {"pairs", pairs_sentence},
      {"environment", environment_sentence},
      {"collectives_ceiling", [](const Result& x) { return collectives_sentence(x, false); }},
      {"collectives_expected", [](const Result& x) { return collectives_sentence(x, true); }},
      {"scaling",
       [](const Result& x) { return count_sentence(x, RunKind::scale, "none 10% below fewer GPUs"); }},
      {"algorithms",
       [](const Result& x) {
         return count_sentence(x, RunKind::algos,
                               "no forced setting faster than NCCL's choice beyond the intervals");
       }},
      {"host_consistency",
       [](const Result& x) {
         return fmt::format("{} alike: versions, NCCL_* settings, GPUs, NICs, NET plugin",
                            plural(x.hosts.size(), "host", "hosts"));
       }},
      {"host",
       [](const Result&) {
         return std::string("the host's configuration and the GPUs' health as read: nothing to report");
       }},
      {"network",
       [](const Result& x) {
         return x.host.config ? fmt::format("{} read: none down, at one rate per kind, near its GPUs",
                                            plural(x.host.config->network.ports.size(), "network port",
                                                   "network ports"))
                              : std::string();
       }},
      {"nodes",
       [](const Result& x) {
         return x.nodes ? fmt::format("{}: no host or link named slow",
                                      plural(x.nodes->pairs.size(), "pair of hosts", "pairs of hosts"))
                        : std::string();
       }},
  }};
  for (const auto& [name, words] : kWords)
    if (name == check) return words(r);
  return "";
}

void explain_passed_checks(Result& r) {
  if (!r.verdict) return;
  for (auto& c : r.verdict->checks)
    if (c.status == CheckStatus::pass && c.evidence.empty()) c.evidence = pass_sentence(c.check, r);
}

}  // namespace fb
