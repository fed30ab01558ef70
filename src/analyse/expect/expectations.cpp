#include "analyse/expect/expectations.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <utility>

#include "analyse/scope/gpu_model.hpp"
#include "core/text.hpp"

namespace fb {
namespace {

bool row_holds(const ExpectationRow& e, const std::string& model, const ExpectationQuery& q) {
  return e.gpu == model && e.figure == q.figure && (e.gpus == 0 || e.gpus == q.gpus) &&
         (e.hosts == 0 || e.hosts == q.hosts) && q.hosts >= e.min_hosts;
}

bool algo_holds(const ExpectationRow& e, const std::string& algo) {
  return e.algo.empty() || canonical_algo(e.algo) == canonical_algo(algo);
}

}  // namespace

std::string canonical_algo(std::string_view algo) {
  std::string out;
  for (const char c : algo)
    if (c != '_') out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string Expected::source() const {
  return fmt::format("{}, {}{}{}", row.source, row.date,
                     row.kind == ExpectationKind::acceptance ? ", an acceptance line" : "",
                     row.single_report ? ", a single public report" : "");
}

std::vector<ExpectationRow> expectation_rows(const Result& r) {
  const auto builtin = builtin_expectations();
  if (!r.expectations) return {builtin.begin(), builtin.end()};
  std::set<std::pair<std::string, std::string>> site_figures;  // (model, figure) the site measured
  for (const auto& e : r.expectations->rows) site_figures.emplace(e.gpu, e.figure);
  std::vector<ExpectationRow> rows = r.expectations->rows;
  for (const auto& e : builtin)
    if (!site_figures.contains({e.gpu, e.figure})) rows.push_back(e);
  return rows;
}

std::optional<Expected> expected_for(const Result& r, const ExpectationQuery& q) {
  const std::string model = gpu_model_key(q.gpu_name);
  for (const auto& e : expectation_rows(r)) {
    if (!row_holds(e, model, q) || !algo_holds(e, q.algo)) continue;
    if (q.bytes < e.min_bytes || q.bytes > e.max_bytes) continue;
    return Expected{e.value, e};
  }
  return std::nullopt;
}

std::optional<Expected> gate_for(const Result& r, const ExpectationQuery& q) {
  const std::string model = gpu_model_key(q.gpu_name);
  for (const auto& e : expectation_rows(r)) {
    if (e.kind != ExpectationKind::acceptance || !row_holds(e, model, q) || !algo_holds(e, q.algo)) continue;
    if (q.bytes < e.min_bytes || q.bytes > e.max_bytes) continue;
    return Expected{e.value, e};
  }
  return std::nullopt;
}

std::optional<Expected> expected_for(const std::string& gpu_name, int gpus, std::string_view figure,
                                     std::uint64_t bytes) {
  return expected_for(Result{}, {gpu_name, gpus, 1, std::string(figure), bytes, ""});
}

bool has_row_for_algo(const Result& r, const ExpectationQuery& q, std::string_view algo) {
  const std::string model = gpu_model_key(q.gpu_name);
  const auto rows = expectation_rows(r);
  return std::any_of(rows.begin(), rows.end(), [&](const ExpectationRow& e) {
    return row_holds(e, model, q) && !e.algo.empty() && canonical_algo(e.algo) == canonical_algo(algo);
  });
}

double expectation_tolerance(const Expected& e, double relative_interval) {
  const double own = std::isfinite(relative_interval) ? relative_interval : 0.0;
  if (e.row.tolerance >= 0) return e.row.tolerance + own;
  return (e.row.kind == ExpectationKind::acceptance ? 0.0 : kTypicalTolerance) + own;
}

std::string_view figure_unit(std::string_view figure) { return figure.ends_with("latency") ? "ns" : "GB/s"; }

std::string_view expectation_figure(P2pTest test) {
  switch (test) {
    case P2pTest::ce_read:
      return "pair";
    case P2pTest::h2d:
    case P2pTest::d2h:
      return "host";
    case P2pTest::h2d_sm:
      return "h2d_sm";
    case P2pTest::d2h_sm:
      return "d2h_sm";
    case P2pTest::local_copy:
      return "local_copy";
    case P2pTest::host_latency:
      return "host_latency";
    default:
      return "";
  }
}

}  // namespace fb
