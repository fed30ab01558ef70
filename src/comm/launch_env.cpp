#include "comm/launch_env.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <span>

#include "comm/hostlist.hpp"
#include "core/error.hpp"
#include "core/parse_number.hpp"

namespace fb {

const std::array<LauncherRow, 4> EnumNames<JobLauncher>::table{{
    {.id = JobLauncher::none,
     .name = "local",
     .command = "fabricbench",
     .wiring = RankWiring::own_workers,
     .own = {},
     .shared = {},
     .ranks = {},
     .rendezvous = {}},
    {.id = JobLauncher::torchrun,
     .name = "torchrun",
     .command = "torchrun",
     .wiring = RankWiring::tcp_rendezvous,
     .own = {true, {"RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"}},
     .shared = {},
     .ranks = {{"WORLD_SIZE"}, "RANK", "LOCAL_RANK", "LOCAL_WORLD_SIZE"},
     .rendezvous = {"MASTER_ADDR", {}, "MASTER_PORT", nullptr}},
    {.id = JobLauncher::mpi,
     .name = "mpi",
     .command = "mpirun",
     .wiring = RankWiring::mpi_plugin,
     .own = {false, {"OMPI_COMM_WORLD_SIZE", "MV2_COMM_WORLD_SIZE"}},
     .shared = {false, {"PMI_SIZE", "PMIX_RANK"}},
     .ranks = {},
     .rendezvous = {}},
    {.id = JobLauncher::slurm,
     .name = "slurm",
     .command = "srun",
     .wiring = RankWiring::tcp_rendezvous,
     .own = {true, {"SLURM_PROCID", "SLURM_NTASKS"}},
     .shared = {},
     .ranks = {{"SLURM_STEP_NUM_TASKS", "SLURM_NTASKS"}, "SLURM_PROCID", "SLURM_LOCALID", {}},
     .rendezvous =
         {"MASTER_ADDR", {"SLURM_STEP_NODELIST", "SLURM_JOB_NODELIST"}, "MASTER_PORT", slurm_step_port}},
}};

namespace {

constexpr int kMaxRanks = 1 << 20;
// --launcher values that leave the job's launcher to the environment.
constexpr std::array<std::string_view, 3> kDetecting{"auto", "processes", "threads"};

bool has(const EnvLookup& env, std::string_view name) { return env(std::string(name)).has_value(); }

std::string need(const EnvLookup& env, std::string_view name, std::string_view launcher) {
  const auto v = env(std::string(name));
  if (!v || v->empty())
    FB_USAGE_ERROR(
        fmt::format("--launcher {}: the variable {} is not set (the launcher sets it)", launcher, name));
  return *v;
}

int int_var(const EnvLookup& env, std::string_view name, std::string_view launcher, int lo, int hi) {
  return parse_int_in(need(env, name, launcher), name, lo, hi);
}

// The first of `names` that is set, else the last one named (the one an error names).
std::string_view first_set(const EnvLookup& env, std::span<const std::string_view> names) {
  std::string_view last;
  for (const auto name : names) {
    if (name.empty()) continue;
    if (has(env, name)) return name;
    last = name;
  }
  return last;
}

bool matches(const EnvSignature& signature, const EnvLookup& env) {
  int named = 0;
  int set = 0;
  for (const auto var : signature.vars) {
    if (var.empty()) continue;
    ++named;
    if (has(env, var)) ++set;
  }
  return named > 0 && (signature.all ? set == named : set > 0);
}

// The rendezvous port when the user or the launcher's base port chose one.
std::optional<PortChoice> chosen_port(const EnvLookup& env, std::string_view base,
                                      std::string_view launcher) {
  if (const auto p = env("FABRICBENCH_RENDEZVOUS_PORT"))
    return PortChoice{parse_int_in(*p, "FABRICBENCH_RENDEZVOUS_PORT", 1, 65535),
                      "FABRICBENCH_RENDEZVOUS_PORT"};
  if (has(env, base))
    return PortChoice{int_var(env, base, launcher, 1, 65534) + 1, fmt::format("{} + 1", base)};
  return std::nullopt;
}

void check_rank(int rank, int size, std::string_view rank_var, std::string_view size_var) {
  if (rank >= size)
    FB_USAGE_ERROR(fmt::format("{}={} is not a rank of a job of {}={} (0-{})", rank_var, rank, size_var, size,
                               size - 1));
}

void read_ranks(const LauncherRow& row, const EnvLookup& env, TcpJobEnv& job) {
  const auto& v = row.ranks;
  const auto size_var = first_set(env, v.size);
  job.size = int_var(env, size_var, row.name, 1, kMaxRanks);
  job.rank = int_var(env, v.rank, row.name, 0, kMaxRanks);
  check_rank(job.rank, job.size, v.rank, size_var);
  if (v.local_rank.empty() || !has(env, v.local_rank)) return;
  job.local_rank = int_var(env, v.local_rank, row.name, 0, kMaxRanks);
  if (!v.local_size.empty() && has(env, v.local_size))
    check_rank(job.local_rank, int_var(env, v.local_size, row.name, 1, kMaxRanks), v.local_rank,
               v.local_size);
}

void read_rendezvous(const LauncherRow& row, const EnvLookup& env, TcpJobEnv& job) {
  const auto& r = row.rendezvous;
  if (r.address_hostlists[0].empty()) {
    job.master_addr = need(env, r.address, row.name);
  } else if (const auto address = env(std::string(r.address))) {
    job.master_addr = *address;
  } else {
    const auto list_var = first_set(env, r.address_hostlists);
    const auto hosts = expand_hostlist(need(env, list_var, row.name));
    if (hosts.empty()) FB_USAGE_ERROR(fmt::format("{} names no host", list_var));
    job.master_addr = hosts.front();
  }
  if (r.derived_port == nullptr) need(env, r.port_base, row.name);
  auto port = chosen_port(env, r.port_base, row.name);
  if (!port) port = r.derived_port(env);
  job.port = port->port;
  job.port_origin = port->origin;
}

}  // namespace

const LauncherRow& launcher_row(JobLauncher launcher) {
  const auto& rows = EnumNames<JobLauncher>::table;
  return *std::find_if(rows.begin(), rows.end(), [&](const LauncherRow& row) { return row.id == launcher; });
}

std::optional<std::string> process_env(const std::string& name) {
  const char* v = std::getenv(name.c_str());
  return v == nullptr ? std::nullopt : std::optional<std::string>(v);
}

JobLauncher detect_job_launcher(const EnvLookup& env) {
  for (const auto signature : {&LauncherRow::own, &LauncherRow::shared})
    for (const auto& row : EnumNames<JobLauncher>::table)
      if (matches(row.*signature, env)) return row.id;
  return JobLauncher::none;
}

std::vector<std::string> launcher_choices() {
  std::vector<std::string> names(kDetecting.begin(), kDetecting.end());
  for (const auto& row : EnumNames<JobLauncher>::table) names.emplace_back(row.name);
  return names;
}

std::optional<std::string> option_from_args(const std::vector<std::string>& args, std::string_view flag) {
  const std::string prefix = fmt::format("{}=", flag);
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == flag && i + 1 < args.size()) return args[i + 1];
    if (args[i].starts_with(prefix)) return args[i].substr(prefix.size());
  }
  return std::nullopt;
}

