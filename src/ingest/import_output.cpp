#include "ingest/import_output.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "ingest/nccl_tests_json.hpp"
#include "ingest/nccl_tests_text.hpp"
#include "ingest/paste_lines.hpp"
#include "ingest/rccl_csv.hpp"
#include "ingest/tool_result.hpp"
#include "ingest/torch_bench.hpp"
#include "ingest/torch_script.hpp"

namespace fb {
namespace {

// JSON of any kind ("42" too: the document reader says it is not a document), or text that opens
// as JSON would ('{', '['): the document reader names what is wrong with it.
bool starts_as_json(const std::string& text) {
  const auto at = text.find_first_not_of(" \t\r\n");
  return at != std::string::npos && (text[at] == '{' || text[at] == '[' || nlohmann::json::accept(text));
}

std::optional<std::vector<ToolRun>> json_runs(const std::string& text, const std::string& path) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;  // the document reader names what is wrong
  }
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
  if (looks_like_rccl_csv(paste)) return read_rccl_csv(paste);
  if (looks_like_nccl_tests(paste)) return read_nccl_tests_text(paste);
  if (looks_like_torch_script(paste)) return {read_torch_script(paste, path)};
  if (looks_like_torch_bench(paste)) return read_torch_bench(paste);
  FB_USAGE_ERROR(fmt::format(
      "{}: not a JSON document, nor an output fabricbench reads (nccl-tests or rccl-tests standard output or "
      "nccl-tests -J JSON, rccl-tests CSV, the PyTorch all_reduce script's \"Estimated Bandwidth\" lines, "
      "all_reduce_bench.py's \"The average bandwidth of all_reduce\" lines)",
      path));
}

}  // namespace

std::optional<ImportedOutput> import_output(const std::string& text, const std::string& path,
                                            const std::string& gpu, const std::string& collective) {
  ToolImport how;
  how.file = path;
  how.collective = collective;
  if (!gpu.empty()) how.gpus = parse_given_gpus(gpu);
  if (starts_as_json(text)) {
    auto runs = json_runs(text, path);
    if (!runs) return std::nullopt;
    return ImportedOutput{result_from_tool_runs(std::move(*runs), how), ""};
  }
  const auto paste = clean_paste(text);
  return ImportedOutput{result_from_tool_runs(text_runs(paste, path), how), paste.nccl_log};
}

}  // namespace fb
