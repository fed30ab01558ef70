#pragma once
// JSON round-trip of the result document (nlohmann_json).
#include <nlohmann/json.hpp>
#include <string>

#include "core/result.hpp"

namespace fb {

void to_json(nlohmann::json& j, const TimeStats& v);
void from_json(const nlohmann::json& j, TimeStats& v);
void to_json(nlohmann::json& j, const Point& v);
void from_json(const nlohmann::json& j, Point& v);
void to_json(nlohmann::json& j, const Run& v);
void from_json(const nlohmann::json& j, Run& v);
void to_json(nlohmann::json& j, const GpuInfo& v);
void from_json(const nlohmann::json& j, GpuInfo& v);
void to_json(nlohmann::json& j, const HostInfo& v);
void from_json(const nlohmann::json& j, HostInfo& v);
void to_json(nlohmann::json& j, const P2pMeasurement& v);
void from_json(const nlohmann::json& j, P2pMeasurement& v);
void to_json(nlohmann::json& j, const Finding& v);
void from_json(const nlohmann::json& j, Finding& v);
void to_json(nlohmann::json& j, const Result& v);
void from_json(const nlohmann::json& j, Result& v);

// Parses a result document; throws a usage error (bad input file) with the reason.
Result parse_result(const std::string& text);

}  // namespace fb
