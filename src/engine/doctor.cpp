#include "engine/doctor.hpp"

#include <fmt/format.h>

#include "analyse/verdicts.hpp"
#include "core/environment.hpp"
#include "engine/machine_facts.hpp"
#include "engine/plan_builder.hpp"
#include "engine/result_header.hpp"
#include "gpu/runtime.hpp"
#include "topo/machine_probe.hpp"

namespace fb {

Result run_doctor(const DoctorRequest& request, const std::vector<std::string>& command_line,
                  const DoctorProgress& progress) {
  const int visible = gpu::device_count();
  auto lib = NcclLibrary::load(request.nccl_lib);
  const auto facts = probe_machine_facts(*lib);
  const auto gpus = resolve_gpus(request.gpus, visible);

  Result result = make_result_header(command_line, lib.get());
  add_gpus(result, gpus);
  result.topology = probe_topology({});
  result.findings = analyse_result(result);
  progress.begun(result);

  const DoctorContext ctx{request, facts, gpus, doctor_collectives_request(request, facts, gpus), result};
  std::vector<const DoctorStage*> stages;
  for (const auto& stage : doctor_stages())
    if (stage.applies(ctx)) stages.push_back(&stage);
  for (std::size_t i = 0; i < stages.size(); ++i) {
    const DoctorStage& stage = *stages[i];
    progress.stage(stage, static_cast<int>(i + 1), static_cast<int>(stages.size()));
    StageOutput out = stage.run(ctx);
    const std::string failure = out.failure;
    const ExitCode code = out.code;
    stage.merge(out, result);
    if (!failure.empty()) {
      result.status = RunStatus::failed;
      result.failure = failure;
      progress.updated(result);
      throw Error(code, fmt::format("{} stage failed: {}", stage.name, failure));
    }
    progress.updated(result);
  }

  result.finished = now_iso8601();
  result.status = RunStatus::complete;  // before the verdicts: an unfinished run is a finding
  result.findings = analyse_result(result);
  progress.updated(result);
  return result;
}

}  // namespace fb
