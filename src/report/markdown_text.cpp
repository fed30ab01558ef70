#include "report/markdown_text.hpp"

#include "core/text.hpp"

namespace fb {
namespace {

bool opens_tag(std::string_view text, std::size_t at) {
  if (at + 1 >= text.size()) return false;
  const char c = text[at + 1];
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '/' || c == '!' || c == '?';
}

}  // namespace

std::string md_text(std::string_view text) {
  const std::string plain = escape_control(text);  // "\n" written out: two characters
  std::string out;
  out.reserve(plain.size() + 8);
  for (std::size_t i = 0; i < plain.size(); ++i) {
    const char c = plain[i];
    if (c == '\\' || c == '|' || c == '[' || c == ']' || (c == '<' && opens_tag(plain, i))) out += '\\';
    out += c;
  }
  return out;
}

}  // namespace fb
