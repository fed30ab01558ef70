#pragma once
// Flags a user brings from nccl-tests or from another fabricbench command, answered with what to use
// instead: nccl-tests' -g, -t, -J, -a, -N, -z, -m, -p, -C, -R, -F (fabricbench has no such feature,
// or has it under another name), `run -o page.html` (-o is the reduction op, as in nccl-tests) and
// the spellings of another command (`run --size`, `p2p --sizes`, `doctor -o`). docs/cli.md, "One
// naming scheme".
#include <string>
#include <vector>

namespace fb {

// Throws a usage error (exit 2) naming the flag and what to use instead; `args` is the whole command
// line, argv[0] first. Flags after the command's own name only; nothing for the flags it has.
void refuse_foreign_flags(const std::vector<std::string>& args);

}  // namespace fb
