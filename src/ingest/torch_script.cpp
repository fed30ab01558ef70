#include "ingest/torch_script.hpp"

#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <sstream>

#include "core/error.hpp"
#include "core/parse_number.hpp"
#include "core/text.hpp"

namespace fb {
namespace {

struct Block {
  std::optional<int> world;
  std::optional<double> size_value;
  std::string size_unit;  // "gb", "mb", "kb", "gib", "bytes", "elements", ...
  std::string size_text;  // as printed: "1.00 GB"
  std::optional<int> iters;
  std::optional<double> seconds;
  std::optional<double> bandwidth;
  std::string bandwidth_text;
  std::string dtype;
  int line = 0;
};

// "Key: value unit" -> key lower case, value and unit words.
bool key_value(const std::string& text, std::string& key, std::string& value, std::string& unit) {
  const auto colon = text.find(':');
  if (colon == std::string::npos) return false;
  key = lower(text.substr(0, colon));
  key.erase(0, key.find_first_not_of(" #"));
  std::istringstream rest(text.substr(colon + 1));
  rest >> value >> unit;
  return !value.empty();
}

double seconds_of(double v, const std::string& unit) {
  const auto u = lower(unit);
  return u == "ms" ? v / 1e3 : u == "us" ? v / 1e6 : v;
}

void read_line(const PasteLine& l, Block& b) {
  std::string key, value, unit;
  if (!key_value(l.text, key, value, unit)) return;
  if (key == "world size") b.world = static_cast<int>(try_parse_whole(value).value_or(0));
  if (key == "tensor size" || key == "message size") {
    b.size_value = try_parse_finite(value);
    b.size_unit = lower(unit);
    b.size_text = value + " " + unit;
  }
  if (key == "iterations") b.iters = static_cast<int>(try_parse_whole(value).value_or(0));
  if (key == "total time") {
    if (const auto v = try_parse_finite(value)) b.seconds = seconds_of(*v, unit);
  }
  if (key == "data type" || key == "dtype") b.dtype = value;
  if (key == "estimated bandwidth") {
    b.bandwidth = try_parse_finite(value);
    b.bandwidth_text = value + " " + unit;
    b.line = l.number;
  }
}

int element_bytes(const std::string& dtype) {
  const auto d = lower(dtype);
  if (d.find("float32") != std::string::npos || d == "float" || d.find("fp32") != std::string::npos) return 4;
  if (d.find("16") != std::string::npos) return 2;
  if (d.find("float64") != std::string::npos || d == "double") return 8;
  return 0;
}

// The byte counts the printed size may stand for, binary first (tensors are sized in powers of 2).
std::vector<std::pair<double, std::string>> byte_readings(const Block& b) {
  const double v = *b.size_value;
  const auto& u = b.size_unit;
  if (u == "bytes" || u == "b") return {{v, "in bytes"}};
  if (u == "elements") {
    const int e = element_bytes(b.dtype);
    if (e > 0) return {{v * e, fmt::format("of {}-byte elements", e)}};
    return {};
  }
  const int power = u.starts_with('k') ? 1 : u.starts_with('m') ? 2 : u.starts_with('g') ? 3 : 0;
  if (power == 0) return {};
  const double bin = std::pow(1024.0, power), dec = std::pow(1000.0, power);
  if (u.find('i') != std::string::npos) return {{v * bin, fmt::format("2^{} bytes each", 10 * power)}};
  return {{v * bin, fmt::format("read as 2^{} bytes each", 10 * power)},
          {v * dec, fmt::format("read as 10^{} bytes each", 3 * power)}};
}

void convert(const Block& b, ToolRun& run, const std::string& file) {
  if (!b.world || !b.size_value || !b.iters || !b.seconds || !b.bandwidth || *b.world < 1 || *b.iters < 1 ||
      *b.seconds <= 0)
    FB_USAGE_ERROR(
        fmt::format("{}:{}: the block before \"Estimated Bandwidth\" lacks a readable World Size, Tensor "
                    "Size, Iterations or Total Time line",
                    file, b.line));
  const int n = *b.world;
  const double factor = 2.0 * (n - 1) / n;
  const double reported = *b.bandwidth;
  for (const auto& [bytes, size_words] : byte_readings(b))
    for (const auto& [per_gb, unit_words] :
         {std::pair{1e9, "GB/s (10^9 B/s)"}, std::pair{std::pow(2.0, 30), "GiB/s (2^30 B/s)"}})
      for (const auto& [f, kind] : {std::pair{1.0, "algbw"}, std::pair{factor, "busbw"}}) {
        const double predicted = bytes * *b.iters / *b.seconds / per_gb * f;
        if (std::abs(predicted - reported) > 0.01 * reported + 0.006) continue;
        ToolPoint p;
        p.bytes = static_cast<std::uint64_t>(std::llround(bytes));
        const int e = element_bytes(b.dtype);
        p.count = e > 0 ? p.bytes / static_cast<std::uint64_t>(e) : 0;
        p.type = b.dtype;
        p.redop = "sum";
        p.time_us = *b.seconds / *b.iters * 1e6;
        p.algbw = bytes / (p.time_us * 1e3);
        p.busbw = p.algbw * factor;
        p.line = b.line;
        run.points.push_back(p);
        run.converted.push_back(fmt::format(
            "line {}: \"Estimated Bandwidth: {}\" is the {} in {} of a tensor of {} ({}): written as algbw "
            "{:.2f} GB/s (10^9 B/s) and busbw {:.2f} GB/s (x 2(n-1)/n, n = {})",
            b.line, b.bandwidth_text, kind, unit_words, b.size_text, size_words, p.algbw, p.busbw, n));
        run.ranks = n;
        return;
      }
  FB_USAGE_ERROR(
      fmt::format("{}:{}: \"Estimated Bandwidth: {}\" is not its tensor size x iterations / total time "
                  "in any unit (GB or GiB, algbw or busbw): what it measured cannot be told",
                  file, b.line, b.bandwidth_text));
}

}  // namespace

bool looks_like_torch_script(const Paste& paste) {
  bool bandwidth = false, world = false;
  for (const auto& l : paste.lines) {
    const auto t = lower(l.text);
    bandwidth |= t.find("estimated bandwidth:") != std::string::npos;
    world |= t.find("world size:") != std::string::npos;
  }
  return bandwidth && world;
}

ToolRun read_torch_script(const Paste& paste, const std::string& file) {
  ToolRun run;
  run.tool = "PyTorch all_reduce script";
  run.collective = "all_reduce";
  run.collective_from = "the script's all_reduce";
  Block b;
  for (const auto& l : paste.lines) {
    read_line(l, b);
    if (!b.bandwidth) continue;
    convert(b, run, file);
    run.iters = *b.iters;
    Block next;
    next.world = b.world;  // a later block may print only what changed
    next.dtype = b.dtype;
    b = next;
  }
  if (run.points.empty()) FB_USAGE_ERROR(fmt::format("{}: no readable \"Estimated Bandwidth\" line", file));
  run.unknown.emplace_back("the hosts: the script does not say which ran its ranks (judged as one host)");
  run.unknown.emplace_back("NCCL's version: the script does not print it (pass --nccl-log FILE)");
  return run;
}

}  // namespace fb
