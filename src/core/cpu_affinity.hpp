#pragma once
// CPU lists ("0-15,32-47") and binding the calling thread/process to CPUs.
#include <string>
#include <vector>

namespace fb {

// Empty on a malformed list.
std::vector<int> parse_cpulist(const std::string& list);

// Binds the calling thread (and threads it starts later) to `cpus`; false if the OS refused.
bool bind_to_cpus(const std::vector<int>& cpus);

}  // namespace fb
