// fabricbench: measures what a multi-GPU machine's interconnect really delivers.
// main() is the only place that turns errors into exit codes and messages.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/algos_command.hpp"
#include "app/compare_command.hpp"
#include "app/doctor_command.hpp"
#include "app/expectations_command.hpp"
#include "app/job_flags.hpp"
#include "app/nodes_command.hpp"
#include "app/p2p_command.hpp"
#include "app/progress_output.hpp"
#include "app/project_command.hpp"
#include "app/report_command.hpp"
#include "app/run_command.hpp"
#include "app/scale_command.hpp"
#include "app/topo_command.hpp"
#include "cli/algos_cli.hpp"
#include "cli/compare_cli.hpp"
#include "cli/doctor_cli.hpp"
#include "cli/empty_values.hpp"
#include "cli/expectations_cli.hpp"
#include "cli/foreign_flags.hpp"
#include "cli/nodes_cli.hpp"
#include "cli/p2p_cli.hpp"
#include "cli/project_cli.hpp"
#include "cli/report_cli.hpp"
#include "cli/run_cli.hpp"
#include "cli/scale_cli.hpp"
#include "cli/topo_cli.hpp"
#include "comm/job_session.hpp"
#include "comm/launch_env.hpp"
#include "core/error.hpp"
#include "core/file_io.hpp"
#include "core/interrupt.hpp"
#include "core/text.hpp"
#include "core/version.hpp"
#include "engine/job/job_main.hpp"
#include "engine/plans/worker.hpp"
#include "launch/node_ranks.hpp"
#include "launch/protocol.hpp"

namespace {

// One subcommand: its parsed options (owned here) and what runs it.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

// Registers a subcommand whose options `add` declares and `run` consumes.
template <typename Options, typename Run>
Command command(CLI::App& app, CLI::App* (*add)(CLI::App&, Options&), Run run) {
  auto options = std::make_shared<Options>();
  return {add(app, *options), [options, run] { return run(*options); }};
}

// "fabricbench run": the command whose options were being read when parsing failed.
std::string help_command(CLI::App& app) {
  std::string command = "fabricbench";
  for (const CLI::App* sub = &app; !sub->get_subcommands().empty();) {
    sub = sub->get_subcommands().front();
    command += " " + sub->get_name();
  }
  return command;
}

int main_with_errors(int argc, char** argv, fb::EventSink& events) {
  CLI::App app{"fabricbench: measure what the GPU interconnect really delivers (NCCL/RCCL)"};
  app.set_version_flag("--version", fmt::format("fabricbench {} ({})\n", fb::kToolVersion, fb::kToolGit));
  app.require_subcommand(0, 1);
  fb::add_progress_flag(app);  // also before the command: a bare `fabricbench` runs doctor
  app.footer(R"(Without a command: doctor. `fabricbench COMMAND --help` for each one.

Exit codes (every command; docs/cli.md has each case):
  0  done and healthy
  1  done, and the results say something is wrong (an error-level finding, wrong data, a REGRESSION)
  2  usage: the command line or an input file is wrong
  3  environment: no usable GPU or driver, no NCCL/RCCL, not enough free memory
  4  the run failed: a worker crashed or timed out, NCCL/CUDA reported an error, Ctrl-C while
     measuring (what was measured is kept), an output that cannot be written
  130, 143  ended at once by SIGINT/SIGTERM outside a measurement (topo, report, compare,
     start-up, a second Ctrl-C): nothing more written)");
  const std::vector<std::string> line(argv, argv + argc);
  // The last one, doctor, is also what a bare `fabricbench` runs.
  const std::vector<Command> commands{
      command(app, fb::add_run_subcommand, [&](const auto& o) { return fb::run_command(o, line, events); }),
      command(app, fb::add_topo_subcommand, [&](const auto& o) { return fb::topo_command(o, line); }),
      command(app, fb::add_p2p_subcommand, [&](const auto& o) { return fb::p2p_command(o, line, events); }),
      command(app, fb::add_algos_subcommand,
              [&](const auto& o) { return fb::algos_command(o, line, events); }),
      command(app, fb::add_scale_subcommand,
              [&](const auto& o) { return fb::scale_command(o, line, events); }),
      command(app, fb::add_nodes_subcommand,
              [&](const auto& o) { return fb::nodes_command(o, line, events); }),
      command(app, fb::add_compare_subcommand, [](const auto& o) { return fb::compare_command(o); }),
      command(app, fb::add_report_subcommand, [](const auto& o) { return fb::report_command(o); }),
      command(app, fb::add_project_subcommand, [&](const auto& o) { return fb::project_command(o, line); }),
      command(app, fb::add_expectations_subcommand,
              [](const auto& o) { return fb::expectations_command(o); }),
      command(app, fb::add_doctor_subcommand,
              [&](const auto& o) { return fb::doctor_command(o, line, events); }),
  };
  for (const auto& c : commands) {
    fb::add_progress_flag(*c.app);
    if (fb::runs_in_job(c.app->get_name())) fb::add_job_flags(*c.app);
  }
  fb::refuse_empty_values(app);
  fb::refuse_foreign_flags(line);  // nccl-tests' flags and other commands' spellings: what to use instead
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    throw fb::Error(fb::ExitCode::usage,
                    fmt::format("{} (`{} --help` lists the options)", e.what(), help_command(app)));
  }
  const auto chosen =
      std::find_if(commands.begin(), commands.end(), [](const Command& c) { return c.app->parsed(); });
  const Command& cmd = chosen == commands.end() ? commands.back() : *chosen;
  if (const auto* job = fb::JobSession::current(); job != nullptr && !fb::runs_in_job(cmd.app->get_name()))
    throw fb::Error(fb::ExitCode::usage, fmt::format("`fabricbench {0}` does not run under {1} (run, algos, "
                                                     "nodes, doctor, topo, report and compare do); "
                                                     "start it without {1}, it launches its own workers",
                                                     cmd.app->get_name(), job->launcher_command()));
  const int code = cmd.run();
  fb::flush_stdout();  // output lost to a full disk or closed pipe is a failure (4), for every command
  return code;
}

