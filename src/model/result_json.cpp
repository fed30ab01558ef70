#include "model/result_json.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "core/file_io.hpp"
#include "model/host_facts_json.hpp"
#include "model/json_limits.hpp"
#include "model/json_optional.hpp"
#include "model/nccl_setup_json.hpp"
#include "model/projection_json.hpp"
#include "model/result_version.hpp"
#include "model/topology_json.hpp"
#include "model/verdict_json.hpp"

namespace fb {
using nlohmann::json;

namespace {
// JSON has no infinity: an unbounded confidence interval is written as null.
json finite_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }
double number_or_inf(const json& j) {
  return j.is_null() ? std::numeric_limits<double>::infinity() : j.get<double>();
}
}  // namespace

void to_json(json& j, const Finding& v) {
  j = json{{"code", v.code},
           {"severity", v.severity},
           {"evidence", v.evidence},
           {"expected", v.expected},
           {"hint", v.hint}};
  if (!v.host.empty()) j["host"] = v.host;
}

void from_json(const json& j, Finding& v) {
  j.at("code").get_to(v.code);
  j.at("severity").get_to(v.severity);
  j.at("evidence").get_to(v.evidence);
  j.at("expected").get_to(v.expected);
  j.at("hint").get_to(v.hint);
  v.host = j.value("host", std::string());
}

void to_json(json& j, const HostInfo& v) {
  j = json{{"hostname", v.hostname},
           {"driver", v.driver},
           {"runtime", v.runtime},
           {"comm", v.comm},
           {"config", v.config}};
}
void from_json(const json& j, HostInfo& v) {
  j.at("hostname").get_to(v.hostname);
  j.at("driver").get_to(v.driver);
  j.at("runtime").get_to(v.runtime);
  j.at("comm").get_to(v.comm);
  v.config = j.value("config", json()).get<std::optional<HostFacts>>();
}

void to_json(json& j, const TimeStats& v) {
  j = json{{"min", v.min}, {"median", v.median}, {"mean", v.mean},
           {"p99", v.p99}, {"max", v.max},       {"median_ci", finite_or_null(v.median_ci)},
           {"n", v.n}};
}
void from_json(const json& j, TimeStats& v) {
  j.at("min").get_to(v.min);
  j.at("median").get_to(v.median);
  j.at("mean").get_to(v.mean);
  j.at("p99").get_to(v.p99);
  j.at("max").get_to(v.max);
  v.median_ci = number_or_inf(j.at("median_ci"));
  j.at("n").get_to(v.n);
}

void to_json(json& j, const Point& v) {
  j = json{
      {"bytes", v.bytes},
      {"count", v.count},
      {"in_place", v.in_place},
      {"time_us", v.time_us},
      {"algbw_gbps", v.algbw_gbps},
      {"busbw_gbps", v.busbw_gbps},
      {"wrong", v.wrong < 0 ? json(nullptr) : json(v.wrong)},
      {"iters_per_batch", v.iters_per_batch},
      {"nccl", v.nccl_algo.empty()
                   ? json(nullptr)
                   : json{{"algo", v.nccl_algo}, {"proto", v.nccl_proto}, {"channels", v.nccl_channels}}}};
  if (v.sampling) j["sampling"] = *v.sampling;  // absent, as in documents written before it existed
  if (v.iterations) j["iterations"] = *v.iterations;
}
void from_json(const json& j, Point& v) {
  j.at("bytes").get_to(v.bytes);
  j.at("count").get_to(v.count);
  j.at("in_place").get_to(v.in_place);
  j.at("time_us").get_to(v.time_us);
  j.at("algbw_gbps").get_to(v.algbw_gbps);
  j.at("busbw_gbps").get_to(v.busbw_gbps);
  v.wrong = j.at("wrong").is_null() ? -1 : j.at("wrong").get<std::int64_t>();
  j.at("iters_per_batch").get_to(v.iters_per_batch);
  if (j.contains("sampling") && !j.at("sampling").is_null())
    v.sampling = j.at("sampling").get<PointSampling>();
  if (j.contains("iterations") && !j.at("iterations").is_null())
    v.iterations = j.at("iterations").get<IterationTimes>();
  if (j.contains("nccl") && !j.at("nccl").is_null()) {
    j.at("nccl").at("algo").get_to(v.nccl_algo);
    j.at("nccl").at("proto").get_to(v.nccl_proto);
    j.at("nccl").at("channels").get_to(v.nccl_channels);
  }
}

