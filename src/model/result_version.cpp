#include "model/result_version.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>
#include <string>

#include "core/error.hpp"

namespace fb {
namespace {

// Decimal digits only (from_chars alone would take a sign); nullopt past int's range.
std::optional<int> version_number(std::string_view text) {
  if (text.empty() || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  int value = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return value;
}

// What the file says, quoted as JSON and cut short: the value may be anything.
std::string shown(const nlohmann::json& schema) {
  if (schema.is_null()) return "(none)";
  std::string text = schema.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  constexpr std::size_t kShown = 80;
  if (text.size() > kShown) text = text.substr(0, kShown) + "...";
  return text;
}

}  // namespace

std::optional<SchemaVersion> parse_schema_version(std::string_view text) {
  const auto slash = text.find('/');
  if (slash == std::string_view::npos || text.substr(0, slash) != kResultSchemaName) return std::nullopt;
  const auto number = text.substr(slash + 1);
  const auto dot = number.find('.');
  const auto major = version_number(number.substr(0, dot));
  const auto minor =
      dot == std::string_view::npos ? std::optional<int>(0) : version_number(number.substr(dot + 1));
  if (!major || !minor) return std::nullopt;
  return SchemaVersion{*major, *minor};
}

void check_result_schema(const nlohmann::json& schema) {
  const auto version =
      schema.is_string() ? parse_schema_version(schema.get<std::string>()) : std::optional<SchemaVersion>();
  if (version && version->major == kResultVersion.major) return;
  const std::string what = version ? fmt::format("version {}.{}", version->major, version->minor)
                                   : fmt::format("not {}/MAJOR.MINOR", kResultSchemaName);
  FB_USAGE_ERROR(
      fmt::format("$.schema: unsupported result schema {} ({}): this build reads {}/{}.x "
                  "(any minor of version {}; it writes {}.{})",
                  shown(schema), what, kResultSchemaName, kResultVersion.major, kResultVersion.major,
                  kResultVersion.major, kResultVersion.minor));
}

}  // namespace fb
