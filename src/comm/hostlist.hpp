#pragma once
// Slurm's hostlist syntax: "gpu[01-03,07],cpu5" names gpu01 gpu02 gpu03 gpu07 cpu5. Ranges keep
// their zero padding ("[08-10]" -> 08 09 10); a name may have several bracket groups
// ("r[1-2]n[1-2]" -> r1n1 r1n2 r2n1 r2n2).
#include <string>
#include <vector>

namespace fb {

// Every host of `list`, in order; items are separated by commas or white space (a file's lines). Throws
// Error(usage) on an unbalanced bracket or a bad range.
std::vector<std::string> expand_hostlist(const std::string& list);

// Slurm's ranged form of `hosts`: names that differ only in a trailing number are folded into one
// bracket per prefix, in order of first appearance ("n01,n02,n03,n07,cpu5" -> "n[01-03,07],cpu5";
// "node1,node2,node12" -> "node[1-2,12]"); zero padding is kept (a range joins 9 and 10, or 09 and
// 10, never 009 and 10); duplicates are dropped.
std::string compress_hostlist(const std::vector<std::string>& hosts);

}  // namespace fb
