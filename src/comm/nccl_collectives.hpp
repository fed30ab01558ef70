#pragma once
// Collectives over NCCL communicators, one per local GPU, created once per run and reused
// across every size and collective. The communicators' type stays in comm/nccl_collectives.cpp:
// the layers above see the vendor-neutral Collectives face only.
#include <memory>
#include <string>
#include <vector>

#include "comm/collectives.hpp"
#include "comm/nccl_library.hpp"

namespace fb {

// A new unique id, serialised for the bootstrap (call on one process only).
std::string make_nccl_unique_id(const NcclLibrary& lib);

// Creates communicators for `devices` (local GPU ordinals) as global `ranks` of `nranks`.
std::unique_ptr<Collectives> make_nccl_collectives(std::shared_ptr<const NcclLibrary> lib,
                                                   const std::vector<int>& devices,
                                                   const std::vector<int>& ranks, int nranks,
                                                   const std::string& unique_id);

}  // namespace fb
