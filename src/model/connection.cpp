#include "model/connection.hpp"

#include <charconv>
#include <nlohmann/json.hpp>

namespace fb {

Connection Connection::nvlink(int links) {
  Connection c(Kind::nvlink);
  c.nvlinks_ = links;
  return c;
}

std::optional<Connection> Connection::parse(std::string_view text) {
  const auto prefix = fb::to_string(Kind::nvlink);
  if (text.starts_with(prefix) && text.size() > prefix.size()) {
    int links = 0;
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data() + prefix.size(), end, links);
    if (ec == std::errc() && ptr == end && links > 0) return nvlink(links);
    return std::nullopt;
  }
  const auto kind = enum_from_string<Kind>(text);
  if (!kind || *kind == Kind::nvlink) return std::nullopt;
  return Connection(*kind);
}

std::string Connection::to_string() const {
  const auto name = fb::to_string(kind_);
  return kind_ == Kind::nvlink ? fmt::format("{}{}", name, nvlinks_) : std::string(name);
}

void to_json(nlohmann::json& j, const Connection& c) { j = c.to_string(); }

void from_json(const nlohmann::json& j, Connection& c) {
  const auto text = j.get<std::string>();
  const auto parsed = Connection::parse(text);
  if (!parsed) throw Error(ExitCode::usage, fmt::format("unknown connection '{}'", text));
  c = *parsed;
}

}  // namespace fb
