#include "report/json_reporter.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "core/error.hpp"
#include "core/result_json.hpp"

namespace fb {

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out) throw Error(ExitCode::usage, fmt::format("cannot write {}: {}", tmp, std::strerror(errno)));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw Error(ExitCode::usage, fmt::format("cannot write {}: {}", path, std::strerror(errno)));
}

void JsonReporter::write(const Result& result) const {
  write_file_atomically(path_, nlohmann::json(result).dump(2) + "\n");
}

}  // namespace fb
