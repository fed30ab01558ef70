#pragma once
// Another tool's output recognised by its content and read into a result document, without the
// companions (import_file.hpp adds NCCL's log and the topology): the part of reading a file that
// depends on nothing but the text, so that the fuzz build runs it whole.
#include <optional>
#include <string>

#include "model/result.hpp"

namespace fb {

struct ImportedOutput {
  Result result;
  std::string nccl_lines;  // NCCL's own log lines found in the output ("" none)
};

// The outputs read here, in words, in parentheses: what an error tells the user to pass instead.
std::string readable_outputs();

// nullopt where the text is JSON that is not nccl-tests' (a fabricbench document, or bad JSON: the
// caller's document reader says what is wrong with it); a usage error naming `path` where the text
// is no output read here, or where what it holds cannot be read without a wrong number.
std::optional<ImportedOutput> import_output(const std::string& text, const std::string& path,
                                            const std::string& gpu = "", const std::string& collective = "");

}  // namespace fb
