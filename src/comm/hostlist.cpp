#include "comm/hostlist.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "core/error.hpp"

namespace fb {
namespace {

// Splits at commas and white space outside brackets (Slurm takes either between items).
std::vector<std::string> top_level_items(const std::string& list) {
  std::vector<std::string> items;
  std::string cur;
  int depth = 0;
  for (const char c : list) {
    if (c == '[') ++depth;
    if (c == ']' && --depth < 0) FB_USAGE_ERROR(fmt::format("hostlist '{}': ']' without '['", list));
    if ((c == ',' || std::isspace(static_cast<unsigned char>(c)) != 0) && depth == 0) {
      if (!cur.empty()) items.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (depth != 0) FB_USAGE_ERROR(fmt::format("hostlist '{}': '[' without ']'", list));
  if (!cur.empty()) items.push_back(cur);
  return items;
}

std::uint64_t range_number(const std::string& text, const std::string& item) {
  if (text.empty() ||
      !std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); }) ||
      text.size() > 18)
    FB_USAGE_ERROR(fmt::format("hostlist item '{}': '{}' is not a number", item, text));
  return std::stoull(text);
}

// "01-03,07" -> {"01","02","03","07"}; the width of each range's first number is kept.
std::vector<std::string> expand_ranges(const std::string& body, const std::string& item) {
  constexpr std::uint64_t kMaxHosts = 1U << 20U;
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= body.size()) {
    const auto comma = std::min(body.find(',', start), body.size());
    const std::string part = body.substr(start, comma - start);
    const auto dash = part.find('-');
    const std::string lo_text = part.substr(0, dash);
    const auto lo = range_number(lo_text, item);
    const auto hi = dash == std::string::npos ? lo : range_number(part.substr(dash + 1), item);
    if (hi < lo || hi - lo >= kMaxHosts)
      FB_USAGE_ERROR(fmt::format("hostlist item '{}': range '{}' runs backwards or is too long", item, part));
    for (auto v = lo; v <= hi; ++v) out.push_back(fmt::format("{:0{}}", v, lo_text.size()));
    start = comma + 1;
  }
  return out;
}

void expand_item(const std::string& prefix, const std::string& rest, std::vector<std::string>& out) {
  const auto open = rest.find('[');
  if (open == std::string::npos) {
    out.push_back(prefix + rest);
    return;
  }
  const auto close = rest.find(']', open);
  const std::string head = prefix + rest.substr(0, open);
  for (const auto& v : expand_ranges(rest.substr(open + 1, close - open - 1), prefix + rest))
    expand_item(head + v, rest.substr(close + 1), out);
}

// "gpu07" -> {"gpu", "07"}; {name, ""} when it does not end in a digit.
std::pair<std::string, std::string> split_number(const std::string& host) {
  auto i = host.size();
  while (i > 0 && std::isdigit(static_cast<unsigned char>(host[i - 1]))) --i;
  return {host.substr(0, i), host.substr(i)};
}

bool padded(const std::string& number) { return number.size() > 1 && number[0] == '0'; }

// Slurm joins 9 and 10 (neither padded) and 09 and 10 (same width), not 009 and 10: a range keeps
// the width of its first number, so either way it expands back to the same names.
bool continues(const std::string& prev, const std::string& next) {
  return std::stoull(next) == std::stoull(prev) + 1 &&
         (next.size() == prev.size() || (!padded(prev) && !padded(next)));
}

std::string fold_numbers(std::vector<std::string> numbers) {
  std::sort(numbers.begin(), numbers.end(), [](const std::string& a, const std::string& b) {
    return std::pair(std::stoull(a), a) < std::pair(std::stoull(b), b);
  });
  std::string out;
  std::size_t i = 0;
  while (i < numbers.size()) {
    std::size_t j = i;
    while (j + 1 < numbers.size() && continues(numbers[j], numbers[j + 1])) ++j;
    if (!out.empty()) out += ',';
    out += numbers[i];
    if (i != j) out += '-' + numbers[j];
    i = j + 1;
  }
  return out;
}

}  // namespace

std::vector<std::string> expand_hostlist(const std::string& list) {
  std::vector<std::string> out;
  for (const auto& item : top_level_items(list)) expand_item("", item, out);
  return out;
}

std::string compress_hostlist(const std::vector<std::string>& hosts) {
  // One item per prefix (in order of first appearance), its numbers folded into ranges.
  std::vector<std::pair<std::string, bool>> order;  // prefix, or a name without a number
  std::map<std::string, std::set<std::string>> groups;
  std::set<std::string> plain;
  for (const auto& h : hosts) {
    const auto [prefix, number] = split_number(h);
    if (number.empty() || number.size() > 18) {
      if (plain.insert(h).second) order.emplace_back(h, false);
      continue;
    }
    auto& group = groups[prefix];
    if (group.empty()) order.emplace_back(prefix, true);
    group.insert(number);
  }
  std::string out;
  for (const auto& [name, numbered] : order) {
    std::string item = name;
    if (numbered) {
      const auto& numbers = groups.at(name);
      if (numbers.size() == 1) {
        item += *numbers.begin();
      } else {
        item += '[';
        item += fold_numbers(std::vector<std::string>(numbers.begin(), numbers.end()));
        item += ']';
      }
    }
    if (!out.empty()) out += ',';
    out += item;
  }
  return out;
}

}  // namespace fb
