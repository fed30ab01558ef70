#include "app/project_command.hpp"

#include <fmt/format.h>

#include <iostream>

#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/file_io.hpp"
#include "core/result_json.hpp"
#include "gpu/runtime.hpp"
#include "project/allreduce_curve.hpp"
#include "project/model_presets.hpp"
#include "project/projection.hpp"
#include "report/projection_console.hpp"
#include "tpbench/tp_measure.hpp"

namespace fb {
namespace {

int list_presets() {
  for (const auto& m : model_presets())
    std::cout << fmt::format(
        "{:<16} hidden {:>5}, {:>3} layers, {:>3} heads, {:>2} KV heads, ffn {:>5}  {}\n", m.name, m.hidden,
        m.layers, m.heads, m.kv_heads, m.ffn, m.source);
  return 0;
}

Result load_result(const std::string& path) {
  const std::string text = read_file(path);
  try {
    return parse_result(text);
  } catch (const Error& e) {
    FB_USAGE_ERROR(fmt::format("{}: {}", path, e.what()));
  }
}

}  // namespace

int project_command(const ProjectOptions& o, const std::vector<std::string>& command_line) {
  if (o.model == "list") return list_presets();
  ProjectionRequest request = projection_request(o);  // usage errors first, before any file or GPU
  if (o.validate)
    throw Error(ExitCode::environment,
                "--validate: the on-GPU layer run is not built yet (docs/projection.md, \"Validation\")");
  if (o.result.empty())
    FB_USAGE_ERROR(
        "give a result document with all_reduce curves (fabricbench run all_reduce ... --json FILE)");
  if (!(request.rates.gemm_tflops > 0 && request.rates.hbm_gbps > 0))
    FB_USAGE_ERROR(
        "give the GPU's rates: --gemm-tflops and --hbm-gbps (measuring them here is not built yet)");
  if (!o.json_path.empty()) check_output_is_not_an_input(o.json_path, {o.result});
  Result result = load_result(o.result);
  const auto curves = allreduce_curves(result);
  result.projection = project_tensor_parallel(request, curves);
  result.command = command_line;
  result.finished = now_iso8601();
  std::cout << projection_table(*result.projection);
  flush_stdout();
  if (!o.json_path.empty()) write_file_atomically(o.json_path, nlohmann::json(result).dump(2) + "\n");
  return 0;
}

}  // namespace fb
