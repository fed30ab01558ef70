#include "app/doctor_command.hpp"

#include <fmt/format.h>

#include <iostream>

#include "core/error.hpp"
#include "engine/doctor.hpp"
#include "report/doctor_output.hpp"

namespace fb {

int doctor_command(const DoctorOptions& o, const std::vector<std::string>& command_line, EventSink& events) {
  const DoctorRequest request = doctor_request(o);
  DoctorConsoleReporter console(std::cout, std::cerr, o.out_dir, request.quick);
  DoctorFolderReporter folder(o.out_dir);
  const DoctorProgress progress{
      .begun =
          [&](const Result& r) {
            console.begin(r);
            folder.begin(r);
          },
      .planned = [&](int stages,
                     double estimate_s) { console.planned(stages, estimate_s, request.budget_or_default()); },
      .stage = [&](const DoctorStage& stage, int number, int total,
                   const std::string& estimate) { console.stage(number, total, stage.what, estimate); },
      .cut = [&](const DoctorCut& cut) { console.cut(cut); },
      .updated = [&](const Result& r) { folder.update(r); },
  };
  const Result result = run_doctor(request, command_line, progress, events);
  console.end(result);
  if (result.status == RunStatus::failed) {  // interrupted
    fmt::print(stderr, "fabricbench doctor: {}: the report holds the stages measured\n", result.failure);
    return static_cast<int>(ExitCode::run_failed);
  }
  return has_error_finding(result.findings) ? static_cast<int>(ExitCode::finding) : 0;
}

}  // namespace fb