void to_json(json& j, const Run& v) {
  j = json{{"kind", v.kind},
           {"label", v.label},
           {"collective", v.collective},
           {"dtype", v.dtype},
           {"op", v.op.empty() ? json(nullptr) : json(v.op)},
           {"root", v.root},
           {"gpus", v.gpus},
           {"launcher", v.launcher},
           {"graph_launches", v.graph_launches},
           {"forced", v.forced},
           {"failure", v.failure},
           {"nccl_setup", nccl_setup_json(v)},
           {"points", v.points}};
  if (!v.alloc.empty()) j["alloc"] = v.alloc;  // absent when not recorded: old documents stay equal
  if (!v.fill.empty()) j["fill"] = v.fill;     // absent for the default pattern
}
// label, alloc, fill, failure and nccl_setup are absent from documents written before runs carried
// them (fill also for the default pattern).
void from_json(const json& j, Run& v) {
  j.at("kind").get_to(v.kind);
  v.label = j.value("label", std::string());
  j.at("collective").get_to(v.collective);
  j.at("dtype").get_to(v.dtype);
  v.op = j.at("op").is_null() ? std::string() : j.at("op").get<std::string>();
  j.at("root").get_to(v.root);
  j.at("gpus").get_to(v.gpus);
  j.at("launcher").get_to(v.launcher);
  j.at("graph_launches").get_to(v.graph_launches);
  v.alloc = j.value("alloc", std::string());
  v.fill = j.value("fill", std::string());
  j.at("forced").get_to(v.forced);
  v.failure = j.value("failure", std::string());
  if (j.contains("nccl_setup")) read_nccl_setup(j.at("nccl_setup"), v);
  j.at("points").get_to(v.points);
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(StartupPhase, phase, at_ms)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(NodePair, a, b, round, busbw_gbps, time_us, failure)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(NodeHost, name, first_pairs, known_good_pairs, slow_pairs,
                                                healthy_chance)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(NodesInfo, mode, collective, bytes, rounds_planned,
                                                seconds_per_round, reference_gbps, reference_from,
                                                slow_below_gbps, pairs, named, exclude, spread, hosts, cut)

void to_json(json& j, const HostSection& v) {
  j = json{{"name", v.name},
           {"ranks", v.ranks},
           {"host", v.host},
           {"env", v.env},
           {"gpus", v.gpus},
           {"topology", v.topology},
           {"net_plugin", v.net_plugin},
           {"findings", v.findings}};
  if (!v.command.empty()) j["command"] = v.command;  // 1.6; absent where not known
  if (v.verdict) j["verdict"] = *v.verdict;
}
void from_json(const json& j, HostSection& v) {
  j.at("name").get_to(v.name);
  v.ranks = j.value("ranks", std::vector<int>{});
  j.at("host").get_to(v.host);
  v.env = j.value("env", std::map<std::string, std::string>{});
  v.gpus = j.value("gpus", json::array()).get<std::vector<GpuInfo>>();
  v.topology = j.value("topology", json()).get<std::optional<Topology>>();
  v.net_plugin = j.value("net_plugin", std::string());
  v.command = j.value("command", std::vector<std::string>{});
  v.findings = j.value("findings", json::array()).get<std::vector<Finding>>();
  if (j.contains("verdict") && !j.at("verdict").is_null()) v.verdict = j.at("verdict").get<Verdict>();
}

void to_json(json& j, const Result& v) {
  j = json{{"schema", v.schema},   {"tool", v.tool},         {"command", v.command},
           {"started", v.started}, {"finished", v.finished}, {"status", v.status},
           {"failure", v.failure}, {"host", v.host},         {"env", v.env},
           {"gpus", v.gpus},       {"topology", v.topology}, {"runs", v.runs},
           {"p2p", v.p2p},         {"findings", v.findings}};
  if (!v.startup.empty()) j["startup"] = v.startup;
  if (!v.rules_version.empty()) j["rules_version"] = v.rules_version;  // 1.2
  if (v.doctor) j["doctor"] = *v.doctor;                               // the doctor's documents only
  if (v.projection) j["projection"] = *v.projection;                   // project's documents only
  if (v.expectations) j["expectations"] = *v.expectations;             // judged against a site's file (1.2)
  if (v.verdict) j["verdict"] = *v.verdict;                            // judged documents only (1.2)
  if (!v.hosts.empty()) j["hosts"] = v.hosts;                          // a job across hosts (1.3)
  if (v.nodes) j["nodes"] = *v.nodes;                                  // `nodes` only (1.3)
  if (v.source) j["source"] = *v.source;                               // another tool's output (1.4)
}
void to_json(json& j, const DoctorInfo& v) {
  j = json{{"budget_s", v.budget_s}, {"cuts", v.cuts}, {"stages", v.stages}};
}
void from_json(const json& j, DoctorInfo& v) {
  j.at("budget_s").get_to(v.budget_s);
  j.at("cuts").get_to(v.cuts);
  v.stages = j.value("stages", json::array()).get<std::vector<DoctorStageTime>>();
}

// p2p is absent from documents written before the p2p command, doctor from all but the
// doctor's (and its documents written before cuts were recorded). The version read is not kept:
// what was read is this build's model, so written again it says this build's version (members
// of a later minor that it does not know are gone from it).
void from_json(const json& j, Result& v) {
  (void)j.at("schema");  // required; parse_result has checked its version
  v.schema = kResultSchema;
  j.at("tool").get_to(v.tool);
  j.at("command").get_to(v.command);
  j.at("started").get_to(v.started);
  j.at("finished").get_to(v.finished);
  j.at("status").get_to(v.status);
  j.at("failure").get_to(v.failure);
  j.at("host").get_to(v.host);
  j.at("env").get_to(v.env);
  j.at("gpus").get_to(v.gpus);
  v.topology = j.value("topology", json()).get<std::optional<Topology>>();
  j.at("runs").get_to(v.runs);
  v.p2p = j.value("p2p", json::array()).get<std::vector<P2pMeasurement>>();
  j.at("findings").get_to(v.findings);
  v.startup = j.value("startup", json::array()).get<std::vector<StartupPhase>>();
  v.rules_version = j.value("rules_version", std::string());
  if (j.contains("doctor") && !j.at("doctor").is_null()) v.doctor = j.at("doctor").get<DoctorInfo>();
  if (j.contains("projection") && !j.at("projection").is_null())
    v.projection = j.at("projection").get<Projection>();
  if (j.contains("expectations") && !j.at("expectations").is_null())
    v.expectations = j.at("expectations").get<ExpectationSet>();
  if (j.contains("verdict") && !j.at("verdict").is_null()) v.verdict = j.at("verdict").get<Verdict>();
  v.hosts = j.value("hosts", json::array()).get<std::vector<HostSection>>();
  if (j.contains("nodes") && !j.at("nodes").is_null()) v.nodes = j.at("nodes").get<NodesInfo>();
  if (j.contains("source") && !j.at("source").is_null()) v.source = j.at("source").get<ImportSource>();
}

Result parse_result(const std::string& text) {
  const json j = parse_input_json(text);  // parse_error, a number like 1e999, nesting: one line each
  if (!j.is_object())
    FB_USAGE_ERROR(fmt::format("$: expected a result document (an object), got {}", j.type_name()));
  check_result_schema(j.contains("schema") ? j.at("schema") : json());
  check_json_limits(j);
  try {
    return j.get<Result>();
  } catch (const json::exception& e) {
    FB_USAGE_ERROR(fmt::format("malformed result document: {}", e.what()));
  }
}

Result load_result_file(const std::string& path) {
  const std::string text = read_file(path);
  try {
    return parse_result(text);
  } catch (const Error& e) {
    FB_USAGE_ERROR(fmt::format("{}: {}", path, e.what()));
  }
}

}  // namespace fb
