#include "cli/empty_values.hpp"

#include <string>

namespace fb {

void refuse_empty_values(CLI::App& app) {
  const CLI::Validator non_empty(
      [](const std::string& value) {
        return value.empty() ? std::string("an empty value; give one or leave the option out")
                             : std::string();
      },
      "");
  for (CLI::Option* option : app.get_options())
    if (option->get_type_size_max() > 0) option->check(non_empty);
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) refuse_empty_values(*sub);
}

}  // namespace fb
