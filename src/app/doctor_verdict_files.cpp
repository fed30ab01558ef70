#include "app/doctor_verdict_files.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "comm/job_session.hpp"
#include "core/error.hpp"
#include "core/file_io.hpp"
#include "engine/doctor/doctor_failure.hpp"
#include "engine/job/host_textfiles.hpp"
#include "report/prometheus_textfile.hpp"

namespace fb {

std::string textfile_for_host(const Result& r, const std::string& host) {
  const auto hosts = textfile_hosts(r);
  if (std::find(hosts.begin(), hosts.end(), host) != hosts.end()) return host_prometheus_textfile(r, host);
  Result named = r;
  named.host.hostname = host;
  named.gpus.clear();  // none of its GPUs is in the document yet
  named.hosts.clear();
  return prometheus_textfile(named);
}

DoctorVerdictFiles::DoctorVerdictFiles(const DoctorOptions& o, std::vector<std::string> command_line)
    : out_dir_(o.out_dir),
      out_given_(o.out_given),
      prometheus_(o.prometheus),
      command_line_(std::move(command_line)),
      folder_(o.out_dir) {}

void DoctorVerdictFiles::begun(const Result& first) {
  last_ = first;
  folder_.begin(first);
  write_textfiles(unfinished_doctor_result(first), true);
}

void DoctorVerdictFiles::updated(const Result& r) {
  last_ = r;
  folder_.update(r);
}

void DoctorVerdictFiles::ended(const Result& judged) {
  last_ = judged;
  write_textfiles(judged, true);
}

void DoctorVerdictFiles::write_textfiles(const Result& r, bool every_host) {
  if (prometheus_.empty()) return;
  const JobSession* job = JobSession::current();
  if (job == nullptr) {
    write_file_atomically(textfile_path(prometheus_, r.host.hostname), prometheus_textfile(r));
    return;
  }
  HostTextfiles files{prometheus_, {}};
  for (const auto& h : std::set<std::string>(job->hosts().begin(), job->hosts().end()))
    files.texts[h] = textfile_for_host(r, h);
  // The cluster's, every host's series, beside result.json: only rank 0 writes it.
  if (std::filesystem::is_directory(out_dir_)) folder_.write("cluster.prom", prometheus_textfile(r));
  if (!every_host) {  // a failed job: its other ranks may be gone, so only this host writes
    if (auto why = write_host_textfile(files, job->host(), true); !why.empty())
      throw Error(ExitCode::run_failed, why);
    return;
  }
  const auto failed = hand_out_host_textfiles(*JobSession::current(), files);
  if (!failed.empty())
    throw Error(ExitCode::run_failed, fmt::format("--prometheus not written on {} host(s): {}", failed.size(),
                                                  fmt::join(failed, "; ")));
}

Result DoctorVerdictFiles::failed(const std::string& failure, EventSink& events) {
  Result doc = failed_doctor_result(last_ ? *last_ : doctor_failure_header(command_line_), failure);
  const auto said = [&](const char* what, const std::exception& e) {
    events.emit(
        make_event(EventKind::error, fmt::format("the failed doctor's {} not written: {}", what, e.what())));
  };
  try {
    if (last_ || out_given_)
      folder_.update(doc);  // a bare `fabricbench` without a GPU leaves no folder behind
  } catch (const std::exception& e) {
    said("results folder", e);
  }
  try {
    // A job its preflight refused has every rank alive and waiting: each host writes its own (the
    // configuration's verdict, not the "not finished" one); after another failure only this host can.
    write_textfiles(doc, doc.status == RunStatus::refused);
  } catch (const std::exception& e) {
    said("--prometheus file", e);
  }
  return doc;
}

}  // namespace fb
