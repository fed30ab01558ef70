#include "engine/plans/nccl_probe.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>

#include "bench/nccl_setup.hpp"
#include "core/error.hpp"
#include "core/file_io.hpp"
#include "core/interrupt.hpp"
#include "core/safe_paths.hpp"

namespace fb {
namespace {

namespace fs = std::filesystem;

NcclLogSummary read_logs(const fs::path& dir) {
  NcclLogSummary all;
  for (const auto& entry : fs::directory_iterator(dir)) {
    merge_nccl_logs(all, parse_nccl_log(read_file(entry.path().string())));
  }
  return all;
}

}  // namespace

Plan nccl_probe_plan(const Plan& plan, const std::string& log_dir) {
  Plan probe = plan;
  probe.settings.sampling = {1, 0, 0, 1, 1, 0, 1.0};
  probe.settings.sampling.tail_iters = 0;  // one operation is the point: no tail after it
  probe.settings.nccl_env.insert_or_assign("NCCL_DEBUG", "INFO");
  probe.settings.nccl_env.insert_or_assign("NCCL_DEBUG_SUBSYS", "INIT,TUNING");
  probe.settings.nccl_env.insert_or_assign("NCCL_DEBUG_FILE",
                                           (fs::path(log_dir) / "nccl.%h.%p.log").string());
  return probe;
}

NcclLogSummary probe_nccl_choices(const Plan& plan, const std::string& keep_logs, bool quiet,
                                  EventSink& events, std::vector<Point>* points, WorkerStart start) {
  // NCCL's logs go where no other user can predict, plant or read them (a private mkdtemp folder),
  // or to --keep-logs, opened as an output folder (core/safe_paths).
  const fs::path logs =
      keep_logs.empty() ? fs::path(make_private_temp_folder("fabricbench-nccl")) : fs::path(keep_logs);
  if (!keep_logs.empty()) open_output_folder(keep_logs);
  if (!quiet) events.emit(make_event(EventKind::stage, "reading NCCL's own choices from its log"));
  const Plan probe = nccl_probe_plan(plan, logs.string());
  const auto probed = run_plan(
      probe,
      [&](int, const Point& p) {
        if (points != nullptr) points->push_back(p);
      },
      events, start);
  end_job_if_failed(probe, probed, events);
  auto log = read_logs(logs);
  if (keep_logs.empty()) fs::remove_all(logs);
  if (const auto gaps = nccl_log_gaps(log); !quiet && !gaps.empty())
    events.emit(make_event(EventKind::note, gaps));
  if (!probed.supervisor.ok && !interrupt_requested())
    throw Error(probed.supervisor.code, "NCCL's logged run failed: " + probed.failure);
  return log;
}

}  // namespace fb
