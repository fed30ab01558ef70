#include "ingest/import_output.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "comm/nccl_log.hpp"
#include "core/error.hpp"
#include "core/json_text.hpp"
#include "ingest/command_facts.hpp"
#include "ingest/nccl_tests_json.hpp"
#include "ingest/nccl_tests_text.hpp"
#include "ingest/paste_lines.hpp"
#include "ingest/rccl_csv.hpp"
#include "ingest/run_environment.hpp"
#include "ingest/tool_result.hpp"
#include "ingest/torch_bench.hpp"
#include "ingest/torch_bench_table.hpp"
#include "ingest/torch_script.hpp"
#include "model/json_limits.hpp"

namespace fb {
namespace {

bool recognised(const Paste& paste) {
  return looks_like_rccl_csv(paste) || looks_like_nccl_tests(paste) || looks_like_torch_script(paste) ||
         looks_like_torch_bench(paste) || looks_like_torch_bench_table(paste);
}

[[noreturn]] void not_an_output(const std::string& path) {
  FB_USAGE_ERROR(
      fmt::format("{}: not a JSON document, nor an output fabricbench reads {}", path, readable_outputs()));
}

// JSON of any kind ("42" too: the document reader says it is not a document), or text that opens
// as JSON would ('{', '['): the document reader names what is wrong with it. A '[' may also open a
// tool's output ("[1,0]<stdout>:" of mpirun, "[root@host dir]# " of a prompt): that is read as such.
bool starts_as_json(const std::string& text) {
  const auto at = text.find_first_not_of(" \t\r\n");
  if (at == std::string::npos) return false;
  if (text[at] == '{' || nlohmann::json::accept(text)) return true;
  return text[at] == '[' && !recognised(clean_paste(text));
}

std::optional<std::vector<ToolRun>> json_runs(const std::string& text, const std::string& path) {
  std::string why;
  const auto parsed = parse_json_bounded(text, kMaxJsonDepth, why);
  if (!parsed) return std::nullopt;  // the document reader names what is wrong
  const nlohmann::json& j = *parsed;
  if (!looks_like_nccl_tests_json(j)) return std::nullopt;
  try {
    return std::vector<ToolRun>{read_nccl_tests_json(j)};
  } catch (const nlohmann::json::exception& e) {
    FB_USAGE_ERROR(fmt::format("{}: nccl-tests JSON: {}", path, e.what()));
  } catch (const Error& e) {
    FB_USAGE_ERROR(fmt::format("{}: nccl-tests JSON: {}", path, e.what()));
  }
}

std::vector<ToolRun> text_runs(const Paste& paste, const std::string& path) {
  if (!recognised(paste)) not_an_output(path);
  if (looks_like_rccl_csv(paste)) return read_rccl_csv(paste);
  if (looks_like_nccl_tests(paste)) return read_nccl_tests_text(paste);
  if (looks_like_torch_script(paste)) return {read_torch_script(paste, path)};
  if (looks_like_torch_bench(paste)) return read_torch_bench(paste);
  return read_torch_bench_table(paste);
}

// A failed run names NCCL's last warning beside the tool's line ("enqueue.cc:1500 NCCL WARN Cuda failure 1
// 'invalid argument'"): what NCCL said went wrong.
void name_last_warning(Result& r, const std::string& nccl_lines) {
  constexpr std::string_view kWarn = " NCCL WARN ";
  const auto at = nccl_lines.rfind(kWarn);
  if (r.failure.empty() || at == std::string::npos) return;
  const auto newline = nccl_lines.rfind('\n', at);
  const auto start = newline == std::string::npos ? 0 : newline + 1;
  auto line = nccl_lines.substr(start, nccl_lines.find('\n', at) - start);
  if (const auto bracket = line.find("] "); bracket != std::string::npos && bracket < at - start)
    line.erase(0, bracket + 2);
  r.failure += fmt::format("; NCCL's last warning: \"{}\"", line);
}

}  // namespace

std::string readable_outputs() {
  return "(nccl-tests or rccl-tests standard output or nccl-tests -J JSON, rccl-tests CSV, the PyTorch "
         "all_reduce script's \"Estimated Bandwidth\" lines, all_reduce_bench.py's and torch-dist-bench.py's "
         "\"The average bandwidth of all_reduce\" lines and \"| payload | busbw | algbw |\" tables)";
}

std::optional<ImportedOutput> import_output(const std::string& text, const std::string& path,
                                            const std::string& gpu, const std::string& collective) {
  ToolImport how;
  how.file = path;
  how.collective = collective;
  if (!gpu.empty()) how.gpus = parse_given_gpus(gpu);
  if (starts_as_json(text)) {
    auto runs = json_runs(text, path);
    if (!runs) return std::nullopt;
    auto result = result_from_tool_runs(std::move(*runs), how);
    note_unread_environment(result);
    return ImportedOutput{std::move(result), ""};
  }
  const auto paste = clean_paste(text);
  how.command = read_command_facts(paste);
  auto result = result_from_tool_runs(text_runs(paste, path), how);
  set_command_environment(result, how.command);
  const auto logged = parse_nccl_log(paste.nccl_log);
  add_logged_environment(result, logged.env, "NCCL's lines in the output");
  note_unread_environment(result);
  name_last_warning(result, paste.nccl_log);
  return ImportedOutput{std::move(result), paste.nccl_log};
}

}  // namespace fb
