#include "core/file_io.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/error.hpp"

namespace fb {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) FB_USAGE_ERROR(fmt::format("cannot read {}: {}", path, std::strerror(errno)));
  std::stringstream ss;
  ss << in.rdbuf();
  if (in.bad()) FB_USAGE_ERROR(fmt::format("cannot read {}: {}", path, std::strerror(errno)));
  return ss.str();
}

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

}  // namespace fb
