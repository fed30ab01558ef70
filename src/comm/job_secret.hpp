#pragma once
// The job's secret: what every rank of a TCP rendezvous proves it holds before any of its frames
// is trusted (comm/tcp_session; docs/security.md). In this order:
//  1. FABRICBENCH_JOB_SECRET (at least 16 characters), the same on every rank: the launcher's
//     environment (`export FABRICBENCH_JOB_SECRET=$(openssl rand -hex 32)` before srun, torchrun
//     or mpirun -x), a pod's (a Kubernetes Secret, deploy/kubernetes), or what fabricbench gave the
//     ranks it started itself on one node (launch/node_ranks).
//  2. --insecure-rendezvous (FABRICBENCH_INSECURE_RENDEZVOUS=1): no secret; anyone who reaches rank
//     0's port may join as a rank. Said in so many words, never assumed.
//  3. A job on one host (its rendezvous address is a loopback one, or the launcher's variables say
//     every rank is on this host): a key rank 0 writes, fresh for each job, in a folder only this
//     user can read (/tmp/fabricbench-UID, mode 0700, refused when another user made it); the other
//     ranks read it there. Nothing to set for one host.
//  4. Otherwise the job is refused at start-up (exit 2), naming the ways above.
#include <string>

#include "comm/launch_env.hpp"

namespace fb {

inline constexpr const char* kJobSecretVar = "FABRICBENCH_JOB_SECRET";
inline constexpr const char* kInsecureRendezvousVar = "FABRICBENCH_INSECURE_RENDEZVOUS";
inline constexpr std::size_t kMinSecretChars = 16;

struct JobSecret {
  std::string key;       // "" without authentication (--insecure-rendezvous)
  std::string origin;    // how it was chosen, for messages
  std::string key_file;  // the host's key file (3.): the other ranks read it when they connect
};

// Whether the launcher's variables (or a loopback rendezvous address) put every rank of `job` on
// this host.
bool job_on_one_host(const TcpJobEnv& job, const EnvLookup& env);

// The secret of `job` for this rank. On rank 0, a host's key file is written here (and removed when
// the process ends). Throws Error(usage) for a secret too short, or a job across hosts without one;
// Error(environment) for a key folder another user made.
JobSecret job_secret(const TcpJobEnv& job, const EnvLookup& env);

// A rank other than 0: the key in the host's key file, "" while it is not there (rank 0 has not
// written it yet). Throws Error(environment) when its folder is not this user's alone.
std::string read_host_key(const std::string& key_file);

// A random secret for the ranks this process starts on one node (launch/node_ranks): 64 hex digits.
std::string new_job_secret();

}  // namespace fb
