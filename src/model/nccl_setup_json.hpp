#pragma once
// A run's `nccl_setup` member: NCCL's set-up as its log reported it (docs/result-schema.md).
#include <nlohmann/json.hpp>

#include "core/nccl_nic.hpp"
#include "model/result.hpp"

namespace fb {

void to_json(nlohmann::json& j, const NcclNic& v);
void from_json(const nlohmann::json& j, NcclNic& v);

// The counts NCCL never logs as zero (coll, p2p) are written 0 when not in its log, as before
// 1.2; the members added in 1.2 are absent when not in the log.
nlohmann::json nccl_setup_json(const Run& run);
void read_nccl_setup(const nlohmann::json& j, Run& run);

}  // namespace fb
