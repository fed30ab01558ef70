#include "model/verdict_json.hpp"

namespace fb {
using nlohmann::json;

void to_json(json& j, const CheckVerdict& v) {
  j = json{{"check", v.check},
           {"status", v.status},
           {"action", v.action},
           {"codes", v.codes},
           {"evidence", v.evidence}};
}
void from_json(const json& j, CheckVerdict& v) {
  j.at("check").get_to(v.check);
  j.at("status").get_to(v.status);
  j.at("action").get_to(v.action);
  j.at("codes").get_to(v.codes);
  j.at("evidence").get_to(v.evidence);
}

void to_json(json& j, const Verdict& v) {
  j = json{
      {"status", v.status}, {"action", v.action}, {"expectations", v.expectations}, {"checks", v.checks}};
  if (!v.headline.empty()) j["headline"] = v.headline;  // 1.6
  if (!v.outcome.empty()) j["outcome"] = v.outcome;
}
void from_json(const json& j, Verdict& v) {
  j.at("status").get_to(v.status);
  j.at("action").get_to(v.action);
  j.at("expectations").get_to(v.expectations);
  j.at("checks").get_to(v.checks);
  v.headline = j.value("headline", std::string());  // absent before 1.6
  v.outcome = j.value("outcome", std::string());
}

void to_json(json& j, const ExpectationRow& v) {
  j = json{{"gpu", v.gpu},
           {"gpus", v.gpus},
           {"hosts", v.hosts},
           {"figure", v.figure},
           {"min_bytes", v.min_bytes},
           {"max_bytes", v.max_bytes == kAnyBytes ? json(nullptr) : json(v.max_bytes)},
           {"algo", v.algo},
           {"value", v.value},
           {"kind", v.kind},
           {"source", v.source},
           {"date", v.date}};
  if (v.tolerance >= 0) j["tolerance"] = v.tolerance;
  if (v.single_report) j["single_report"] = true;
  if (v.min_hosts > 0) j["min_hosts"] = v.min_hosts;  // 1.6
}
// A site file may leave out what has a default: gpus, hosts, the sizes, algo, kind, tolerance.
void from_json(const json& j, ExpectationRow& v) {
  j.at("gpu").get_to(v.gpu);
  j.at("figure").get_to(v.figure);
  j.at("value").get_to(v.value);
  j.at("source").get_to(v.source);
  j.at("date").get_to(v.date);
  v.gpus = j.value("gpus", 0);
  v.hosts = j.value("hosts", 1);
  v.min_bytes = j.value("min_bytes", std::uint64_t{0});
  const json max = j.value("max_bytes", json());
  v.max_bytes = max.is_null() ? kAnyBytes : max.get<std::uint64_t>();
  v.algo = j.value("algo", std::string());
  v.kind = j.contains("kind") ? j.at("kind").get<ExpectationKind>() : ExpectationKind::typical;
  v.tolerance = j.value("tolerance", -1.0);
  v.single_report = j.value("single_report", false);
  v.min_hosts = j.value("min_hosts", 0);
}

void to_json(json& j, const ExpectationSet& v) { j = json{{"file", v.file}, {"rows", v.rows}}; }
void from_json(const json& j, ExpectationSet& v) {
  j.at("file").get_to(v.file);
  j.at("rows").get_to(v.rows);
}

}  // namespace fb
