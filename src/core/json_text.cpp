#include "core/json_text.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace fb {

int json_nesting(std::string_view text, int limit) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  bool escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

std::optional<nlohmann::json> parse_json_bounded(std::string_view text, int max_depth, std::string& why) {
  if (json_nesting(text, max_depth) > max_depth) {
    why = fmt::format("nested deeper than {} levels", max_depth);
    return std::nullopt;
  }
  try {
    auto j = nlohmann::json::parse(text.begin(), text.end());
    return j;
  } catch (const nlohmann::json::exception& e) {  // parse_error; out_of_range for a number like 1e999
    why = e.what();
    return std::nullopt;
  }
}

}  // namespace fb
