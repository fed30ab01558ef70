#include "core/environment.hpp"

#include <unistd.h>

#include <array>
#include <cstdlib>
#include <ctime>
#include <string_view>

extern char** environ;  // NOLINT: POSIX

namespace fb {

std::map<std::string, std::string> capture_comm_env() {
  constexpr std::array<std::string_view, 6> kPrefixes{"NCCL_", "RCCL_", "CUDA_", "HIP_", "ROCR_", "HSA_"};
  std::map<std::string, std::string> out;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string_view entry(*e);
    const auto eq = entry.find('=');
    if (eq == std::string_view::npos) continue;
    const auto name = entry.substr(0, eq);
    for (auto prefix : kPrefixes) {
      if (name.starts_with(prefix)) {
        out.emplace(name, entry.substr(eq + 1));
        break;
      }
    }
  }
  return out;
}

std::string host_name() {
  std::array<char, 256> buf{};
  if (gethostname(buf.data(), buf.size() - 1) != 0) return "unknown";
  return buf.data();
}

std::string job_host_name() {
  const char* id = std::getenv("NCCL_HOSTID");
  return id != nullptr && *id != '\0' ? std::string(id) : host_name();
}

std::string now_iso8601() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::array<char, 32> buf{};
  std::strftime(buf.data(), buf.size(), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf.data();
}

}  // namespace fb
