#include "cli/project_cli.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/file_io.hpp"
#include "core/parse_number.hpp"
#include "core/text.hpp"
#include "model/json_limits.hpp"
#include "projection/model_presets.hpp"

namespace fb {
namespace {

const char* kFooter =
    R"(Projects what tensor parallelism buys for a transformer on this machine: each layer's GEMMs
at the GPU's GEMM rate and HBM bandwidth, its two all_reduces from the measured curve (median and
p99) at exactly the layer's sizes. Prefill and decode, per TP degree: time per layer and per pass,
tokens/s, speedup over TP=1, efficiency, communication share, and where adding GPUs stops paying.
Every assumption is printed by name (docs/projection.md).

`result` is a fabricbench document (run, scale, doctor) or another tool's all_reduce output, read as
`report` reads it (nccl-tests or rccl-tests output, -J JSON, rccl-tests CSV, the PyTorch script);
what was converted is printed first. A TP without a curve of its own is refused unless --assume: it
is then held to the bound of that many GPUs (the ring ceiling of the best subset of the host's
topology; across hosts the network's measured or expected figure, or --net-busbw), never to a larger
subset's figure. The p99 columns come from single-operation tails where the document has them and
say "not measured" elsewhere.

Examples:
  fabricbench project result.json --model llama-3-70b --tp 1,2 --batch 8    # GEMMs timed on GPU 0
  fabricbench project result.json --model llama-3-70b --gemm-tflops 700 --hbm-gbps 4000   # no GPU needed
  fabricbench project result.json --model list
  fabricbench project result.json --hidden 8192 --layers 80 --heads 64 --kv-heads 8 --ffn 28672 --tp 2
  fabricbench project result.json --model llama-3-70b --tp 2,4,8 --assume   # TPs without a curve: bounded
  fabricbench project all_reduce_perf.txt --topo showtopo.txt --model llama-3-70b --tp 2,4,8 --assume
  fabricbench project result.json --model llama-3-70b --json projection.json
  fabricbench project --validate --model llama-3-70b   # a real TP layer on GPUs 0 and 1, projected vs measured

Curves: `fabricbench run all_reduce -d bfloat16 -b 8K -e 1G -G 1 --json result.json` measures the
sizes from decode at batch 1 to long prefills. A size outside the curve is refused, not extrapolated.)";

std::int64_t positive_or(const std::string& text, const char* flag, std::int64_t preset) {
  return text.empty() ? preset : parse_whole(text, flag);
}

ModelShape shape_from_file(const std::string& path) {
  nlohmann::json j;
  try {
    j = parse_input_json(read_file(path));
    check_json_limits(j);
    ModelShape m;
    m.name = j.value("name", std::string("custom"));
    m.source = path;
    j.at("hidden").get_to(m.hidden);
    j.at("layers").get_to(m.layers);
    j.at("heads").get_to(m.heads);
    j.at("kv_heads").get_to(m.kv_heads);
    j.at("ffn").get_to(m.ffn);
    m.dtype = j.value("dtype", std::string("bf16"));
    return m;
  } catch (const nlohmann::json::exception& e) {
    FB_USAGE_ERROR(
        fmt::format("--shape {}: expected {{\"hidden\", \"layers\", \"heads\", \"kv_heads\", \"ffn\"}} "
                    "as whole numbers: {}",
                    path, e.what()));
  }
}

ModelShape custom_shape() {
  ModelShape m;
  m.name = "custom";
  return m;
}

ModelShape model_shape(const ProjectOptions& o) {
  const bool any_flag =
      !o.hidden.empty() || !o.layers.empty() || !o.heads.empty() || !o.kv_heads.empty() || !o.ffn.empty();
  if (o.model.empty() && o.shape_file.empty() && !any_flag)
    FB_USAGE_ERROR(
        "give a model: --model NAME (--model list shows them), --shape FILE, or --hidden, --layers, "
        "--heads, --kv-heads and --ffn");
  if (!o.model.empty() && !o.shape_file.empty()) FB_USAGE_ERROR("--model and --shape: give one of them");
  ModelShape m = !o.model.empty()        ? model_preset(o.model)
                 : !o.shape_file.empty() ? shape_from_file(o.shape_file)
                                         : custom_shape();
  if (any_flag && !o.model.empty()) m.name += " (modified)";
  m.hidden = positive_or(o.hidden, "--hidden", m.hidden);
  m.layers = positive_or(o.layers, "--layers", m.layers);
  m.heads = positive_or(o.heads, "--heads", m.heads);
  m.kv_heads = positive_or(o.kv_heads, "--kv-heads", m.kv_heads);
  m.ffn = positive_or(o.ffn, "--ffn", m.ffn);
  if (!o.dtype.empty()) m.dtype = lower(o.dtype);
  check_model_shape(m);
  return m;
}

double rate_or_zero(const std::string& text, const char* flag) {
  if (text.empty()) return 0;
  const double v = parse_finite(text, flag);
  if (!(v > 0)) FB_USAGE_ERROR(fmt::format("{} must be positive (got {})", flag, text));
  return v;
}

}  // namespace

