#include "ingest/torch_bench_table.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <optional>
#include <string_view>

#include "core/parse_number.hpp"
#include "core/text.hpp"

namespace fb {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// "| a | b |" -> {"a", "b"}; empty when the line is not a table line.
std::vector<std::string> cells(std::string_view line) {
  line = trim(line);
  if (line.size() < 2 || line.front() != '|' || line.back() != '|') return {};
  std::vector<std::string> out;
  for (const auto& c : split(line.substr(1, line.size() - 2), '|')) out.emplace_back(trim(c));
  return out;
}

struct Heading {
  std::size_t payload = 0, busbw = 0, algbw = 0;
  std::size_t width = 0;
};

std::optional<Heading> heading_of(std::string_view line) {
  const auto c = cells(line);
  Heading h{0, c.size(), c.size(), c.size()};
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (c[i] == "busbw") h.busbw = i;
    if (c[i] == "algbw") h.algbw = i;
  }
  if (c.empty() || c[0] != "payload" || h.busbw == c.size() || h.algbw == c.size()) return std::nullopt;
  return h;
}

// "32KiB", "1.5MiB", "8B", the 2025 script's "32KB" (binary too) -> bytes.
std::optional<std::uint64_t> payload_bytes(std::string_view text) {
  constexpr std::array<std::pair<std::string_view, int>, 11> kUnits{{{"KiB", 10},
                                                                     {"MiB", 20},
                                                                     {"GiB", 30},
                                                                     {"TiB", 40},
                                                                     {"KB", 10},
                                                                     {"MB", 20},
                                                                     {"GB", 30},
                                                                     {"TB", 40},
                                                                     {"PiB", 50},
                                                                     {"EiB", 60},
                                                                     {"B", 0}}};
  for (const auto& [unit, shift] : kUnits) {
    if (!text.ends_with(unit)) continue;
    const auto v = try_parse_finite(text.substr(0, text.size() - unit.size()));
    if (!v || *v <= 0 || *v * std::ldexp(1.0, shift) > 1.8e19) return std::nullopt;
    return static_cast<std::uint64_t>(std::llround(*v * std::ldexp(1.0, shift)));
  }
  return std::nullopt;
}

// "355.72GBps" -> 355.72; nullopt for an empty cell (a latency-only row) or anything else.
std::optional<double> gbps(std::string_view text) {
  if (!text.ends_with("GBps")) return std::nullopt;
  const auto v = try_parse_finite(text.substr(0, text.size() - 4));
  return v && *v > 0 && *v < 1e9 ? v : std::nullopt;
}

// fabricbench's name for torch.distributed's ("all_to_all", "batch_isend_irecv": a ring of sends).
std::string collective_of(std::string_view name) {
  if (name == "all_to_all") return "alltoall";
  if (name == "batch_isend_irecv") return "sendrecv";
  return std::string(name);
}

// "The average bandwidth [and the per-call latency] of all_reduce over 32 ranks (5 warmups / 20 trials...):"
bool read_opening(std::string_view line, ToolRun& run) {
  const auto of = line.find(" of ");
  const auto over = line.find(" over ");
  if (line.find("bandwidth") == std::string_view::npos || of == std::string_view::npos ||
      over == std::string_view::npos || over < of)
    return false;
  const auto name = trim(line.substr(of + 4, over - of - 4));
  auto rest = line.substr(over + 6);
  const auto ranks = try_parse_whole(rest.substr(0, rest.find(' ')));
  if (name.find(' ') != std::string_view::npos || !ranks || *ranks < 1 || *ranks > (1 << 20) ||
      rest.find(" ranks") == std::string_view::npos)
    return false;
  run.collective = collective_of(name);
  run.collective_from = fmt::format("its \"bandwidth of {}\" line", name);
  run.ranks = static_cast<int>(*ranks);
  if (const auto slash = rest.find("/ "); slash != std::string_view::npos) {
    const auto trials = rest.substr(slash + 2);
    run.iters = static_cast<int>(try_parse_whole(trials.substr(0, trials.find(' '))).value_or(0));
  }
  if (rest.find("queued calls") != std::string_view::npos ||
      line.find("per-call latency") != std::string_view::npos)
    run.tool = "ml-engineering torch-dist-bench.py";
  return true;
}

