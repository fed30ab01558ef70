#pragma once
// Whole-file reads and atomic writes: every command reads and writes documents this way.
#include <string>

namespace fb {

// The whole file; throws Error(usage) naming the file when it cannot be read.
std::string read_file(const std::string& path);

// Writes `text` to `path` atomically (a temporary beside it, then rename), so that a reader
// never sees half a document; throws Error(run_failed) naming the file when it cannot be written.
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace fb