JobLauncher choose_job_launcher(const std::vector<std::string>& args, const EnvLookup& env) {
  const std::string choice = option_from_args(args, "--launcher").value_or("auto");
  if (const auto forced = enum_from_string<JobLauncher>(choice)) return *forced;
  if (std::find(kDetecting.begin(), kDetecting.end(), choice) == kDetecting.end())
    FB_USAGE_ERROR(
        fmt::format("unknown --launcher '{}' (known: {})", choice, fmt::join(launcher_choices(), ", ")));
  return detect_job_launcher(env);
}

double timeout_from_args(const std::vector<std::string>& args, double fallback) {
  for (std::size_t i = 1; i + 1 < args.size(); ++i)
    if (args[i] == "--timeout" || args[i] == "-T")  // -T: nccl-tests' spelling (run, algos, scale)
      if (const auto v = try_parse_finite(args[i + 1]); v && *v > 0) return *v;
  return fallback;
}

TcpJobEnv tcp_job_env(JobLauncher launcher, const EnvLookup& env) {
  const auto& row = launcher_row(launcher);
  FB_REQUIRE(row.wiring == RankWiring::tcp_rendezvous, ExitCode::run_failed,
             fmt::format("--launcher {} has no TCP rendezvous", row.name));
  TcpJobEnv job;
  job.launcher = launcher;
  read_ranks(row, env, job);
  read_rendezvous(row, env, job);
  return job;
}

PortChoice slurm_step_port(const EnvLookup& env) {
  const auto job = parse_whole(need(env, "SLURM_JOB_ID", "slurm"), "SLURM_JOB_ID", 0);
  const auto step = try_parse_whole(env("SLURM_STEP_ID").value_or("0")).value_or(0);
  return {static_cast<int>(20000 + (job * 16 + std::max<std::int64_t>(step, 0)) % 20000),
          "derived from SLURM_JOB_ID and SLURM_STEP_ID"};
}

}  // namespace fb
