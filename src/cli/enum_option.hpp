#pragma once
// A flag whose value is one of an enum's names (core/enum_names.hpp): the accepted words, the
// parse and the error all come from the enum's one table.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "core/enum_names.hpp"

namespace fb {

template <NamedEnum E>
CLI::Option* add_enum_option(CLI::App* app, const std::string& name, E& target, const std::string& help) {
  std::vector<std::string> names;
  names.reserve(EnumNames<E>::table.size());
  for (const auto& row : EnumNames<E>::table) names.emplace_back(row.name);
  return app
      ->add_option_function<std::string>(
          name, [&target](const std::string& text) { target = parse_enum<E>(text); }, help)
      ->check(CLI::IsMember(names));
}

}  // namespace fb