CLI::App* add_project_subcommand(CLI::App& app, ProjectOptions& o) {
  auto* cmd = app.add_subcommand("project", "Tensor-parallel speedup and tail latency from measured curves");
  cmd->footer(kFooter);
  cmd->add_option("result", o.result,
                  "A result document (run, scale or doctor) or another tool's all_reduce output (see below)");
  const char* model = "Model";
  cmd->add_option("--model", o.model, "A preset (llama-3-70b, ...; 'list' prints them)")->group(model);
  cmd->add_option("--shape", o.shape_file,
                  "A JSON file: {hidden, layers, heads, kv_heads, ffn[, name, dtype]}")
      ->group(model);
  cmd->add_option("--hidden", o.hidden, "Hidden size")->group(model);
  cmd->add_option("--layers", o.layers, "Decoder layers")->group(model);
  cmd->add_option("--heads", o.heads, "Attention (query) heads")->group(model);
  cmd->add_option("--kv-heads", o.kv_heads, "Key/value heads (grouped-query attention)")->group(model);
  cmd->add_option("--ffn", o.ffn, "MLP intermediate size (gated: gate and up both this wide)")->group(model);
  cmd->add_option("--dtype", o.dtype, "Weights and activations: bf16 (default), fp16, fp32, fp8")
      ->group(model);
  const char* load = "Workload";
  cmd->add_option("--tp", o.tp, "Tensor-parallel degrees (default 1,2,4,8; 1 is always the baseline)")
      ->group(load);
  cmd->add_option("--batch", o.batch, "Sequences per pass (default 1)")->group(load);
  cmd->add_option("--prompt", o.prompt, "Prompt tokens per sequence, prefilled at once (default 2048)")
      ->group(load);
  cmd->add_option("--decode", o.decode, "Generated tokens per sequence (default 128)")->group(load);
  const char* m = "Model terms";
  cmd->add_option("--gemm-tflops", o.gemm_tflops, "bf16 GEMM rate in TFLOP/s (default: measured on GPU 0)")
      ->group(m);
  cmd->add_option("--hbm-gbps", o.hbm_gbps, "HBM read bandwidth in GB/s (default: measured on GPU 0)")
      ->group(m);
  cmd->add_flag("--overlap", o.overlap, "Assume communication fully hidden behind compute")->group(m);
  cmd->add_flag("--assume", o.assume,
                "Project TPs without a curve of their own, held to the bound of that many GPUs")
      ->group(m);
  cmd->add_option("--net-busbw", o.net_busbw,
                  "With --assume, TPs beyond one host: assume this all_reduce busbw across hosts (GB/s)")
      ->group(m);
  cmd->add_option("--pays-share", o.pays_share, "A larger TP pays while it gains this share of ideal (0.5)")
      ->group(m);
  cmd->add_flag("--validate", o.validate, "Run a real TP layer on the GPUs and print projected vs measured");
  cmd->add_option("--json", o.json_path, "Write the result document with its projection here");
  add_import_flags(cmd, o.import);
  cmd->add_flag(
         "--force", o.force,
         "With --nccl-log: take a log that contradicts the output (its hosts, library, NCCL version or "
         "communicator size), said so, instead of refusing it (exit 2)")
      ->needs("--nccl-log");
  return cmd;
}

ProjectionRequest projection_request(const ProjectOptions& o) {
  ProjectionRequest q;
  q.model = model_shape(o);
  q.tp.clear();
  for (const auto& item : split(o.tp, ',')) q.tp.push_back(parse_int_in(item, "--tp", 1, kMaxGpus));
  if (q.tp.empty()) FB_USAGE_ERROR("--tp: give at least one degree");
  q.workload.batch = parse_whole(o.batch, "--batch", 1);
  q.workload.prompt = parse_whole(o.prompt, "--prompt", 1);
  q.workload.decode = parse_whole(o.decode, "--decode", 1);
  q.rates.gemm_tflops = rate_or_zero(o.gemm_tflops, "--gemm-tflops");
  q.rates.hbm_gbps = rate_or_zero(o.hbm_gbps, "--hbm-gbps");
  if (q.rates.gemm_tflops > 0 && q.rates.hbm_gbps > 0) q.rates.source = "--gemm-tflops/--hbm-gbps";
  q.pays_share = parse_finite(o.pays_share, "--pays-share");
  q.overlap = o.overlap;
  q.assume = o.assume;
  for (const int tp : q.tp) check_tp_degree(q.model, tp);
  if (net_busbw_gbps(o) > 0 && !o.assume) FB_USAGE_ERROR("--net-busbw assumes a figure: it needs --assume");
  return q;
}

double net_busbw_gbps(const ProjectOptions& o) { return rate_or_zero(o.net_busbw, "--net-busbw"); }

}  // namespace fb
