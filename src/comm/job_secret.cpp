#include "comm/job_secret.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string_view>

#include "comm/hmac.hpp"
#include "comm/launch_env_vars.hpp"
#include "comm/tcp_link.hpp"
#include "core/error.hpp"
#include "core/file_io.hpp"
#include "core/safe_paths.hpp"

namespace fb {
namespace {

using launch_vars::get;

std::string key_folder() { return fmt::format("/tmp/fabricbench-{}", ::geteuid()); }

// The per-user key folder, made where missing; refused when it is not this user's alone (another
// user made it first, or it is a link).
FolderFd open_key_folder(bool create) {
  const auto path = key_folder();
  if (create && ::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST)
    throw Error(ExitCode::environment,
                fmt::format("rendezvous: cannot make {}: {}", path, std::strerror(errno)));
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return FolderFd();
  if (!S_ISDIR(st.st_mode) || st.st_uid != ::geteuid() || (st.st_mode & 077) != 0)
    throw Error(ExitCode::environment,
                fmt::format("rendezvous: {} is not a folder of this user (uid {}) alone (owner uid {}, mode "
                            "{:o}): another user may have made it; remove it, or set {} on every rank",
                            path, ::geteuid(), st.st_uid, st.st_mode & 07777, kJobSecretVar));
  return open_folder(path, false);
}

bool is_true(const std::optional<std::string>& v) { return v && !v->empty() && *v != "0" && *v != "no"; }

}  // namespace

bool job_on_one_host(const TcpJobEnv& job, const EnvLookup& env) {
  if (job.size <= 1 || names_loopback(job.master_addr)) return true;
  const auto equals = [&](std::string_view var, int value) {
    const auto v = get(env, var);
    return v && *v == std::to_string(value);
  };
  for (const auto var : launcher_row(job.launcher).ranks.local_size)
    if (!var.empty() && get(env, var)) return equals(var, job.size);
  if (job.launcher == JobLauncher::slurm)
    for (const char* var : {"SLURM_STEP_NUM_NODES", "SLURM_JOB_NUM_NODES", "SLURM_NNODES"})
      if (get(env, var)) return equals(var, 1);
  return equals(kNnodesVar, 1) || equals("PET_NNODES", 1);
}

JobSecret job_secret(const TcpJobEnv& job, const EnvLookup& env) {
  if (const auto secret = get(env, kJobSecretVar)) {
    if (secret->size() < kMinSecretChars)
      FB_USAGE_ERROR(fmt::format("{} holds {} characters: at least {} (e.g. `openssl rand -hex 32`)",
                                 kJobSecretVar, secret->size(), kMinSecretChars));
    return {*secret, kJobSecretVar, ""};
  }
  if (is_true(get(env, kInsecureRendezvousVar))) return {"", "--insecure-rendezvous", ""};
  if (job.size <= 1) return {"", "a job of one rank", ""};
  if (!job_on_one_host(job, env))
    FB_USAGE_ERROR(fmt::format(
        "a job across hosts needs a shared secret, so that no one else who reaches rank 0's port ({}:{}) can "
        "join it: set {} to the same random value on every rank (e.g. `export {}=$(openssl rand -hex 32)` "
        "before {}; a Kubernetes Secret: deploy/kubernetes), or accept anyone as a rank with "
        "--insecure-rendezvous (docs/security.md)",
        job.master_addr, job.port, kJobSecretVar, kJobSecretVar, launcher_row(job.launcher).command));
  const auto file = fmt::format("{}/rendezvous-{}.key", key_folder(), job.port);
  if (job.rank != 0) return {"", fmt::format("this host's key file {}", file), file};
  const auto folder = open_key_folder(true);
  JobSecret s{new_job_secret(), fmt::format("this host's key file {}", file), file};
  write_in_folder(folder, fmt::format("rendezvous-{}.key", job.port), file, s.key);
  static std::string to_remove;  // one rendezvous per process
  to_remove = file;
  std::atexit([] { ::unlink(to_remove.c_str()); });
  return s;
}

std::string read_host_key(const std::string& key_file) {
  const auto folder = open_key_folder(false);
  if (folder.fd() < 0) return "";
  return read_file_if_readable(key_file, 256).value_or("");
}

std::string new_job_secret() { return to_hex(random_bytes(32)); }

}  // namespace fb