// "- software: torch=2.7.0, cuda=12.8, nccl=(2, 26, 2)" or "nccl=2.27.7"; "- hardware: ...(name='X', ...)".
void read_environment(std::string_view line, ToolRun& run, std::string& gpu) {
  if (const auto at = line.find("nccl=");
      at != std::string_view::npos && line.find("software:") != std::string_view::npos) {
    std::string version;
    for (const char c : line.substr(at + 5)) {
      if (std::isdigit(static_cast<unsigned char>(c)) != 0)
        version += c;
      else if ((c == ',' || c == '.') && !version.empty() && version.back() != '.')
        version += '.';
      else if (c != ' ' && c != '(')
        break;
    }
    while (version.ends_with('.')) version.pop_back();
    run.library_version = version;
  }
  if (const auto at = line.find("name='"); at != std::string_view::npos) {
    const auto end = line.find('\'', at + 6);
    if (end != std::string_view::npos) gpu = std::string(line.substr(at + 6, end - at - 6));
  }
}

ToolPoint point_of(std::uint64_t bytes, double busbw, double algbw, int line) {
  ToolPoint p;
  p.bytes = bytes;
  p.count = bytes / 4;  // the scripts' tensors are float32
  p.type = "float";
  p.redop = "sum";
  p.algbw = algbw;
  p.busbw = busbw;
  p.time_us = static_cast<double>(bytes) / (algbw * 1e3);
  p.line = line;
  return p;
}

class TableReader {
 public:
  explicit TableReader(const Paste& p) : lines_(p.lines) {}

  std::vector<ToolRun> read() {
    for (const auto& l : lines_) line(l);
    finish();
    return std::move(runs_);
  }

 private:
  void line(const PasteLine& l) {
    read_environment(l.text, pending_, gpu_);
    if (ToolRun opening; read_opening(l.text, opening)) {
      finish();
      opening.library_version = pending_.library_version;
      pending_ = std::move(opening);
      return;
    }
    if (auto h = heading_of(l.text)) {
      finish();
      heading_ = h;
      run_ = std::move(pending_);
      pending_ = ToolRun{};
      run_.first_line = l.number;
      run_.first_line_text = l.text;
      return;
    }
    if (heading_) row(l);
  }

  void row(const PasteLine& l) {
    const auto c = cells(l.text);
    if (c.empty()) return finish();
    if (c.size() != heading_->width || c[0].starts_with("--") || c[0].starts_with(":-")) return;
    const auto bytes = payload_bytes(c[0]);
    const auto busbw = gbps(c[heading_->busbw]);
    const auto algbw = gbps(c[heading_->algbw]);
    if (bytes && !busbw && !algbw && c[heading_->busbw].empty()) {
      ++latency_only_;
      return;
    }
    if (!bytes || !busbw || !algbw) {
      run_.skipped.push_back(fmt::format("line {}: not a payload row of the table", l.number));
      return;
    }
    run_.points.push_back(point_of(*bytes, *busbw, *algbw, l.number));
  }

  void finish() {
    if (!heading_) return;
    if (run_.tool.empty()) run_.tool = "ml-engineering all_reduce_bench.py";
    if (run_.collective.empty()) {
      run_.collective = "all_reduce";
      run_.collective_from = "all_reduce_bench.py's table (the line naming the collective was not pasted)";
    }
    if (!gpu_.empty()) {
      run_.converted.push_back(fmt::format("every rank's GPU taken as the one the script names ({})", gpu_));
      for (int rank = 0; rank < run_.ranks; ++rank) run_.devices.push_back({rank, 0, "", rank, "", gpu_});
    }
    if (latency_only_ > 0)
      run_.skipped.push_back(fmt::format(
          "{} rows of latency only (no bandwidth below the script's --min-busbw-payload)", latency_only_));
    run_.converted.push_back(
        "payloads in binary units (1KiB = 2^10 bytes; the 2025 script's KB too), GBps in 10^9 bytes per "
        "second, the time of one operation the payload over algbw (the script prints no time)");
    run_.unknown.emplace_back("the hosts: the script does not say which ran its ranks (judged as one host)");
    if (run_.library_version.empty())
      run_.unknown.emplace_back(
          "NCCL's version: not in the paste (the script's \"Environment:\" lines say it)");
    runs_.push_back(std::move(run_));
    run_ = ToolRun{};
    heading_.reset();
    latency_only_ = 0;
  }

  const std::vector<PasteLine>& lines_;
  std::vector<ToolRun> runs_;
  ToolRun run_;
  ToolRun pending_;  // the opening and environment lines before a table
  std::optional<Heading> heading_;
  std::string gpu_;
  int latency_only_ = 0;
};

}  // namespace

bool looks_like_torch_bench_table(const Paste& paste) {
  for (const auto& l : paste.lines)
    if (heading_of(l.text)) return true;
  return false;
}

std::vector<ToolRun> read_torch_bench_table(const Paste& paste) { return TableReader(paste).read(); }

}  // namespace fb
