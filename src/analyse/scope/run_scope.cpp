#include "analyse/scope/run_scope.hpp"

#include <algorithm>
#include <set>

namespace fb {

std::vector<int> run_gpus(const Result& r) {
  std::set<int> used;
  for (const auto& run : r.runs) used.insert(run.gpus.begin(), run.gpus.end());
  for (const auto& m : r.p2p)
    for (const int g : {m.src, m.dst})
      if (g >= 0) used.insert(g);
  if (used.empty())
    for (const auto& g : r.gpus) used.insert(g.index);
  if (used.empty() && r.topology)
    for (const auto& g : r.topology->gpus) used.insert(g.index);
  return {used.begin(), used.end()};
}

Topology scoped_topology(const Topology& t, const std::vector<int>& gpus) {
  auto in = [&](int g) { return std::binary_search(gpus.begin(), gpus.end(), g); };
  Topology out = t;
  out.gpus.clear();
  out.pairs.clear();
  for (const auto& g : t.gpus)
    if (in(g.index)) out.gpus.push_back(g);
  for (const auto& p : t.pairs)
    if (in(p.a) && in(p.b)) out.pairs.push_back(p);
  return out;
}

}  // namespace fb
