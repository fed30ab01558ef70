#include "app/doctor_command.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "analyse/expect/expectations_file.hpp"
#include "analyse/hosts/cluster_limit.hpp"
#include "analyse/verdict/gate_policy.hpp"
#include "app/doctor_verdict_files.hpp"
#include "core/error.hpp"
#include "engine/doctor/doctor.hpp"
#include "report/doctor_output.hpp"
#include "report/node_exclude.hpp"
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

Result run_doctor_to_files(const DoctorOptions& o, const std::vector<std::string>& command_line,
                           EventSink& events, DoctorVerdictFiles& files) {
  DoctorRequest request = doctor_request(o);
  if (!o.expectations.empty()) request.expectations = load_expectations_file(o.expectations);
  const DoctorProgress progress{
      .begun =
          [&](const Result& r) {
            events.emit(make_event(
                EventKind::stage,
                fmt::format("doctor on {} GPU{}, {} mode; results in {}/ (written after every stage)",
                            r.gpus.size(), r.gpus.size() == 1 ? "" : "s",
                            request.passive  ? "passive"
                            : request.prolog ? "prolog"
                            : request.quick  ? "quick"
                                             : "thorough",
                            std::filesystem::path(o.out_dir).string())));
            files.begun(r);
          },
      .updated = [&](const Result& r) { files.updated(r); },
  };
  return run_doctor(request, command_line, progress, events);
}

}  // namespace

int doctor_command(const DoctorOptions& o, const std::vector<std::string>& command_line, EventSink& events) {
  DoctorConsoleReporter console(std::cout, o.out_dir);
  DoctorVerdictFiles files(o, command_line);
  Result result;
  try {
    result = run_doctor_to_files(o, command_line, events, files);
  } catch (const Error& e) {  // every outcome writes the verdict: the failed run's, then the error
    files.failed(e.what(), events);
    throw;
  } catch (const std::exception& e) {
    files.failed(fmt::format("internal error: {}", e.what()), events);
    throw;
  }
  console.end(result);
  files.ended(result);
  write_doctor_exclude_file(o.exclude_file, result, events);
  if (result.verdict) print_verdict(std::cout, *result.verdict);  // the contract's one line and its checks
  if (result.status == RunStatus::failed) return static_cast<int>(ExitCode::run_failed);  // interrupted
  return fails_gate(result, o.fail_on) ? static_cast<int>(ExitCode::finding) : 0;
}

}  // namespace fb
