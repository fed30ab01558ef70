#pragma once
// What the doctor leaves behind for a scheduler, whatever the outcome (docs/cli.md, "The gate"): the
// results folder (result.json, report.html, summary.md) and, with --prometheus FILE, the metrics
// textfile, replaced whole on every write. Before the first stage the textfile says the doctor has
// not finished (CRITICAL, action drain), so a crash or a kill leaves a failing verdict; at the end it
// holds the verdict; a doctor that fails (no GPU, no driver, no NCCL, a failed stage) writes a failed
// document to both. Under a job each host writes its own textfile (engine/host_textfiles) and rank
// 0 the cluster's into the folder (cluster.prom).
#include <optional>
#include <string>
#include <vector>

#include "cli/doctor_cli.hpp"
#include "core/events.hpp"
#include "report/doctor_output.hpp"

namespace fb {

class DoctorVerdictFiles {
 public:
  DoctorVerdictFiles(const DoctorOptions& o, std::vector<std::string> command_line);
  // The doctor's first document: the folder is created, the textfiles say "not finished".
  void begun(const Result& first);
  // The document after a stage.
  void updated(const Result& r);
  // The judged document at the end: every textfile with its verdict. Throws Error(run_failed) naming
  // the hosts whose file could not be written.
  void ended(const Result& judged);
  // The doctor failed with `failure`: the last document (or what can be read without a GPU) as a failed
  // run in the folder (where the doctor began it, or --out was given) and this host's textfile; returns
  // it. Never throws: the failure is what counts.
  Result failed(const std::string& failure, EventSink& events);

 private:
  void write_textfiles(const Result& r, bool every_host);
  std::string out_dir_;
  bool out_given_;
  std::string prometheus_;
  std::vector<std::string> command_line_;
  DoctorFolderReporter folder_;
  std::optional<Result> last_;
};

// A host's textfile from a document: its own series where the document holds the host; else (a job's
// first document, which holds rank 0's GPUs only) the document's verdict under that host's name.
std::string textfile_for_host(const Result& r, const std::string& host);

}  // namespace fb
