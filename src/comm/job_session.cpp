#include "comm/job_session.hpp"

namespace fb {
namespace {

JobSession* g_session = nullptr;

}  // namespace

std::vector<int> local_ranks_of(const std::vector<std::string>& hosts) {
  std::map<std::string, int> seen;
  std::vector<int> out;
  out.reserve(hosts.size());
  for (const auto& h : hosts) out.push_back(seen[h]++);
  return out;
}

std::string job_plan_message(const nlohmann::json& plan, const std::map<std::string, std::string>& env) {
  std::map<std::string, std::string> passed;
  for (const auto& [k, v] : env)
    if (!k.starts_with("NCCL_DEBUG")) passed[k] = v;
  return nlohmann::json{{"plan", plan}, {"env", passed}}.dump();
}

std::optional<JobPlanMessage> parse_job_plan_message(const std::string& text) {
  if (text == kJobNoMorePlans) return std::nullopt;
  const auto j = nlohmann::json::parse(text);
  return JobPlanMessage{j.at("plan"), j.at("env").get<std::map<std::string, std::string>>()};
}

JobSession* JobSession::current() { return g_session; }

void JobSession::install(JobSession* session) { g_session = session; }

void JobSession::begin_step(const std::string& label, double timeout_s) {
  (void)label;
  (void)timeout_s;
}

void JobSession::set_world(int rank, std::vector<std::string> hosts, std::vector<int> local_ranks) {
  rank_ = rank;
  hosts_ = std::move(hosts);
  local_ranks_ = local_ranks.empty() ? local_ranks_of(hosts_) : std::move(local_ranks);
}

}  // namespace fb
