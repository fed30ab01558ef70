#include "ingest/nccl_tests_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/parse_number.hpp"
#include "ingest/nccl_tests_header.hpp"

namespace fb {
namespace {

using nlohmann::json;

const json& member(const json& j, const char* key, const std::string& path) {
  if (!j.is_object() || !j.contains(key)) FB_USAGE_ERROR(fmt::format("{}.{}: missing", path, key));
  return j.at(key);
}

double number(const json& j, const char* key, const std::string& path) {
  const auto& v = member(j, key, path);
  if (!v.is_number()) FB_USAGE_ERROR(fmt::format("{}.{}: expected a number, got {}", path, key, v.dump()));
  return v.get<double>();
}

std::uint64_t whole(const json& j, const char* key, const std::string& path) {
  const auto& v = member(j, key, path);
  if (!v.is_number_unsigned())
    FB_USAGE_ERROR(fmt::format("{}.{}: expected a whole number, got {}", path, key, v.dump()));
  return v.get<std::uint64_t>();
}

int small_int(const json& j, const char* key) {
  if (!j.contains(key) || !j.at(key).is_number_integer()) return 0;
  return static_cast<int>(std::clamp<std::int64_t>(j.at(key).get<std::int64_t>(), -1, 1 << 30));
}

void read_devices(const json& config, ToolRun& run) {
  if (!config.contains("devices") || !config.at("devices").is_array()) return;
  for (const auto& d : config.at("devices")) {
    if (!d.is_object()) continue;
    ToolDevice dev;
    dev.rank = small_int(d, "rank");
    dev.device = small_int(d, "device");
    dev.host = d.value("hostname", std::string());
    dev.bus_id = pci_bus_id_of(d.value("device_hex", std::string()));
    dev.name = d.value("device_info", std::string());
    run.devices.push_back(dev);
  }
}

std::optional<ToolIterations> per_iter(const json& e, const char* key) {
  if (!e.contains(key) || !e.at(key).is_object()) return std::nullopt;
  const auto& it = e.at(key);
  const auto path = fmt::format("$.results[].{}", key);
  ToolIterations t{number(it, "min_us", path),
                   number(it, "max_us", path),
                   number(it, "p99_us", path),
                   number(it, "p50_us", path),
                   {}};
  if (it.contains("times_us") && it.at("times_us").is_array())
    for (const auto& s : it.at("times_us"))
      if (s.is_number()) t.samples_us.push_back(s.get<double>());
  return t;
}

void read_variant(const json& e, bool in_place, const ToolPoint& base, std::size_t index, ToolRun& run) {
  const char* key = in_place ? "in_place" : "out_of_place";
  if (!e.contains(key) || e.at(key).is_null()) return;
  const auto path = fmt::format("$.results[{}].{}", index, key);
  const auto& v = e.at(key);
  ToolPoint p = base;
  p.in_place = in_place;
  p.time_us = number(v, v.contains("cpu_time") ? "cpu_time" : "time", path);
  p.algbw = number(v, "alg_bw", path);
  p.busbw = number(v, "bus_bw", path);
  if (v.contains("nwrong") && v.at("nwrong").is_number())
    p.wrong = whole_from_double(v.at("nwrong").get<double>());
  p.iterations = per_iter(e, in_place ? "in_place_per_iter" : "out_of_place_per_iter");
  if (p.time_us < 0 || p.algbw < 0 || p.busbw < 0)
    FB_USAGE_ERROR(fmt::format("{}: a negative time or bandwidth", path));
  run.points.push_back(p);
}

}  // namespace

bool looks_like_nccl_tests_json(const json& j) {
  return j.is_object() && j.contains("results") && j.contains("config") && !j.contains("schema");
}

ToolRun read_nccl_tests_json(const json& j) {
  ToolRun run;
  run.tool = "nccl-tests JSON";
  run.tool_version = j.contains("version") ? fmt::format("JSON format {}", j.at("version").dump()) : "";
  run.library = "NCCL";
  run.library_code = small_int(j, "nccl_version");
  if (j.contains("args") && j.at("args").is_array() && !j.at("args").empty() && j.at("args")[0].is_string()) {
    run.collective = collective_of_binary(j.at("args")[0].get<std::string>());
    run.collective_from = "its command line ($.args[0])";
  }
  const auto& config = member(j, "config", "$");
  run.threads = small_int(config, "nthreads");
  run.gpus_per_thread = small_int(config, "ngpus");
  run.iters = small_int(config, "iterations");
  run.warmup_iters = small_int(config, "warmup_iters");
  run.graph_launches = small_int(config, "graph");
  read_devices(config, run);
  const auto& results = member(j, "results", "$");
  if (!results.is_array()) FB_USAGE_ERROR("$.results: expected an array");
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& e = results[i];
    const auto path = fmt::format("$.results[{}]", i);
    ToolPoint base;
    base.bytes = whole(e, "size", path);
    base.count = whole(e, "count", path);
    base.type = e.value("type", std::string());
    base.redop = e.value("redop", std::string());
    if (base.redop == "none") base.redop.clear();
    auto root = e.value("root", std::string("-1"));  // "%6i": "    -1"
    root.erase(0, root.find_first_not_of(' ') == std::string::npos ? 0 : root.find_first_not_of(' '));
    base.root = static_cast<int>(try_parse_whole(root).value_or(-1));
    read_variant(e, false, base, i, run);
    read_variant(e, true, base, i, run);
  }
  if (j.contains("average_bus_bandwidth") && j.at("average_bus_bandwidth").contains("bandwidth") &&
      j.at("average_bus_bandwidth").at("bandwidth").is_number())
    run.avg_busbw = j.at("average_bus_bandwidth").at("bandwidth").get<double>();
  if (j.contains("out_of_bounds") && j.at("out_of_bounds").is_object())
    run.out_of_bounds = small_int(j.at("out_of_bounds"), "count");
  return run;
}

}  // namespace fb
