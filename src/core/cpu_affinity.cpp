#include "core/cpu_affinity.hpp"

#include <sched.h>

#include <algorithm>

namespace fb {
namespace {
constexpr int kMaxCpus = 65536;  // Linux's NR_CPUS is at most 8192
}  // namespace

std::vector<int> parse_cpulist(const std::string& list) {
  std::vector<int> cpus;
  std::size_t pos = 0;
  while (pos < list.size()) {
    const auto comma = std::min(list.find(',', pos), list.size());
    const auto item = list.substr(pos, comma - pos);
    const auto dash = item.find('-');
    try {
      const int a = std::stoi(item.substr(0, dash));
      const int b = dash == std::string::npos ? a : std::stoi(item.substr(dash + 1));
      if (a < 0 || b < a || b >= kMaxCpus) return {};  // a hostile "0-2000000000" is no list
      for (int c = a; c <= b; ++c) cpus.push_back(c);
    } catch (const std::exception&) {
      return {};
    }
    pos = comma + 1;
  }
  return cpus;
}

bool bind_to_cpus(const std::vector<int>& cpus) {
  if (cpus.empty()) return false;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (const int c : cpus)
    if (c < CPU_SETSIZE) CPU_SET(c, &set);
  return sched_setaffinity(0, sizeof set, &set) == 0;
}

}  // namespace fb
