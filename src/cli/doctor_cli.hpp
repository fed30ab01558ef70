#pragma once
#include <CLI/CLI.hpp>
#include <string>

#include "model/fail_on.hpp"
#include "request/command_requests.hpp"

namespace fb {

struct DoctorOptions {
  DoctorRequest request;  // the flags bind here; --gpus is parsed into it by doctor_request
  std::string gpus;
  std::string out_dir = "fabricbench-doctor";
  bool out_given = false;    // --out was given: a doctor that fails before its first stage still fills it
  std::string expectations;  // --expectations FILE (app/ reads it before any GPU is touched)
  std::string prometheus;    // --prometheus FILE: the verdict as a node-exporter textfile; "" = none
  std::string exclude_file;  // --exclude-file FILE: the hosts the nodes stage named slow (across hosts)
  FailOn fail_on = FailOn::error;  // --fail-on: the findings that make the doctor exit 1
};

CLI::App* add_doctor_subcommand(CLI::App& app, DoctorOptions& opts);

DoctorRequest doctor_request(const DoctorOptions& opts);

}  // namespace fb
