#include "comm/job_session.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "core/json_text.hpp"

namespace fb {
namespace {

JobSession* g_session = nullptr;

// A plan's JSON nests a few levels (plan, runs, points, their members); a document's limit.
constexpr int kPlanDepth = 64;

constexpr std::array<std::string_view, 8> kPlanVariables{
    "NCCL_ALGO",     "NCCL_PROTO",    "NCCL_MIN_NCHANNELS", "NCCL_MAX_NCHANNELS",
    "NCCL_NTHREADS", "NCCL_BUFFSIZE", "NCCL_MIN_CTAS",      "NCCL_MAX_CTAS"};

// NCCL's syntax for these values: "Ring,Tree", "allreduce:ring;broadcast:^tree", "4194304".
bool plan_value(std::string_view value) {
  constexpr std::string_view kAllowed =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789,;:^_-=";
  return value.size() <= 256 && value.find_first_not_of(kAllowed) == std::string_view::npos;
}

}  // namespace

std::map<std::string, std::string> plan_environment(const std::map<std::string, std::string>& env,
                                                    std::vector<std::string>* dropped) {
  std::map<std::string, std::string> kept;
  for (const auto& [k, v] : env) {
    const bool known = std::find(kPlanVariables.begin(), kPlanVariables.end(), k) != kPlanVariables.end();
    if (known && plan_value(v))
      kept[k] = v;
    else if (dropped != nullptr)
      dropped->push_back(k);
  }
  return kept;
}

std::vector<int> local_ranks_of(const std::vector<std::string>& hosts) {
  std::map<std::string, int> seen;
  std::vector<int> out;
  out.reserve(hosts.size());
  for (const auto& h : hosts) out.push_back(seen[h]++);
  return out;
}

std::string job_plan_message(const nlohmann::json& plan, const std::map<std::string, std::string>& env) {
  return nlohmann::json{{"plan", plan}, {"env", plan_environment(env)}}.dump();
}

std::optional<JobPlanMessage> parse_job_plan_message(const std::string& text) {
  if (text == kJobNoMorePlans) return std::nullopt;
  std::string why;
  const auto j = parse_json_bounded(text, kPlanDepth, why);
  const auto bad = [](const std::string& what) {
    return Error(ExitCode::run_failed, "rank 0's message is not a plan: " + what);
  };
  if (!j) throw bad(why);
  if (!j->is_object() || !j->contains("plan") || !j->contains("env") || !j->at("env").is_object())
    throw bad("no plan and environment");
  std::map<std::string, std::string> env;
  for (const auto& [k, v] : j->at("env").items())
    if (v.is_string()) env[k] = v.get<std::string>();
  return JobPlanMessage{j->at("plan"), plan_environment(env)};
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