// Runs the command line; the only place that turns errors into messages (said to `events`, one
// line each whatever a value echoed from a file holds) and exit codes.
int front_end(int argc, char** argv, fb::EventSink& events) {
  try {
    return main_with_errors(argc, argv, events);
  } catch (const fb::Error& e) {
    events.emit(fb::make_event(fb::EventKind::error, e.what()));
    if (!e.where().empty() && std::getenv("FABRICBENCH_DEBUG"))
      events.emit(fb::make_event(fb::EventKind::detail, fmt::format("fabricbench:   at {}", e.where())));
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {
    events.emit(fb::make_event(fb::EventKind::internal_error, e.what()));
    return static_cast<int>(fb::ExitCode::run_failed);
  }
}

}  // namespace

int main(int argc, char** argv) {  // NOLINT(bugprone-exception-escape): only if printing the error fails
  try {
    if (const char* fd = std::getenv(fb::msg::worker_fd_env)) {
      const int worker_fd = std::atoi(fd);
      ::unsetenv(fb::msg::worker_fd_env);
      const int rc = fb::worker_main(worker_fd);
      // A worker process has said "done" and destroyed its communicators as worker_main returned;
      // it ends without freeing its buffers and CUDA context one by one: the driver reclaims them
      // when the process is gone, and nobody waits for that (launch/exiting_workers).
      std::fflush(nullptr);
      std::_Exit(rc);
    }
    fb::install_interrupt_handlers();  // Ctrl-C: core/interrupt.hpp says what it does
    const std::vector<std::string> args(argv, argv + argc);
    const auto events = fb::make_event_renderer(fb::progress_format_from_args(args), stderr);
    fb::apply_job_flags(args);  // --rendezvous, --nnodes, --nproc-per-node: for every rank it starts too
    if (const auto job = fb::choose_job_launcher(args, fb::process_env); job != fb::JobLauncher::none) {
      if (const int ranks = fb::node_ranks_to_start(job, fb::process_env); ranks > 0)
        return fb::start_node_ranks(job, ranks, args);  // one process per pod: this node's ranks
      return fb::job_main(job, fb::timeout_from_args(args, 120), fb::rank_own_flags(args), *events,
                          [&] { return front_end(argc, argv, *events); });
    }
    return front_end(argc, argv, *events);
  } catch (const fb::Error& e) {  // an unknown --launcher or --progress, before the command line is parsed
    fb::print_error(e.what());
    return static_cast<int>(e.code());
  } catch (const std::exception& e) {  // the worker's or the job's set-up, before their own handlers
    fb::print_error(e.what(), true);
    return static_cast<int>(fb::ExitCode::run_failed);
  }
}
