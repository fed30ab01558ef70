#include "app/project_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iostream>

#include "analyse/judge.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/file_io.hpp"
#include "engine/commands/projection_bounds.hpp"
#include "gpu/runtime.hpp"
#include "ingest/import_file.hpp"
#include "model/result_json.hpp"
#include "projection/allreduce_curve.hpp"
#include "projection/model_presets.hpp"
#include "projection/tp_projection.hpp"
#include "report/import_source.hpp"
#include "report/projection_console.hpp"
#include "tp_step/tp_measure.hpp"

namespace fb {
namespace {

constexpr double kValidationTolerance = 0.15;  // the acceptance bar

int list_presets() {
  for (const auto& m : model_presets())
    std::cout << fmt::format(
        "{:<16} hidden {:>5}, {:>3} layers, {:>3} heads, {:>2} KV heads, ffn {:>5}  {}\n", m.name, m.hidden,
        m.layers, m.heads, m.kv_heads, m.ffn, m.source);
  return 0;
}

bool names_a_model(const ProjectOptions& o) {
  return !o.model.empty() || !o.shape_file.empty() || !o.hidden.empty() || !o.layers.empty() ||
         !o.heads.empty() || !o.kv_heads.empty() || !o.ffn.empty();
}

// A real TP layer on GPUs 0 and 1 against its projection; exit 1 when a row is off by more than 15%.
int validate(ProjectOptions o) {
  if (!names_a_model(o)) o.model = "llama-3-70b";
  o.tp = "1,2";
  const ProjectionRequest request = projection_request(o);  // usage errors before any GPU
  if (gpu::device_count() < 2) throw Error(ExitCode::environment, "--validate needs 2 GPUs");
  const auto rows = validate_tp_layer(request.model, NcclLibrary::load(""));
  std::cout << fmt::format("Validation: {} layer, bf16, CUDA graphs, GPUs 0 and 1 (per layer)\n",
                           request.model.name)
            << validation_table(rows);
  return validation_within(rows, kValidationTolerance) ? 0 : static_cast<int>(ExitCode::finding);
}

// The GEMMs of every TP and pass of the request, timed on GPU 0, with the GPU's rates.
void measure_compute_on_gpu0(ProjectionRequest& q) {
  try {
    gpu::device_count();  // no GPU: an environment error that says so, and how to do without one
  } catch (const Error& e) {
    throw Error(e.code(),
                fmt::format("{}; without a GPU, give the compute rates: --gemm-tflops T --hbm-gbps B "
                            "(docs/projection.md)",
                            e.what()),
                e.where());
  }
  std::vector<int> tps = q.tp;
  tps.push_back(1);
  const std::vector<std::int64_t> tokens{q.workload.batch * q.workload.prompt, q.workload.batch};
  MeasuredCompute measured = measure_compute(q.model, tps, tokens);
  q.rates = measured.rates;
  q.gemm_us = std::move(measured.gemm_us);
}

// The document, or another tool's output read into one as `report` reads it (its companions describe
// such an output only: given with a fabricbench document they are refused).
Result load_projection_input(const ProjectOptions& o) {
  const ImportOptions import{o.import.nccl_log, o.import.topo, o.import.gpu, o.import.collective, o.force};
  return load_input(o.result, import);
}

// What a document holds instead of an all_reduce curve, in words: "all_gather on 8 GPUs, p2p figures".
std::string what_it_holds(const Result& r) {
  std::vector<std::string> held;
  for (const auto& run : r.runs) {
    std::string what =
        fmt::format("{} on {} GPU{}", run.collective, run.gpus.size(), run.gpus.size() == 1 ? "" : "s");
    if (!run.failure.empty())
      what += " (failed)";
    else if (!run.forced.empty())
      what += " (forced algorithm)";
    else if (run.points.empty())
      what += " (no points)";
    if (std::find(held.begin(), held.end(), what) == held.end()) held.push_back(what);
  }
  if (!r.p2p.empty()) held.emplace_back("p2p figures");
  return held.empty() ? "it holds no measurement" : "it holds " + fmt::format("{}", fmt::join(held, ", "));
}

// One line, exit 2, when the document has nothing to project from.
void require_curves(const Result& r, const std::map<int, AllReduceCurve>& curves, const std::string& path) {
  if (!curves.empty()) return;
  FB_USAGE_ERROR(fmt::format(
      "{}: no all_reduce measured on 2 or more GPUs to project from ({}): pass the result of `fabricbench "
      "run all_reduce -d bfloat16 -b 8K -e 1G --json FILE` (or of scale or the doctor), or nccl-tests' or "
      "rccl-tests' all_reduce_perf output",
      path, what_it_holds(r)));
}

}  // namespace

int project_command(const ProjectOptions& o, const std::vector<std::string>& command_line) {
  if (o.model == "list") return list_presets();
  if (o.validate) return validate(o);
  ProjectionRequest request = projection_request(o);  // usage errors first, before any file or GPU
  if (o.result.empty())
    FB_USAGE_ERROR(
        "give a result document with all_reduce curves (fabricbench run all_reduce ... --json FILE) or "
        "another tool's all_reduce output (nccl-tests, rccl-tests)");
  if (!o.json_path.empty())
    check_output_is_not_an_input(o.json_path, {o.result, o.import.nccl_log, o.import.topo});
  Result result = load_projection_input(o);
  CommInputs comm;
  comm.curves = allreduce_curves(result);
  require_curves(result, comm.curves, o.result);
  comm.bounds = projection_bounds(result, projected_degrees(request), net_busbw_gbps(o));
  if (!(request.rates.gemm_tflops > 0 && request.rates.hbm_gbps > 0)) {
    ProjectionRequest dry = request;  // what the curves cannot answer is a usage error before any GPU work
    dry.rates = {1, 1, "dry run"};
    project_tensor_parallel(dry, comm);
    measure_compute_on_gpu0(request);
  }
  result.projection = project_tensor_parallel(request, comm);
  result.command = command_line;
  result.finished = now_iso8601();
  judge(result);  // the document it writes carries this build's verdict, as `report` gives it
  std::cout << import_source_markdown(result) << projection_table(*result.projection);
  flush_stdout();
  if (!o.json_path.empty()) write_file_atomically(o.json_path, nlohmann::json(result).dump(2) + "\n");
  return 0;
}

}  // namespace fb
