#include "comm/launch_env.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>

#include "comm/hostlist.hpp"
#include "comm/job_secret.hpp"
#include "comm/launch_env_vars.hpp"
#include "core/error.hpp"
#include "core/parse_number.hpp"

namespace fb {
namespace {

using launch_vars::first_set;
using launch_vars::has;
using launch_vars::int_if_number;
using launch_vars::int_var;
using launch_vars::kMaxRanks;
using launch_vars::name_value;
using launch_vars::need;

// --launcher values that leave the job's launcher to the environment.
constexpr std::array<std::string_view, 3> kDetecting{"auto", "processes", "threads"};
// The job flags and the variables they stand for.
constexpr std::array<std::pair<std::string_view, const char*>, 3> kJobFlags{
    {{"--rendezvous", kRendezvousVar}, {"--nnodes", kNnodesVar}, {"--nproc-per-node", kNprocPerNodeVar}}};
// A job flag without a value: its variable is set to 1 where the flag is given.
constexpr std::string_view kInsecureFlag = "--insecure-rendezvous";

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

// Some row's variables are set, but no row's own or shared ones are complete: a usage error that
// names what is set and what is missing.
void refuse_partial(const EnvLookup& env) {
  for (const auto& row : EnumNames<JobLauncher>::table) {
    std::vector<std::string> seen;
    for (const auto var : row.seen)
      if (has(env, var)) seen.push_back(name_value(env, var));
    if (seen.empty()) continue;
    std::vector<std::string_view> missing;
    for (const auto var : (row.own.vars[0].empty() ? row.shared : row.own).vars)
      if (!var.empty() && !has(env, var)) missing.push_back(var);
    FB_USAGE_ERROR(
        fmt::format("a partial environment of {}: {} set{}; {}", row.command, fmt::join(seen, ", "),
                    missing.empty() ? "" : fmt::format(" but not {}", fmt::join(missing, ", ")), row.advice));
  }
}

void check_rank(int rank, int size, std::string_view rank_var, std::string_view size_var) {
  if (rank >= size)
    FB_USAGE_ERROR(fmt::format("{}={} is not a rank of a job of {}={} (0-{})", rank_var, rank, size_var, size,
                               size - 1));
}

// Processes per node of a per-node row: --nproc-per-node, else the launcher's own count where it
// is a number, else 1. Both given and different: a usage error.
int procs_per_node(const LauncherRow& row, const EnvLookup& env) {
  const auto launchers = int_if_number(env, row.ranks.procs_per_node);
  if (!has(env, kNprocPerNodeVar)) return launchers.value_or(1);
  const int mine = int_var(env, kNprocPerNodeVar, row.name, 1, kMaxRanks);
  if (launchers && *launchers != mine)
    FB_USAGE_ERROR(fmt::format("--nproc-per-node {} disagrees with {}", mine,
                               name_value(env, row.ranks.procs_per_node)));
  return mine;
}

// A per-node row: the variables number nodes; rank = node x processes per node + local rank.
void read_node_ranks(const LauncherRow& row, const EnvLookup& env, TcpJobEnv& job) {
  const auto& v = row.ranks;
  const auto size_var = first_set(env, v.size);
  const auto rank_var = first_set(env, v.rank);
  const int counted = int_var(env, size_var, row.name, 1, kMaxRanks);
  const int launchers_per_node = int_if_number(env, v.procs_per_node).value_or(1);
  if (counted % launchers_per_node != 0)
    FB_USAGE_ERROR(fmt::format("{} is not a multiple of {}", name_value(env, size_var),
                               name_value(env, v.procs_per_node)));
  const int nodes = counted / launchers_per_node;
  const int node = int_var(env, rank_var, row.name, 0, kMaxRanks);
  if (node >= nodes)
    FB_USAGE_ERROR(fmt::format("{} is not the index of one of {} nodes", name_value(env, rank_var), nodes));
  const int per_node = procs_per_node(row, env);
  int local = 0;
  if (has(env, kLocalRankVar))
    local = int_var(env, kLocalRankVar, row.name, 0, per_node - 1);
  else if (per_node > 1)
    FB_USAGE_ERROR(fmt::format("{} is not set: the {} ranks of a node are started by fabricbench itself",
                               kLocalRankVar, per_node));
  job.rank = node * per_node + local;
  job.size = nodes * per_node;
  job.local_rank = local;
}

void read_ranks(const LauncherRow& row, const EnvLookup& env, TcpJobEnv& job) {
  const auto& v = row.ranks;
  if (v.size[0].empty())
    FB_USAGE_ERROR(
        fmt::format("--launcher {}: the environment says no job size ({} holds it); its ranks "
                    "meet through the MPI plugin, without --rendezvous",
                    row.name, row.command));
  if (row.check) row.check(env);
  if (v.per_node) return read_node_ranks(row, env, job);
  const auto size_var = first_set(env, v.size);
  const auto rank_var = first_set(env, v.rank);
  job.size = int_var(env, size_var, row.name, 1, kMaxRanks);
  job.rank = int_var(env, rank_var, row.name, 0, kMaxRanks);
  check_rank(job.rank, job.size, rank_var, size_var);
  const auto local_var = first_set(env, v.local_rank);
  if (!has(env, local_var)) return;
  job.local_rank = int_var(env, local_var, row.name, 0, kMaxRanks);
  if (const auto local_size_var = first_set(env, v.local_size); has(env, local_size_var))
    check_rank(job.local_rank, int_var(env, local_size_var, row.name, 1, kMaxRanks), local_var,
               local_size_var);
}

// --rendezvous HOST:PORT (the last colon splits; [v6]:port keeps its brackets off).
void read_rendezvous_flag(const EnvLookup& env, TcpJobEnv& job) {
  const auto text = *env(kRendezvousVar);
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0)
    FB_USAGE_ERROR(
        fmt::format("--rendezvous '{}' is not HOST:PORT (the first pod's name and port, "
                    "e.g. fabricbench-0.fabricbench:29500)",
                    text));
  auto host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  job.master_addr = host;
  job.port = parse_int_in(text.substr(colon + 1), "--rendezvous's port", 1, 65535);
  job.port_origin = "--rendezvous";
}

void read_rendezvous(const LauncherRow& row, const EnvLookup& env, TcpJobEnv& job) {
  if (has(env, kRendezvousVar)) return read_rendezvous_flag(env, job);
  const auto& r = row.rendezvous;
  if (r.address.empty() && r.address_hostlists[0].empty())
    FB_USAGE_ERROR(
        fmt::format("--launcher {}: no variable of {} says where rank 0 listens: give "
                    "--rendezvous HOST:PORT",
                    row.name, row.command));
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
  if (const auto p = env("FABRICBENCH_RENDEZVOUS_PORT")) {
    job.port = parse_int_in(*p, "FABRICBENCH_RENDEZVOUS_PORT", 1, 65535);
    job.port_origin = "FABRICBENCH_RENDEZVOUS_PORT";
  } else if (has(env, r.port_base)) {
    job.port = int_var(env, r.port_base, row.name, 1, 65534) + 1;
    job.port_origin = fmt::format("{} + 1", r.port_base);
  } else {
    auto port = r.derived_port(env);
    job.port = port.port;
    job.port_origin = std::move(port.origin);
  }
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
      if (matches(row.*signature, env) && (row.also == nullptr || row.also(env))) return row.id;
  return JobLauncher::none;
}

std::vector<std::string> launcher_choices() {
  std::vector<std::string> names(kDetecting.begin(), kDetecting.end());
  for (const auto& row : EnumNames<JobLauncher>::table)
    if (row.wiring != RankWiring::refused) names.emplace_back(row.name);
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

std::map<std::string, std::string> job_flag_variables(const std::vector<std::string>& args) {
  std::map<std::string, std::string> vars;
  for (const auto& [flag, var] : kJobFlags)
    if (const auto value = option_from_args(args, flag)) vars[var] = *value;
  if (std::find(args.begin() + (args.empty() ? 0 : 1), args.end(), kInsecureFlag) != args.end())
    vars[kInsecureRendezvousVar] = "1";
  return vars;
}

void apply_job_flags(const std::vector<std::string>& args) {
  for (const auto& [var, value] : job_flag_variables(args)) ::setenv(var.c_str(), value.c_str(), 1);
}

JobLauncher choose_job_launcher(const std::vector<std::string>& args, const EnvLookup& env) {
  const std::string choice = option_from_args(args, "--launcher").value_or("auto");
  if (const auto forced = enum_from_string<JobLauncher>(choice); forced && *forced != JobLauncher::sbatch)
    return *forced;
  if (std::find(kDetecting.begin(), kDetecting.end(), choice) == kDetecting.end())
    FB_USAGE_ERROR(
        fmt::format("unknown --launcher '{}' (known: {})", choice, fmt::join(launcher_choices(), ", ")));
  const auto found = detect_job_launcher(env);
  const auto& row = launcher_row(found);
  if (row.wiring == RankWiring::refused)
    FB_USAGE_ERROR(fmt::format("started by {} without a launcher step ({}, {}, {}): {}", row.command,
                               name_value(env, "SLURM_JOB_ID"), name_value(env, "SLURM_NTASKS"),
                               name_value(env, "SLURM_JOB_NUM_NODES"), row.advice));
  if (found == JobLauncher::none) refuse_partial(env);
  return found;
}

RankWiring job_wiring(JobLauncher launcher, const EnvLookup& env) {
  const auto wiring = launcher_row(launcher).wiring;
  return wiring == RankWiring::mpi_plugin && has(env, kRendezvousVar) ? RankWiring::tcp_rendezvous : wiring;
}

double timeout_from_args(const std::vector<std::string>& args, double fallback) {
  for (std::size_t i = 1; i + 1 < args.size(); ++i)
    if (args[i] == "--timeout" || args[i] == "-T")  // -T: nccl-tests' spelling (run, algos, scale)
      if (const auto v = try_parse_finite(args[i + 1]); v && *v > 0) return *v;
  return fallback;
}

TcpJobEnv tcp_job_env(JobLauncher launcher, const EnvLookup& env) {
  const auto& row = launcher_row(launcher);
  FB_REQUIRE(job_wiring(launcher, env) == RankWiring::tcp_rendezvous, ExitCode::run_failed,
             fmt::format("--launcher {} has no TCP rendezvous", row.name));
  TcpJobEnv job;
  job.launcher = launcher;
  read_ranks(row, env, job);
  read_rendezvous(row, env, job);
  return job;
}

int job_nodes(JobLauncher launcher, const EnvLookup& env) {
  const auto& row = launcher_row(launcher);
  if (!row.ranks.per_node) return 0;
  const int counted = int_var(env, first_set(env, row.ranks.size), row.name, 1, kMaxRanks);
  return counted / std::max(1, int_if_number(env, row.ranks.procs_per_node).value_or(1));
}

int node_ranks_to_start(JobLauncher launcher, const EnvLookup& env) {
  const auto& row = launcher_row(launcher);
  if (!row.ranks.per_node || has(env, kLocalRankVar)) return 0;
  const int n = procs_per_node(row, env);
  return n > 1 ? n : 0;
}

void check_mpi_world(const EnvLookup& env, int mpi_rank, int mpi_size) {
  for (const auto& row : EnumNames<JobLauncher>::table) {
    if (row.wiring != RankWiring::mpi_plugin || row.ranks.size[0].empty()) continue;
    if (!matches(row.own, env) && !matches(row.shared, env)) continue;
    const auto size_var = first_set(env, row.ranks.size);
    const auto rank_var = first_set(env, row.ranks.rank);
    const auto size = int_if_number(env, size_var);
    const auto rank = launch_vars::get(env, rank_var);
    if (size == mpi_size && rank == std::to_string(mpi_rank)) return;
    throw Error(
        ExitCode::environment,
        fmt::format("MPI started this process as rank {} of {}, but {} and {} ({}) say otherwise: "
                    "fabricbench's MPI plugin was built for another MPI than the one that started "
                    "the job; build it against that MPI, or meet over TCP with --rendezvous HOST:PORT",
                    mpi_rank, mpi_size, name_value(env, rank_var), name_value(env, size_var), row.command));
  }
}

PortChoice slurm_step_port(const EnvLookup& env) {
  const auto job = parse_whole(need(env, "SLURM_JOB_ID", "slurm"), "SLURM_JOB_ID", 0);
  const auto step = try_parse_whole(env("SLURM_STEP_ID").value_or("0")).value_or(0);
  return {static_cast<int>(20000 + (job * 16 + std::max<std::int64_t>(step, 0)) % 20000),
          "derived from SLURM_JOB_ID and SLURM_STEP_ID"};
}

}  // namespace fb
