#pragma once
// JSON of the host facts (the result document's "host.config", docs/result-schema.md). Reading
// tolerates absent fields: documents from older builds carry fewer facts.
#include <nlohmann/json.hpp>

#include "core/host_facts.hpp"

namespace fb {

void to_json(nlohmann::json& j, const HostFact& v);
void from_json(const nlohmann::json& j, HostFact& v);
void to_json(nlohmann::json& j, const BridgeAcs& v);
void from_json(const nlohmann::json& j, BridgeAcs& v);
void to_json(nlohmann::json& j, const GpuHostFacts& v);
void from_json(const nlohmann::json& j, GpuHostFacts& v);
void to_json(nlohmann::json& j, const HostFacts& v);
void from_json(const nlohmann::json& j, HostFacts& v);

}  // namespace fb
