#include "ingest/nccl_tests_header.hpp"

#include <sstream>
#include <vector>

#include "core/parse_number.hpp"

namespace fb {
namespace {

std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> w;
  std::istringstream in(line);
  for (std::string s; in >> s;) w.push_back(s);
  return w;
}

std::string body_of(const std::string& line) {
  const auto at = line.find_first_not_of(' ');
  if (at == std::string::npos) return "";
  return line[at] == '#' ? line.substr(at + 1) : line.substr(at);
}

// The value after `key` ("iters:", "nGpus") among the words, not after "warmup iters:" or "agg
// iters:", or nullopt.
std::optional<std::int64_t> after(const std::vector<std::string>& w, const std::string& key) {
  for (std::size_t i = 0; i + 1 < w.size(); ++i)
    if (w[i] == key && (i == 0 || (w[i - 1] != "warmup" && w[i - 1] != "agg")))
      return try_parse_whole(w[i + 1]);
  return std::nullopt;
}

}  // namespace

// "0000:0f:00" (domain:bus:device) and "0000:0f:00.0" -> "0000:0f:00.0"; "0x0f" (the bus alone) -> "".
std::string pci_bus_id_of(const std::string& inner) {
  if (inner.size() == 10 && inner[4] == ':' && inner[7] == ':') return inner + ".0";
  if (inner.size() == 12 && inner[4] == ':' && inner[7] == ':' && inner[10] == '.') return inner;
  return "";
}

namespace {

std::string bus_id_of(const std::string& cell) { return pci_bus_id_of(cell.substr(1, cell.size() - 2)); }

bool read_device(const std::string& body, ToolRun& run) {
  const auto w = words_of(body);
  if (w.size() < 8 || w[0] != "Rank") return false;
  ToolDevice d;
  const auto rank = try_parse_whole(w[1]);
  std::size_t i = 2;
  if (w[i] == "Group") i += 2;
  if (!rank || i + 6 > w.size() || w[i] != "Pid" || w[i + 2] != "on") return false;
  d.rank = static_cast<int>(*rank);
  d.pid = static_cast<int>(try_parse_whole(w[i + 1]).value_or(0));
  d.host = w[i + 3];
  if (w[i + 4] != "device") return false;
  const auto dev = try_parse_whole(w[i + 5]);
  if (!dev) return false;
  d.device = static_cast<int>(*dev);
  const auto open = body.find('[', body.find(" device "));
  const auto close = open == std::string::npos ? open : body.find(']', open);
  if (close == std::string::npos) return false;
  d.bus_id = bus_id_of(body.substr(open, close - open + 1));
  d.name = body.substr(close + 1);
  d.name.erase(0, d.name.find_first_not_of(' '));
  run.devices.push_back(d);
  return true;
}

// "nThread 1 nGpus 8 ... warmup iters: 5 iters: 20 ..." (nccl-tests, rccl-tests since 2024) and rccl-tests'
// older "nThreads: 1 nGpus: 8 nRanks: 1 ... warmupIters: 5 iters: 20" (its nRanks: the processes).
void read_settings(std::vector<std::string> w, ToolRun& run) {
  for (auto& word : w)
    if (word.size() > 1 && word.back() == ':' && word != "iters:" && word != "graph:") word.pop_back();
  const auto value = [&w](const char* key) { return static_cast<int>(after(w, key).value_or(0)); };
  run.threads = value(w[0] == "nThreads" ? "nThreads" : "nThread");
  run.gpus_per_thread = value("nGpus");
  run.processes = value("nRanks");
  run.iters = value("iters:");
  run.graph_launches = value("graph:");
  run.warmup_iters = value("warmupIters");
  for (std::size_t i = 0; i + 2 < w.size(); ++i)
    if (w[i] == "warmup" && w[i + 1] == "iters:")
      run.warmup_iters = static_cast<int>(try_parse_whole(w[i + 2]).value_or(0));
}

}  // namespace

std::string collective_of_binary(const std::string& word) {
  auto name = word.substr(word.find_last_of('/') == std::string::npos ? 0 : word.find_last_of('/') + 1);
  const auto perf = name.find("_perf");
  if (perf == std::string::npos || perf == 0) return "";
  name = name.substr(0, perf);
  for (const char c : name)
    if (!(c == '_' || (c >= 'a' && c <= 'z'))) return "";
  return name;
}

namespace {

// The version lines and "Collective test starting".
HeaderLine read_identity(const std::vector<std::string>& w, ToolRun& run) {
  if (w.size() >= 3 && w[0] == "nccl-tests" && w[1] == "version") {
    run.tool = "nccl-tests";
    run.tool_version = w[2];
    for (const auto& word : w)
      if (word.starts_with("nccl-library="))
        run.library_code = static_cast<int>(try_parse_whole(word.substr(13)).value_or(0));
    return HeaderLine::version;
  }
  if (w.size() >= 3 && w[0] == "rccl-tests:" && w[1] == "Version") {
    run.tool = "rccl-tests";
    run.tool_version = w[2];
    return HeaderLine::version;
  }
  if (w.size() >= 4 && w[0] == "Collective" && w[1] == "test" && w[2] == "starting:") {
    run.collective = collective_of_binary(w[3]);
    run.collective_from = "its \"Collective test starting: " + w[3] + "\" line";
    return HeaderLine::starting;
  }
  return HeaderLine::none;
}

// "Out of bounds values : N OK" and "Avg bus bandwidth : X".
HeaderLine read_footer(const std::string& body, const std::vector<std::string>& w, ToolRun& run) {
  if (body.find("Out of bounds values") != std::string::npos) {
    if (w.size() >= 6) run.out_of_bounds = static_cast<int>(try_parse_whole(w[5]).value_or(0));
    return HeaderLine::out_of_bounds;
  }
  if (body.find("Avg bus bandwidth") == std::string::npos) return HeaderLine::none;
  if (const auto colon = body.find(':'); colon != std::string::npos) {
    const auto v = words_of(body.substr(colon + 1));
    if (!v.empty()) run.avg_busbw = try_parse_finite(v[0]);
  }
  return HeaderLine::average;
}

// A command line (not a '#' line) that names a test binary.
HeaderLine read_command(const std::string& line, const std::vector<std::string>& w, std::string& collective) {
  const auto at = line.find_first_not_of(' ');
  if (at == std::string::npos || line[at] == '#') return HeaderLine::none;
  for (const auto& word : w)
    if (auto c = collective_of_binary(word); !c.empty()) {
      collective = c;
      return HeaderLine::command;
    }
  return HeaderLine::none;
}

}  // namespace

HeaderLine read_header_line(const std::string& line, ToolRun& run, std::string& command_collective) {
  const std::string body = body_of(line);
  const auto w = words_of(body);
  if (w.empty()) return HeaderLine::none;
  if (const auto kind = read_identity(w, run); kind != HeaderLine::none) return kind;
  if (w[0] == "nThread" || w[0] == "nThreads:") {
    read_settings(w, run);
    return HeaderLine::settings;
  }
  if (w[0] == "Rank") return read_device(body, run) ? HeaderLine::device : HeaderLine::none;
  if (const auto kind = read_footer(body, w, run); kind != HeaderLine::none) return kind;
  return read_command(line, w, command_collective);
}

}  // namespace fb
