#pragma once
// A left-to-right matcher for NCCL's log lines (comm/nccl_log_*.cpp only): every step consumes
// input or fails, never backtracks, so a hostile line of any length is read in linear time and
// constant stack.
#include <cctype>
#include <cstdint>
#include <optional>
#include <string_view>

#include "core/parse_number.hpp"

namespace fb::nccl_log {

class Scanner {
 public:
  explicit Scanner(std::string_view s) : s_(s) {}
  bool literal(std::string_view text) {
    if (s_.substr(i_, text.size()) != text) return false;
    i_ += text.size();
    return true;
  }
  // [0-9]+, or [A-Za-z0-9_]+ when `word`.
  std::optional<std::string_view> run(bool word) {
    const auto start = i_;
    while (i_ < s_.size() && (is_digit(s_[i_]) || (word && (is_alpha(s_[i_]) || s_[i_] == '_')))) ++i_;
    if (i_ == start) return std::nullopt;
    return s_.substr(start, i_ - start);
  }
  std::optional<std::int64_t> number() {
    const auto d = run(false);
    return d ? try_parse_whole(*d) : std::nullopt;
  }
  // Everything up to (not including) the first of `stops`, or to the end; empty fails.
  std::optional<std::string_view> until_any(std::string_view stops) {
    const auto start = i_;
    while (i_ < s_.size() && stops.find(s_[i_]) == std::string_view::npos) ++i_;
    if (i_ == start) return std::nullopt;
    return s_.substr(start, i_ - start);
  }
  void skip_spaces() {
    while (i_ < s_.size() && s_[i_] == ' ') ++i_;
  }
  [[nodiscard]] bool at_end() const { return i_ >= s_.size(); }
  [[nodiscard]] std::string_view rest() const { return s_.substr(i_); }

 private:
  static bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
  static bool is_alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
  std::string_view s_;
  std::size_t i_ = 0;
};

// Channel numbers above this are not NCCL's (it has at most 64 or so).
inline constexpr std::int64_t kMaxChannel = 4096;

inline bool channel_count(std::optional<std::int64_t> v) { return v && *v >= 0 && *v <= kMaxChannel; }

}  // namespace fb::nccl_log
