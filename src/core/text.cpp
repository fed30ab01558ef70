#include "core/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <utility>

namespace fb {

std::string lower(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const auto end = text.find(sep, start);
    out.emplace_back(text.substr(start, end == std::string_view::npos ? text.size() - start : end - start));
    if (end == std::string_view::npos) return out;
    start = end + 1;
  }
}

std::string escape_control(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else if (c == '\t')
      out += "\\t";
    else if (u < 0x20 || u == 0x7f)
      out += fmt::format("\\x{:02x}", u);
    else
      out += c;
  }
  return out;
}

std::string join_ints(const std::vector<int>& values, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += sep;
    out += std::to_string(values[i]);
  }
  return out;
}

std::string counted_join(const std::vector<std::string>& items, std::string_view sep) {
  std::vector<std::pair<std::string, int>> groups;
  for (const auto& item : items) {
    const auto it =
        std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == item; });
    if (it == groups.end())
      groups.emplace_back(item, 1);
    else
      ++it->second;
  }
  std::string out;
  for (const auto& [item, n] : groups) out += fmt::format("{}{} x {}", out.empty() ? "" : sep, n, item);
  return out;
}

}  // namespace fb
