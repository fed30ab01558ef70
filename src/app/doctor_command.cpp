#include "app/doctor_command.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "analyse/cluster_limit.hpp"
#include "analyse/expectations_file.hpp"
#include "core/error.hpp"
#include "core/file_io.hpp"
#include "engine/doctor.hpp"
#include "report/doctor_output.hpp"
#include "report/node_exclude.hpp"
#include "report/prometheus_textfile.hpp"
#include "report/verdict_console.hpp"

namespace fb {
namespace {

// The hosts the nodes stage named; where it did not run, no file, and why.
void write_doctor_exclude_file(const std::string& path, const Result& result, EventSink& events) {
  if (path.empty()) return;
  if (result.nodes) {
    write_exclude_file(path, *result.nodes);
    return;
  }
  const std::string why = result.hosts.size() < 2 ? "pairs of hosts are measured only under mpirun, torchrun "
                                                    "or srun across 3 hosts or more"
                                                  : slow_host_words(result);
  events.emit(make_event(EventKind::warning, fmt::format("--exclude-file {} not written: {}", path, why)));
}

}  // namespace

int doctor_command(const DoctorOptions& o, const std::vector<std::string>& command_line, EventSink& events) {
  DoctorRequest request = doctor_request(o);
  if (!o.expectations.empty()) request.expectations = load_expectations_file(o.expectations);
  DoctorConsoleReporter console(std::cout, o.out_dir);
  DoctorFolderReporter folder(o.out_dir);
  const DoctorProgress progress{
      .begun =
          [&](const Result& r) {
            events.emit(
                make_event(EventKind::stage,
                           fmt::format("doctor on {} GPU{}, {} mode; results in {}/ (written after every "
                                       "stage)",
                                       r.gpus.size(), r.gpus.size() == 1 ? "" : "s",
                                       request.quick ? "quick" : "thorough",
                                       std::filesystem::path(o.out_dir).string())));
            folder.begin(r);
          },
      .updated = [&](const Result& r) { folder.update(r); },
  };
  const Result result = run_doctor(request, command_line, progress, events);
  console.end(result);
  if (!o.prometheus.empty()) write_file_atomically(o.prometheus, prometheus_textfile(result));
  write_doctor_exclude_file(o.exclude_file, result, events);
  if (result.verdict) print_verdict(std::cout, *result.verdict);  // the contract's one line and its checks
  if (result.status == RunStatus::failed) return static_cast<int>(ExitCode::run_failed);  // interrupted
  return has_error_finding(result.findings) ? static_cast<int>(ExitCode::finding) : 0;
}

}  // namespace fb
