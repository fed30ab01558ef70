#pragma once
// Each host's own metrics file under a job (`doctor --prometheus FILE` under mpirun, torchrun or srun):
// rank 0 hands every host its textfile (report/prometheus_textfile's host_prometheus_textfile, so that
// a node exporter publishes its own host's verdict and no other's) and the first rank of each host
// writes it at FILE there. The hand-off is a message like the describe-hosts one (engine/host_sections):
// the other ranks answer it in engine/job_main's loop, each with "" or why its host could not write.
// The message holds the texts only: every rank writes at the --prometheus of its own command line,
// never at a path another rank chose (docs/security.md).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "comm/job_session.hpp"

namespace fb {

inline constexpr const char* kJobHostTextfiles = "host textfiles";

// Where a host writes (its rank's own --prometheus) and each host's text by its name.
struct HostTextfiles {
  std::string path;  // "%h" in it becomes the host's name (a shared filesystem: one file per host)
  std::map<std::string, std::string> texts;
};

// The message: the texts, not the path.
std::string host_textfiles_message(const HostTextfiles& files);
// The texts the request in `message` holds; nullopt for any other message. A request that is not a
// map of host names to texts is Error(run_failed).
std::optional<std::map<std::string, std::string>> host_textfiles_request(const std::string& message);

// `path` with every "%h" replaced by `host`.
std::string textfile_path(const std::string& path, const std::string& host);

// This host's file, written when `first_rank_of_host` (one writer per host) and the request holds a
// text for it: "" when done or not this rank's to write, else one line saying why it could not be.
std::string write_host_textfile(const HostTextfiles& files, const std::string& host, bool first_rank_of_host);

// On rank 0: every host writes its file (rank 0's own included); returns the lines of the hosts that
// could not, "host: why".
std::vector<std::string> hand_out_host_textfiles(JobSession& job, const HostTextfiles& files);

// On a rank other than 0, in answer to the message: its host's text written at `own_path` (its own
// --prometheus; "" none, which its answer says).
void answer_host_textfiles(JobSession& job, const std::string& own_path,
                           const std::map<std::string, std::string>& texts);

}  // namespace fb
