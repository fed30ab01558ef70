#include "engine/job/host_textfiles.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/file_io.hpp"
#include "core/json_text.hpp"

namespace fb {

std::string host_textfiles_message(const HostTextfiles& files) {
  return std::string(kJobHostTextfiles) + "\n" + nlohmann::json{{"texts", files.texts}}.dump();
}

std::optional<std::map<std::string, std::string>> host_textfiles_request(const std::string& message) {
  const std::string head = std::string(kJobHostTextfiles) + "\n";
  if (!message.starts_with(head)) return std::nullopt;
  std::string why;
  const auto j = parse_json_bounded(std::string_view(message).substr(head.size()), 4, why);
  const auto texts = j && j->is_object() ? j->find("texts") : nlohmann::json::const_iterator();
  if (!j || !j->is_object() || texts == j->end() || !texts->is_object())
    throw Error(ExitCode::run_failed,
                "rank 0's host textfiles are not a map of hosts to texts" + (why.empty() ? "" : ": " + why));
  std::map<std::string, std::string> out;
  for (const auto& [host, text] : texts->items())
    if (text.is_string()) out[host] = text.get<std::string>();
  return out;
}

std::string textfile_path(const std::string& path, const std::string& host) {
  std::string out;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path.compare(i, 2, "%h") == 0) {
      out += host;
      ++i;
    } else {
      out += path[i];
    }
  }
  return out;
}

std::string write_host_textfile(const HostTextfiles& files, const std::string& host,
                                bool first_rank_of_host) {
  const auto text = files.texts.find(host);
  if (!first_rank_of_host || text == files.texts.end()) return "";
  try {
    write_file_atomically(textfile_path(files.path, host), text->second);
  } catch (const Error& e) {
    return fmt::format("{}: {}", host, e.what());
  }
  return "";
}

std::vector<std::string> hand_out_host_textfiles(JobSession& job, const HostTextfiles& files) {
  job.bootstrap().broadcast(host_textfiles_message(files), 0);
  std::vector<std::string> failed;
  for (auto& line : job.bootstrap().allgather(write_host_textfile(files, job.host(), job.local_rank() == 0)))
    if (!line.empty()) failed.push_back(std::move(line));
  return failed;
}

void answer_host_textfiles(JobSession& job, const std::string& own_path,
                           const std::map<std::string, std::string>& texts) {
  const bool writes = job.local_rank() == 0 && texts.contains(job.host());
  const std::string why = own_path.empty() && writes
                              ? fmt::format("{}: no --prometheus on its rank's command line", job.host())
                              : write_host_textfile({own_path, texts}, job.host(), writes);
  job.bootstrap().allgather(why);
}

}  // namespace fb
