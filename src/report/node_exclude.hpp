#pragma once
// The exclude file of `fabricbench nodes` (`--exclude-file`, docs/nodes.md): one line, the named
// hosts in Slurm's hostlist syntax, ready for `sbatch --exclude=$(cat FILE)`.
#include <string>
#include <vector>

#include "analyse/hosts/node_ranking.hpp"

namespace fb {

// "node[03,17]\n"; an empty line when no host is named (an empty exclude list).
std::string exclude_line(const NodeRanking& ranking, const std::vector<std::string>& names);

// The file `nodes --exclude-file` writes: the document's nodes.exclude line (empty when none is named).
void write_exclude_file(const std::string& path, const NodesInfo& nodes);

}  // namespace fb
