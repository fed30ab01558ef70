#include "engine/job/host_textfiles.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/file_io.hpp"

namespace fb {

std::string host_textfiles_message(const HostTextfiles& files) {
  return std::string(kJobHostTextfiles) + "\n" +
         nlohmann::json{{"path", files.path}, {"texts", files.texts}}.dump();
}

std::optional<HostTextfiles> host_textfiles_request(const std::string& message) {
  const std::string head = std::string(kJobHostTextfiles) + "\n";
  if (!message.starts_with(head)) return std::nullopt;
  const auto j = nlohmann::json::parse(message.substr(head.size()));
  return HostTextfiles{j.at("path").get<std::string>(),
                       j.at("texts").get<std::map<std::string, std::string>>()};
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

void answer_host_textfiles(JobSession& job, const HostTextfiles& files) {
  job.bootstrap().allgather(write_host_textfile(files, job.host(), job.local_rank() == 0));
}

}  // namespace fb
