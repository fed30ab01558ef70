#include "analyse/expect/expectations_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "analyse/expect/expectations.hpp"
#include "analyse/expect/nvlink_domain.hpp"
#include "analyse/expect/reach.hpp"
#include "analyse/expect/what_ran.hpp"
#include "analyse/scope/gpu_model.hpp"
#include "analyse/scope/gpu_names.hpp"
#include "bench/collective_spec.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/file_io.hpp"
#include "model/json_limits.hpp"
#include "model/verdict_json.hpp"

namespace fb {
namespace {
using nlohmann::json;

constexpr std::array<std::string_view, 7> kOneGpuFigures{"pair",       "host",         "h2d_sm", "d2h_sm",
                                                         "local_copy", "host_latency", ""};
constexpr std::array<std::string_view, 5> kRequired{"gpu", "figure", "value", "source", "date"};
const std::set<std::string> kMembers{"gpu",       "gpus", "hosts",         "figure",   "min_bytes",
                                     "max_bytes", "algo", "value",         "kind",     "tolerance",
                                     "source",    "date", "single_report", "min_hosts"};

bool known_figure(const std::string& figure) {
  if (find_collective(figure) != nullptr) return true;
  for (const auto f : kOneGpuFigures)
    if (!f.empty() && f == figure) return true;
  return false;
}

bool is_date(const std::string& d) {
  if (d.size() != 10 || d[4] != '-' || d[7] != '-') return false;
  for (const std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (d[i] < '0' || d[i] > '9') return false;
  return true;
}

// What is wrong with a row's GPU, which would otherwise match nothing; "" when nothing.
std::string identity_problem(const ExpectationRow& e) {
  if (e.gpu.empty()) return "gpu: empty (a model key such as \"H200\" or \"MI300X\")";
  if (const auto key = gpu_model_key(e.gpu); key != e.gpu)
    return key.empty() ? fmt::format("gpu: '{}' is not a model key (such as \"H200\" or \"MI300X\")", e.gpu)
                       : fmt::format("gpu: '{}' is not a model key: write '{}'", e.gpu, key);
  return "";
}

// What is wrong with one row as read; "" when nothing.
std::string row_problem(const ExpectationRow& e) {
  if (const auto problem = identity_problem(e); !problem.empty()) return problem;
  if (!known_figure(e.figure))
    return fmt::format(
        "figure: unknown figure '{}' (a collective's name or pair, host, h2d_sm, d2h_sm, local_copy, "
        "host_latency)",
        e.figure);
  if (!std::isfinite(e.value) || e.value <= 0) return fmt::format("value: must be above 0, got {}", e.value);
  if (e.gpus < 0 || e.hosts < 0 || e.min_hosts < 0)
    return "gpus, hosts and min_hosts: must be 0 (any) or more";
  if (e.min_bytes > e.max_bytes) return "min_bytes: above max_bytes";
  if (e.tolerance != -1 && (!(e.tolerance >= 0) || e.tolerance > 1))
    return fmt::format("tolerance: must be a fraction from 0 to 1, got {}", e.tolerance);
  if (e.source.empty() || e.date.empty())
    return "source and date: every row says where its figure comes from and when";
  if (!is_date(e.date)) return fmt::format("date: '{}' is not a date as YYYY-MM-DD", e.date);
  return "";
}

// A member whose JSON type cannot hold it ("" when it can).
std::string member_type_problem(const std::string& key, const json& v) {
  static const std::set<std::string> texts{"gpu", "figure", "algo", "kind", "source", "date"};
  static const std::set<std::string> counts{"min_bytes", "max_bytes", "gpus", "hosts", "min_hosts"};
  if (texts.contains(key)) return v.is_string() ? "" : "expected a text";
  if (key == "single_report") return v.is_boolean() ? "" : "expected true or false";
  if (counts.contains(key))  // gpus and hosts may be negative here: row_problem names that
    return v.is_number_integer() || (key == "max_bytes" && v.is_null()) ? "" : "expected a whole number";
  return v.is_number() ? "" : "expected a number";
}

ExpectationRow parse_row(const json& j, std::size_t i) {
  const auto where = fmt::format("rows[{}]", i);
  if (!j.is_object()) throw Error(ExitCode::usage, where + ": not an object");
  for (const auto& [key, value] : j.items()) {
    if (!kMembers.contains(key))
      throw Error(ExitCode::usage, fmt::format("{}: unknown member '{}'", where, key));
    if (const auto problem = member_type_problem(key, value); !problem.empty())
      throw Error(ExitCode::usage, fmt::format("{}.{}: {}", where, key, problem));
  }
  for (const auto key : kRequired)
    if (!j.contains(key))
      throw Error(ExitCode::usage,
                  fmt::format("{}: no '{}' (every row has gpu, figure, value, source and date)", where, key));
  ExpectationRow row;
  try {
    row = j.get<ExpectationRow>();
  } catch (const json::exception& e) {
    throw Error(ExitCode::usage, fmt::format("{}: {}", where, e.what()));
  } catch (const Error& e) {
    throw Error(ExitCode::usage, fmt::format("{}: {}", where, e.what()));
  }
  if (const auto problem = row_problem(row); !problem.empty())
    throw Error(ExitCode::usage, fmt::format("{}.{}", where, problem));
  return row;
}

ExpectationSet parse_document(const std::string& text, const std::string& file) {
  const json j = parse_input_json(text);  // its nesting bounded: one line of error, never a crash
  if (!j.is_object() || j.value("schema", json()) != kExpectationsSchema)
    throw Error(ExitCode::usage,
                fmt::format("not an expectations file: expected an object with \"schema\": \"{}\"",
                            kExpectationsSchema));
  if (!j.contains("rows") || !j.at("rows").is_array() || j.at("rows").empty())
    throw Error(ExitCode::usage, "rows: expected a non-empty array of rows");
  ExpectationSet set{file, {}};
  for (std::size_t i = 0; i < j.at("rows").size(); ++i) set.rows.push_back(parse_row(j.at("rows").at(i), i));
  return set;
}

}  // namespace

ExpectationSet parse_expectations(const std::string& text, const std::string& file) {
  try {
    return parse_document(text, file);
  } catch (const Error& e) {
    FB_USAGE_ERROR(fmt::format("{}: {}", file, e.what()));
  }
}

ExpectationSet load_expectations_file(const std::string& path) {
  std::string text;
  try {
    text = read_file(path);
  } catch (const Error& e) {
    FB_USAGE_ERROR(fmt::format("--expectations: {}", e.what()));
  }
  return parse_expectations(text, path);
}

namespace {

// Where a baseline's figures come from: the run (its host and start), or another tool's output (which
// tells no date: the day it was read).
std::string baseline_source(const Result& r, const std::string& file) {
  if (!r.source) return fmt::format("site baseline: {} ({}, {})", file, r.host.hostname, r.started);
  const auto& s = *r.source;
  return fmt::format("site baseline: {} ({}{}'s output{}, read {})", file, s.tool,
                     s.version.empty() ? "" : " " + s.version,
                     r.host.hostname.empty() ? "" : " on " + r.host.hostname, now_iso8601().substr(0, 10));
}

std::string baseline_date(const Result& r) {
  return (r.started.empty() || r.source ? now_iso8601() : r.started).substr(0, 10);
}

}  // namespace

std::vector<ExpectationRow> baseline_rows(const Result& r, const std::string& file) {
  std::vector<ExpectationRow> rows;
  const std::string source = baseline_source(r, file);
  const std::string date = baseline_date(r);
  for (const auto& run : r.runs) {
    if (!judged_run(run) || run.points.empty()) continue;
    const auto& p = *std::max_element(run.points.begin(), run.points.end(),
                                      [](const Point& a, const Point& b) { return a.bytes < b.bytes; });
    const auto w = what_ran(r, run, p);
    ExpectationRow e;
    e.gpu = gpu_model_key(gpu_name(r, run.gpus));
    e.gpus = static_cast<int>(run.gpus.size());
    e.hosts = nccl_hosts(r, run);  // as the judge counts them: an NVLink domain is one
    e.figure = run.collective;
    e.min_bytes = p.bytes;
    e.algo = w.how.starts_with("assumed") || w.how.starts_with("NVLS off") ? "" : w.algo;
    e.value = std::round(p.busbw_gbps * 10) / 10;  // GB/s to 0.1: what a person edits
    e.source = source;
    e.date = date;
    rows.push_back(std::move(e));
  }
  if (rows.empty())
    FB_USAGE_ERROR(fmt::format("{}: no collective run of 2 or more GPUs to take a baseline from", file));
  return rows;
}

std::string expectations_document(const std::vector<ExpectationRow>& rows) {
  return json{{"schema", kExpectationsSchema}, {"rows", rows}}.dump(2) + "\n";
}

}  // namespace fb
