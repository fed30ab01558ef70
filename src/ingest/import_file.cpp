#include "ingest/import_file.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "bench/nccl_setup.hpp"
#include "comm/nccl_log.hpp"
#include "core/error.hpp"
#include "core/file_io.hpp"
#include "core/version.hpp"
#include "ingest/companion_check.hpp"
#include "ingest/import_output.hpp"
#include "ingest/paste_lines.hpp"
#include "ingest/run_environment.hpp"
#include "ingest/topo_text.hpp"
#include "model/result_json.hpp"

namespace fb {
namespace {

// NCCL's log: its version and library into the host, its set-up and per-size choices into each run.
void apply_nccl_log(Result& r, const std::string& text, const std::string& from) {
  const auto log = parse_nccl_log(text);
  if (!log.version.empty()) r.host.comm.version = log.version;
  if (!log.library.empty()) r.host.comm.name = log.library;
  for (auto& run : r.runs) attach_nccl_log(run, log);
  bool choices = false;
  for (const auto& run : r.runs)
    for (const auto& p : run.points) choices |= !p.nccl_algo.empty();
  r.source->converted.push_back(
      fmt::format("NCCL's set-up{} read from {}", choices ? " and its choice at each size" : "", from));
  if (!choices)
    r.source->unknown.emplace_back(
        "NCCL's algorithm at each size: not in its log (NCCL_DEBUG_SUBSYS without TUNING?)");
}

// The --nccl-log file: refused where it is not this run's log (unless --force, then said so), its
// settings ("NCCL_ALGO set by environment to Ring") into the run's environment.
// The output's own NCCL lines (`own_lines`) say its library and version where its header does not.
void apply_companion_log(Result& r, const std::string& own_lines, const ImportOptions& o) {
  const auto text = read_file(o.nccl_log);
  const auto log = parse_nccl_log(clean_paste(text).nccl_log);
  Result output = r;
  if (!own_lines.empty()) {
    const auto own = parse_nccl_log(own_lines);
    if (!own.version.empty()) output.host.comm.version = own.version;
    if (!own.library.empty()) output.host.comm.name = own.library;
  }
  if (const auto why = nccl_log_conflict(output, log, text); !why.empty()) {
    if (!o.force)
      FB_USAGE_ERROR(
          fmt::format("{}: not this run's NCCL log: {}; pass --force to use it anyway", o.nccl_log, why));
    r.source->converted.push_back(
        fmt::format("NCCL's log {} taken with --force although {}", o.nccl_log, why));
  }
  apply_nccl_log(r, text, o.nccl_log);
  add_logged_environment(r, log.env, o.nccl_log);
}

void apply_companions(Result& r, const std::string& nccl_lines, const ImportOptions& o) {
  if (!o.nccl_log.empty())
    apply_companion_log(r, nccl_lines, o);
  else if (!nccl_lines.empty())
    apply_nccl_log(r, nccl_lines, "NCCL's lines in the output itself");
  else
    r.source->unknown.emplace_back(
        "NCCL's algorithm at each size, its transports and NICs: pass --nccl-log FILE (NCCL_DEBUG=INFO "
        "NCCL_DEBUG_SUBSYS=INIT,TUNING)");
  if (!o.topo.empty()) {
    r.topology = topology_from_text(read_file(o.topo), o.topo, r);
    r.source->converted.push_back("the topology read from " + o.topo);
  } else {
    r.source->unknown.emplace_back(
        "the topology (links, ceilings): pass --topo FILE (nvidia-smi topo -m or rocm-smi --showtopo)");
  }
}

}  // namespace

Result import_text(const std::string& text, const std::string& path, const ImportOptions& o) {
  auto imported = import_output(text, path, o.gpu, o.collective);
  if (!imported) {
    try {
      return parse_result(text);
    } catch (const Error& e) {
      // Text that is no JSON at all may be a tool's output pasted wrong: say what is read besides documents.
      if (nlohmann::json::accept(text)) FB_USAGE_ERROR(fmt::format("{}: {}", path, e.what()));
      FB_USAGE_ERROR(
          fmt::format("{}: {}; nor an output fabricbench reads {}", path, e.what(), readable_outputs()));
    }
  }
  Result r = std::move(imported->result);
  r.tool = {kToolVersion, kToolGit};
  r.command = {};  // the tool's command line is not in its output
  apply_companions(r, imported->nccl_lines, o);
  return r;
}

Result load_result_or_output(const std::string& path, const ImportOptions& options) {
  return import_text(read_file(path), path, options);
}

Result load_input(const std::string& path, const ImportOptions& options) {
  Result r = load_result_or_output(path, options);
  if (!r.source && options.any())
    FB_USAGE_ERROR(
        fmt::format("{}: a fabricbench result document: --nccl-log, --topo, --gpu and --collective "
                    "describe another tool's output",
                    path));
  return r;
}

}  // namespace fb
