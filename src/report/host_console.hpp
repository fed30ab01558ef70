#pragma once
// The host facts (model/host_facts.hpp) as `fabricbench topo` prints them: one line per fact,
// its value (or why it was not read) and where it was read.
#include <ostream>

#include "model/host_facts.hpp"

namespace fb {

void print_host_facts(std::ostream& out, const HostFacts& facts);

}  // namespace fb
