#include "ingest/paste_lines.hpp"

#include <cctype>
#include <string_view>

namespace fb {
namespace {

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

// Terminal escapes (CSI sequences: ESC '[' ... final letter) and carriage returns removed.
std::string strip_terminal(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\r') continue;
    if (line[i] == '\x1b') {
      std::size_t j = i + 1;
      if (j < line.size() && line[j] == '[') ++j;
      while (j < line.size() && !is_alpha(line[j])) ++j;
      i = j;
      continue;
    }
    // A tab is a space between words; any other control byte or non-ASCII byte (a tool's output is
    // ASCII) is '?', so that no text read here can break the document's JSON (UTF-8) or a message.
    const auto c = static_cast<unsigned char>(line[i]);
    out += c == '\t' ? ' ' : (c < 0x20 || c >= 0x7f) ? '?' : line[i];
  }
  while (!out.empty() && std::isspace(static_cast<unsigned char>(out.back())) != 0) out.pop_back();
  return out;
}

// Where torchrun --tee's "[default0]:" or "[NAME0]:" (a role, then the local rank) ends; 0: not one.
std::size_t torchrun_prefix_end(std::string_view s) {
  const auto end = s.find(']');
  if (end == std::string_view::npos || end < 2 || end > 127 || end + 1 >= s.size()) return 0;
  return s[end + 1] == ':' && is_digit(s[end - 1]) ? end + 2 : 0;
}

// "[1,0]<stdout>:" (OpenMPI --tag-output), torchrun --tee's "[default0]:" or, with --role NAME,
// "[NAME0]:" (the role and the local rank), and srun -l's "12: " at the start of the line.
std::string_view strip_line_prefix(std::string_view s) {
  if (s.starts_with('[')) {
    const auto close = s.find("]<std");
    if (close != std::string_view::npos && close < 16) {
      const auto colon = s.find(">:", close);
      if (colon != std::string_view::npos) return s.substr(colon + 2);
    }
    if (const auto end = torchrun_prefix_end(s); end > 0) return s.substr(end);
  }
  std::size_t i = 0;
  while (i < s.size() && s[i] == ' ') ++i;
  const std::size_t digits = i;
  while (i < s.size() && is_digit(s[i])) ++i;
  if (i > digits && i + 1 < s.size() && s[i] == ':' && s[i + 1] == ' ' && i - digits <= 5)
    return s.substr(i + 2);
  return s;
}

// Every "[N]" (N digits only) removed: Intel MPI's -prepend-rank writes one before each print call.
std::string strip_rank_tags(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '[') {
      std::size_t j = i + 1;
      while (j < s.size() && is_digit(s[j])) ++j;
      if (j > i + 1 && j < s.size() && s[j] == ']' && j - i <= 6) {
        i = j;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

// A table piece printed just before NCCL's prefix without a newline ("-1vm:1417:1417"), where text
// precedes the word on the line: the host begins at its first letter (host names that are all
// digits are not told apart from such a piece). `i` is the word's start, `at` NCCL's.
std::size_t glued_host_start(std::string_view s, std::size_t i, std::size_t at) {
  if (i == 0) return i;
  std::size_t host = i;
  while (host < at && !is_alpha(s[host]) && s[host] != ':') ++host;
  return host < at && s[host] != ':' ? host : i;
}

// Where NCCL's "host:pid:tid [dev] NCCL INFO" begins in the line; npos when it is not there.
std::size_t nccl_log_start(std::string_view s) {
  std::size_t at = std::string_view::npos;
  for (const std::string_view word : {" NCCL INFO", " NCCL WARN", " NCCL TRACE"})
    if (const auto p = s.find(word); p != std::string_view::npos && p < at) at = p;
  if (at == std::string_view::npos) return at;
  // Back over "[dev]" (and a WARN's file:line before it) to the host:pid:tid word.
  const auto word_before = [&s](std::size_t end) {
    while (end > 0 && s[end - 1] == ' ') --end;
    while (end > 0 && s[end - 1] != ' ' && s[end - 1] != '\t') --end;
    return end;
  };
  std::size_t i = word_before(at);
  if (s[i] != '[') i = word_before(i);  // a WARN: "host:pid:tid [0] /path/init.cc:132 NCCL WARN"
  if (s[i] == '[')
    i = word_before(i);
  else
    return std::string_view::npos;  // not NCCL's prefix
  return glued_host_start(s, i, at);
}

bool is_library_version_line(std::string_view s) {
  return s.starts_with("NCCL version ") || s.starts_with("RCCL version ");
}

}  // namespace

Paste clean_paste(const std::string& text) {
  Paste p;
  std::size_t start = 0;
  int number = 0;
  while (start <= text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    ++number;
    const std::string raw = strip_terminal(std::string_view(text).substr(start, end - start));
    start = end + 1;
    std::string line(strip_line_prefix(raw));
    const auto log_at = nccl_log_start(line);
    if (log_at != std::string::npos || is_library_version_line(line)) {
      const auto from = log_at == std::string::npos ? 0 : log_at;
      p.nccl_log += line.substr(from) + "\n";
      ++p.nccl_lines;
      line = strip_rank_tags(line.substr(0, from));
      while (!line.empty() && line.back() == ' ') line.pop_back();
      if (line.find_first_not_of(' ') != std::string::npos) p.lines.push_back({number, line, true});
      continue;
    }
    line = strip_rank_tags(line);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (line.find_first_not_of(' ') != std::string::npos) p.lines.push_back({number, line, false});
  }
  return p;
}

}  // namespace fb
