// fabricbench: measures what a multi-GPU machine's interconnect really delivers.
// main() is the only place that turns errors into exit codes and messages.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/algos_command.hpp"
#include "app/compare_command.hpp"
#include "app/mpi_main.hpp"
#include "app/p2p_command.hpp"
#include "app/report_command.hpp"
#include "app/run_command.hpp"
#include "app/topo_command.hpp"
#include "app/version.hpp"
#include "app/worker.hpp"
#include "cli/algos_cli.hpp"
#include "cli/compare_cli.hpp"
#include "cli/p2p_cli.hpp"
#include "cli/report_cli.hpp"
#include "cli/run_cli.hpp"
#include "cli/topo_cli.hpp"
#include "comm/mpi_session.hpp"
#include "core/error.hpp"
#include "launch/protocol.hpp"
#include "launch/supervisor.hpp"

namespace {

void on_interrupt(int /*signal*/) { fb::Supervisor::request_stop(); }

int main_with_errors(int argc, char** argv) {
  CLI::App app{"fabricbench: measure what the GPU interconnect really delivers (NCCL/RCCL)"};
  app.set_version_flag("--version", fmt::format("fabricbench {} ({})\n", fb::kToolVersion, fb::kToolGit));
  app.require_subcommand(0, 1);
  fb::RunOptions run_options;
  auto* run = fb::add_run_subcommand(app, run_options);
  fb::TopoOptions topo_options;
  auto* topo = fb::add_topo_subcommand(app, topo_options);
  fb::P2pOptions p2p_options;
  auto* p2p = fb::add_p2p_subcommand(app, p2p_options);
  fb::AlgosOptions algos_options;
  auto* algos = fb::add_algos_subcommand(app, algos_options);
  fb::ScaleOptions scale_options;
  auto* scale = fb::add_scale_subcommand(app, scale_options);
  fb::CompareOptions compare_options;
  auto* compare = fb::add_compare_subcommand(app, compare_options);
  fb::ReportOptions report_options;
  auto* report = fb::add_report_subcommand(app, report_options);
  fb::DoctorOptions doctor_options;
  fb::add_doctor_subcommand(app, doctor_options);  // also what a bare `fabricbench` runs
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : static_cast<int>(fb::ExitCode::usage);
  }
  const std::vector<std::string> command_line(argv, argv + argc);
  if (fb::MpiSession::current() != nullptr) {
    const auto parsed = app.get_subcommands();
    const std::string name = parsed.empty() ? "doctor" : parsed.front()->get_name();
    if (!fb::runs_under_mpi(name))
      throw fb::Error(
          fb::ExitCode::usage,
          fmt::format("`fabricbench {}` does not run under mpirun (run, topo, report and compare do); "
                      "start it without mpirun, it launches its own workers",
                      name));
  }
  if (run->parsed()) return fb::run_command(run_options, command_line);
  if (topo->parsed()) return fb::topo_command(topo_options, command_line);
  if (p2p->parsed()) return fb::p2p_command(p2p_options, command_line);
  if (algos->parsed()) return fb::algos_command(algos_options, command_line);
  if (scale->parsed()) return fb::scale_command(scale_options, command_line);
  if (compare->parsed()) return fb::compare_command(compare_options);
  if (report->parsed()) return fb::report_command(report_options);
  // `fabricbench` alone is `fabricbench doctor`.
  return fb::doctor_command(doctor_options, command_line);
}

// Runs the command line; the only place that turns errors into messages and exit codes.
int front_end(int argc, char** argv) {
  try {
    return main_with_errors(argc, argv);
  } catch (const fb::Error& e) {
    fmt::print(stderr, "fabricbench: error: {}\n", e.what());
    if (!e.where().empty() && std::getenv("FABRICBENCH_DEBUG"))
      fmt::print(stderr, "fabricbench:   at {}\n", e.where());
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {
    fmt::print(stderr, "fabricbench: internal error: {}\n", e.what());
    return static_cast<int>(fb::ExitCode::run_failed);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (const char* fd = std::getenv(fb::msg::worker_fd_env)) {
    const int worker_fd = std::atoi(fd);
    ::unsetenv(fb::msg::worker_fd_env);
    return fb::worker_main(worker_fd);
  }
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  if (fb::launched_by_mpi()) return fb::mpi_main([&] { return front_end(argc, argv); });
  return front_end(argc, argv);
}
