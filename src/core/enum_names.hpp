#pragma once
// One table of names per enum. The JSON strings, what the console prints and what parsing
// accepts all come from that table, so each name is written once. An enum takes part by
// specialising EnumNames with `what` (for error messages) and `table` (rows with `id` and `name`).
// Its JSON mapping names only nlohmann's forward declarations: every header of the data model
// includes this one, and most files that use the model never read or write JSON.
#include <fmt/format.h>

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/error.hpp"

namespace fb {

template <typename E>
struct EnumName {
  E id;
  std::string_view name;
};

template <typename E>
struct EnumNames;

template <typename E>
concept NamedEnum = std::is_enum_v<E> && requires {
  EnumNames<E>::what;
  EnumNames<E>::table;
};

template <NamedEnum E>
constexpr std::string_view to_string(E e) {
  for (const auto& row : EnumNames<E>::table)
    if (row.id == e) return row.name;
  return "?";
}

// nullopt when `name` is none of E's names.
template <NamedEnum E>
constexpr std::optional<E> enum_from_string(std::string_view name) {
  for (const auto& row : EnumNames<E>::table)
    if (row.name == name) return row.id;
  return std::nullopt;
}

// Throws Error(usage) naming the unknown word: a document or flag that says something else.
template <NamedEnum E>
E parse_enum(std::string_view name) {
  if (const auto e = enum_from_string<E>(name)) return *e;
  throw Error(ExitCode::usage, fmt::format("unknown {} '{}'", EnumNames<E>::what, name));
}

// An enum's JSON value is its name (core/enum_names.cpp holds the two halves that need
// nlohmann's full header).
void set_json_name(nlohmann::json& j, std::string_view name);
std::string json_name(const nlohmann::json& j);

template <NamedEnum E>
void to_json(nlohmann::json& j, E e) {
  set_json_name(j, to_string(e));
}

template <NamedEnum E>
void from_json(const nlohmann::json& j, E& e) {
  e = parse_enum<E>(json_name(j));
}

// For test failure messages.
template <NamedEnum E>
std::ostream& operator<<(std::ostream& out, E e) {
  return out << to_string(e);
}

}  // namespace fb

template <fb::NamedEnum E>
struct fmt::formatter<E> : fmt::formatter<std::string_view> {
  template <typename Context>
  auto format(E e, Context& ctx) const {
    return fmt::formatter<std::string_view>::format(fb::to_string(e), ctx);
  }
};
