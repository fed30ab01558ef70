#include "engine/job/job_nccl_log.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "bench/nccl_setup.hpp"
#include "comm/job_session.hpp"
#include "core/file_io.hpp"
#include "core/safe_paths.hpp"

namespace fb {
namespace {

std::string& log_path() {
  static std::string path;  // "" until started: one log per process
  return path;
}

}  // namespace

bool start_job_init_log() {
  if (!log_path().empty()) return true;
  const JobSession* job = JobSession::current();
  if (job == nullptr || job->rank() != 0 || std::getenv("NCCL_DEBUG") != nullptr) return false;
  // A private folder (mkdtemp, 0700): no other user can predict the log's name, plant a link there or read
  // it.
  const std::filesystem::path path =
      std::filesystem::path(make_private_temp_folder("fabricbench-nccl-init")) / "nccl-init.log";
  ::setenv("NCCL_DEBUG", "INFO", 1);
  ::setenv("NCCL_DEBUG_SUBSYS", "INIT,NET", 1);
  ::setenv("NCCL_DEBUG_FILE", path.c_str(), 1);
  log_path() = path.string();
  std::atexit([] {  // the log is the run's working file, not an output
    std::error_code ec;
    std::filesystem::remove_all(std::filesystem::path(log_path()).parent_path(), ec);
  });
  return true;
}

std::optional<NcclLogSummary> read_job_init_log() {
  if (log_path().empty()) return std::nullopt;
  std::error_code ec;
  if (!std::filesystem::exists(log_path(), ec)) return NcclLogSummary{};
  return parse_nccl_log(read_file(log_path()));
}

bool attach_job_init_log(std::vector<Run>& runs) {
  const auto log = read_job_init_log();
  if (!log) return false;
  for (auto& run : runs) set_nccl_setup(run, *log);
  return true;
}

}  // namespace fb
