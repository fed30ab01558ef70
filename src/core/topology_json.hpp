#pragma once
#include <nlohmann/json.hpp>

#include "core/topology.hpp"

namespace fb {

void to_json(nlohmann::json& j, const Topology& t);
void from_json(const nlohmann::json& j, Topology& t);

}  // namespace fb
