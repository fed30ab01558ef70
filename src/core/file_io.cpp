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

// A run that cannot deliver its output has failed (run_failed), unlike an unreadable input,
// which is the user's to fix (usage).
void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out)
      throw Error(ExitCode::run_failed, fmt::format("cannot write {}: {}", path, std::strerror(errno)));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int rename_errno = errno;
    std::remove(tmp.c_str());
    throw Error(ExitCode::run_failed, fmt::format("cannot write {}: {}", path, std::strerror(rename_errno)));
  }
}

}  // namespace fb
