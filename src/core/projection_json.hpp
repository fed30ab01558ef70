#pragma once
// nlohmann mappings of the result document's `projection` (docs/result-schema.md).
#include <nlohmann/json.hpp>

#include "core/projection.hpp"

namespace fb {

void to_json(nlohmann::json& j, const ModelShape& v);
void from_json(const nlohmann::json& j, ModelShape& v);
void to_json(nlohmann::json& j, const Workload& v);
void from_json(const nlohmann::json& j, Workload& v);
void to_json(nlohmann::json& j, const ProjectionTerm& v);
void from_json(const nlohmann::json& j, ProjectionTerm& v);
void to_json(nlohmann::json& j, const ProjectionRow& v);
void from_json(const nlohmann::json& j, ProjectionRow& v);
void to_json(nlohmann::json& j, const ProjectionPhase& v);
void from_json(const nlohmann::json& j, ProjectionPhase& v);
void to_json(nlohmann::json& j, const ComputeRates& v);
void from_json(const nlohmann::json& j, ComputeRates& v);
void to_json(nlohmann::json& j, const CurveSource& v);
void from_json(const nlohmann::json& j, CurveSource& v);
void to_json(nlohmann::json& j, const Projection& v);
void from_json(const nlohmann::json& j, Projection& v);

}  // namespace fb
