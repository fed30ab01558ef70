#include "model/topology.hpp"

namespace fb {

const TopoPair* Topology::find_pair(int a, int b) const {
  for (const auto& p : pairs)
    if ((p.a == a && p.b == b) || (p.a == b && p.b == a)) return &p;
  return nullptr;
}

const TopoGpu* Topology::find_gpu(int index) const {
  for (const auto& g : gpus)
    if (g.index == index) return &g;
  return nullptr;
}

}  // namespace fb
