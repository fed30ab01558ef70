#pragma once
// JSON of the verdict contract and of a site's expectation rows (docs/result-schema.md).
#include <nlohmann/json.hpp>

#include "model/expectation_rows.hpp"
#include "model/verdict.hpp"

namespace fb {

void to_json(nlohmann::json& j, const CheckVerdict& v);
void from_json(const nlohmann::json& j, CheckVerdict& v);
void to_json(nlohmann::json& j, const Verdict& v);
void from_json(const nlohmann::json& j, Verdict& v);
// max_bytes without an upper bound is null; tolerance and single_report only where set.
void to_json(nlohmann::json& j, const ExpectationRow& v);
void from_json(const nlohmann::json& j, ExpectationRow& v);
void to_json(nlohmann::json& j, const ExpectationSet& v);
void from_json(const nlohmann::json& j, ExpectationSet& v);

}  // namespace fb
