#include "launch/node_ranks.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "comm/job_secret.hpp"
#include "comm/launch_env.hpp"
#include "core/error.hpp"
#include "launch/worker_handle.hpp"

extern char** environ;  // NOLINT(readability-redundant-declaration): POSIX declares it nowhere else

namespace fb {
namespace {

constexpr int kMaxLocalRanks = 256;
// The children's process ids, for the signal handler (async-signal-safe: a fixed array).
std::array<std::atomic<pid_t>, kMaxLocalRanks> g_children{};

void pass_signal_on(int sig) {
  for (auto& pid : g_children)
    if (const pid_t p = pid.load(); p > 0) ::kill(p, sig);
}

// This process's environment with FABRICBENCH_LOCAL_RANK=`local` (and `secret` where it is not
// empty), as execve takes it.
std::vector<std::string> child_environment(int local, const std::string& secret) {
  std::vector<std::string> env;
  const std::string prefix = fmt::format("{}=", kLocalRankVar);
  for (char** e = environ; *e != nullptr; ++e)
    if (!std::string_view(*e).starts_with(prefix)) env.emplace_back(*e);
  env.push_back(prefix + std::to_string(local));
  if (!secret.empty()) env.push_back(fmt::format("{}={}", kJobSecretVar, secret));
  return env;
}

// The job's secret for the ranks started here when this node is the whole job and none was given
// (comm/job_secret): drawn here, given to them alone. "" otherwise (theirs is the launcher's).
std::string secret_for_one_node(JobLauncher launcher) {
  if (process_env(kJobSecretVar) || process_env(kInsecureRendezvousVar)) return "";
  return job_nodes(launcher, process_env) == 1 ? new_job_secret() : "";
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

pid_t start_one(const std::string& exe, std::vector<std::string> args, int local, const std::string& secret) {
  auto env = child_environment(local, secret);
  auto argv = pointers(args);
  auto envp = pointers(env);
  const pid_t pid = ::fork();
  if (pid < 0) throw Error(ExitCode::run_failed, fmt::format("fork failed: {}", std::strerror(errno)));
  if (pid == 0) {
    ::execve(exe.c_str(), argv.data(), envp.data());
    ::_exit(127);
  }
  return pid;
}

int exit_code_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return static_cast<int>(ExitCode::run_failed);
}

}  // namespace

int start_node_ranks(JobLauncher launcher, int count, const std::vector<std::string>& args) {
  FB_REQUIRE(count >= 1 && count <= kMaxLocalRanks, ExitCode::usage,
             fmt::format("--nproc-per-node {} is not in 1-{}", count, kMaxLocalRanks));
  struct sigaction pass {};
  pass.sa_handler = pass_signal_on;
  ::sigemptyset(&pass.sa_mask);
  struct sigaction old_int {};
  struct sigaction old_term {};
  ::sigaction(SIGINT, &pass, &old_int);
  ::sigaction(SIGTERM, &pass, &old_term);
  const auto exe = self_executable();
  const auto secret = secret_for_one_node(launcher);
  std::vector<pid_t> pids;
  for (int i = 0; i < count; ++i) {
    pids.push_back(start_one(exe, args, i, secret));
    g_children[static_cast<std::size_t>(i)] = pids.back();
  }
  std::vector<int> codes(pids.size(), 0);
  for (std::size_t i = 0; i < pids.size(); ++i) {
    int status = 0;
    while (::waitpid(pids[i], &status, 0) < 0 && errno == EINTR) {
    }
    g_children[i] = 0;
    codes[i] = exit_code_of(status);
  }
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGTERM, &old_term, nullptr);
  if (codes[0] != 0) return codes[0];
  const auto failed = std::find_if(codes.begin(), codes.end(), [](int c) { return c != 0; });
  return failed == codes.end() ? 0 : *failed;
}

}  // namespace fb
