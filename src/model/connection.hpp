#pragma once
// How two GPUs are connected, as nvidia-smi topo -m names it: a GPU fabric (NV# with its NVLink
// count, XGMI) or the PCIe path class (PIX, PXB, PHB, NODE, SYS); "?" when unknown.
#include <fmt/format.h>

#include <array>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "core/enum_names.hpp"

namespace fb {

class Connection {
 public:
  enum class Kind { unknown, nvlink, xgmi, pix, pxb, phb, node, sys };

  Connection() = default;  // unknown
  explicit Connection(Kind kind) : kind_(kind) {}
  static Connection nvlink(int links);
  // "NV18", "XGMI", "PIX", ... or "?"; nullopt for anything else.
  static std::optional<Connection> parse(std::string_view text);

  [[nodiscard]] Kind kind() const { return kind_; }
  [[nodiscard]] int nvlinks() const { return nvlinks_; }
  // Traffic between the pair stays on a GPU fabric (NVLink, xGMI), off PCIe and the host.
  [[nodiscard]] bool is_gpu_fabric() const { return kind_ == Kind::nvlink || kind_ == Kind::xgmi; }
  [[nodiscard]] std::string to_string() const;

  bool operator==(const Connection&) const = default;

 private:
  Kind kind_ = Kind::unknown;
  int nvlinks_ = 0;  // NV#: links between the pair
};

template <>
struct EnumNames<Connection::Kind> {
  static constexpr std::string_view what = "connection";
  // nvlink's name is the prefix of "NV<links>".
  static constexpr std::array<EnumName<Connection::Kind>, 8> table{{{Connection::Kind::unknown, "?"},
                                                                    {Connection::Kind::nvlink, "NV"},
                                                                    {Connection::Kind::xgmi, "XGMI"},
                                                                    {Connection::Kind::pix, "PIX"},
                                                                    {Connection::Kind::pxb, "PXB"},
                                                                    {Connection::Kind::phb, "PHB"},
                                                                    {Connection::Kind::node, "NODE"},
                                                                    {Connection::Kind::sys, "SYS"}}};
};

void to_json(nlohmann::json& j, const Connection& c);
// Throws Error(usage) for a string that names no connection.
void from_json(const nlohmann::json& j, Connection& c);

inline std::ostream& operator<<(std::ostream& out, const Connection& c) { return out << c.to_string(); }

}  // namespace fb

template <>
struct fmt::formatter<fb::Connection> : fmt::formatter<std::string_view> {
  template <typename Context>
  auto format(const fb::Connection& c, Context& ctx) const {
    return fmt::formatter<std::string_view>::format(c.to_string(), ctx);
  }
};
