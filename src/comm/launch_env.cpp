#include "comm/launch_env.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <tuple>

#include "comm/hostlist.hpp"
#include "core/error.hpp"
#include "core/parse_number.hpp"

namespace fb {
namespace {

constexpr int kMaxRanks = 1 << 20;

bool has(const EnvLookup& env, const char* name) { return env(name).has_value(); }

std::string need(const EnvLookup& env, const char* name, const char* launcher) {
  const auto v = env(name);
  if (!v || v->empty())
    FB_USAGE_ERROR(
        fmt::format("--launcher {}: the variable {} is not set (the launcher sets it)", launcher, name));
  return *v;
}

int int_var(const EnvLookup& env, const char* name, const char* launcher, int lo, int hi) {
  return parse_int_in(need(env, name, launcher), name, lo, hi);
}

// The rendezvous port when the user or MASTER_PORT chose one.
std::optional<std::pair<int, std::string>> chosen_port(const EnvLookup& env, const char* launcher) {
  if (const auto p = env("FABRICBENCH_RENDEZVOUS_PORT"))
    return std::pair{parse_int_in(*p, "FABRICBENCH_RENDEZVOUS_PORT", 1, 65535),
                     "FABRICBENCH_RENDEZVOUS_PORT"};
  if (has(env, "MASTER_PORT")) {
    const int master = int_var(env, "MASTER_PORT", launcher, 1, 65534);
    return std::pair{master + 1, "MASTER_PORT + 1"};
  }
  return std::nullopt;
}

void check_rank(int rank, int size, const char* rank_var, const char* size_var) {
  if (rank >= size)
    FB_USAGE_ERROR(fmt::format("{}={} is not a rank of a job of {}={} (0-{})", rank_var, rank, size_var, size,
                               size - 1));
}

}  // namespace

std::string to_string(JobLauncher launcher) {
  switch (launcher) {
    case JobLauncher::mpi:
      return "mpi";
    case JobLauncher::torchrun:
      return "torchrun";
    case JobLauncher::slurm:
      return "slurm";
    case JobLauncher::none:
      break;
  }
  return "local";
}

std::optional<std::string> process_env(const std::string& name) {
  const char* v = std::getenv(name.c_str());
  return v == nullptr ? std::nullopt : std::optional<std::string>(v);
}

JobLauncher detect_job_launcher(const EnvLookup& env) {
  if (has(env, "RANK") && has(env, "WORLD_SIZE") && has(env, "MASTER_ADDR") && has(env, "MASTER_PORT"))
    return JobLauncher::torchrun;
  if (has(env, "OMPI_COMM_WORLD_SIZE") || has(env, "MV2_COMM_WORLD_SIZE")) return JobLauncher::mpi;
  const bool slurm = has(env, "SLURM_PROCID") && has(env, "SLURM_NTASKS");
  if (!slurm && (has(env, "PMI_SIZE") || has(env, "PMIX_RANK"))) return JobLauncher::mpi;
  return slurm ? JobLauncher::slurm : JobLauncher::none;
}

JobLauncher choose_job_launcher(const std::vector<std::string>& args, const EnvLookup& env) {
  std::string choice = "auto";
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--launcher" && i + 1 < args.size()) {
      choice = args[i + 1];
      break;
    }
    if (args[i].starts_with("--launcher=")) {
      choice = args[i].substr(std::string("--launcher=").size());
      break;
    }
  }
  if (choice == "local") return JobLauncher::none;
  for (const auto forced : {JobLauncher::mpi, JobLauncher::torchrun, JobLauncher::slurm})
    if (choice == to_string(forced)) return forced;
  return detect_job_launcher(env);
}

double timeout_from_args(const std::vector<std::string>& args, double fallback) {
  for (std::size_t i = 1; i + 1 < args.size(); ++i)
    if (args[i] == "--timeout")
      if (const auto v = try_parse_finite(args[i + 1]); v && *v > 0) return *v;
  return fallback;
}

TcpJobEnv torchrun_env(const EnvLookup& env) {
  TcpJobEnv j;
  j.launcher = JobLauncher::torchrun;
  j.size = int_var(env, "WORLD_SIZE", "torchrun", 1, kMaxRanks);
  j.rank = int_var(env, "RANK", "torchrun", 0, kMaxRanks);
  check_rank(j.rank, j.size, "RANK", "WORLD_SIZE");
  if (has(env, "LOCAL_RANK")) j.local_rank = int_var(env, "LOCAL_RANK", "torchrun", 0, kMaxRanks);
  if (has(env, "LOCAL_WORLD_SIZE") && j.local_rank >= 0)
    check_rank(j.local_rank, int_var(env, "LOCAL_WORLD_SIZE", "torchrun", 1, kMaxRanks), "LOCAL_RANK",
               "LOCAL_WORLD_SIZE");
  j.master_addr = need(env, "MASTER_ADDR", "torchrun");
  need(env, "MASTER_PORT", "torchrun");
  std::tie(j.port, j.port_origin) = *chosen_port(env, "torchrun");
  return j;
}

TcpJobEnv slurm_env(const EnvLookup& env) {
  TcpJobEnv j;
  j.launcher = JobLauncher::slurm;
  const char* size_var = has(env, "SLURM_STEP_NUM_TASKS") ? "SLURM_STEP_NUM_TASKS" : "SLURM_NTASKS";
  j.size = int_var(env, size_var, "slurm", 1, kMaxRanks);
  j.rank = int_var(env, "SLURM_PROCID", "slurm", 0, kMaxRanks);
  check_rank(j.rank, j.size, "SLURM_PROCID", size_var);
  if (has(env, "SLURM_LOCALID")) j.local_rank = int_var(env, "SLURM_LOCALID", "slurm", 0, kMaxRanks);
  if (const auto addr = env("MASTER_ADDR")) {
    j.master_addr = *addr;
  } else {
    const char* list_var = has(env, "SLURM_STEP_NODELIST") ? "SLURM_STEP_NODELIST" : "SLURM_JOB_NODELIST";
    const auto hosts = expand_hostlist(need(env, list_var, "slurm"));
    if (hosts.empty()) FB_USAGE_ERROR(fmt::format("{} names no host", list_var));
    j.master_addr = hosts.front();
  }
  if (const auto port = chosen_port(env, "slurm")) {
    std::tie(j.port, j.port_origin) = *port;
  } else {
    const auto job = parse_whole(need(env, "SLURM_JOB_ID", "slurm"), "SLURM_JOB_ID", 0);
    const auto step = try_parse_whole(env("SLURM_STEP_ID").value_or("0")).value_or(0);
    j.port = static_cast<int>(20000 + (job * 16 + std::max<std::int64_t>(step, 0)) % 20000);
    j.port_origin = "derived from SLURM_JOB_ID and SLURM_STEP_ID";
  }
  return j;
}

}  // namespace fb
