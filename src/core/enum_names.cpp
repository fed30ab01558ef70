#include "core/enum_names.hpp"

#include <nlohmann/json.hpp>

namespace fb {

void set_json_name(nlohmann::json& j, std::string_view name) { j = std::string(name); }

std::string json_name(const nlohmann::json& j) { return j.get<std::string>(); }

}  // namespace fb
