#include "app/nodes_command.hpp"

#include <iostream>

#include "app/reporter_progress.hpp"
#include "engine/commands/nodes_measurement.hpp"
#include "report/json_reporter.hpp"
#include "report/node_exclude.hpp"
#include "report/nodes_console.hpp"

namespace fb {
namespace {

// The pairs, the named hosts and the exclude file, once the document is final.
class NodesOutput final : public Reporter {
 public:
  explicit NodesOutput(std::string exclude_file) : exclude_file_(std::move(exclude_file)) {}
  void end(const Result& result) override {
    print_nodes(std::cout, result);
    if (!exclude_file_.empty() && result.nodes) write_exclude_file(exclude_file_, *result.nodes);
  }

 private:
  std::string exclude_file_;
};

}  // namespace

int nodes_command(const NodesOptions& o, const std::vector<std::string>& command_line, EventSink& events) {
  const NodesRequest request = nodes_request(o);  // usage errors first, before touching GPU or NCCL
  ReporterSet reporters;
  reporters.add(std::make_unique<NodesOutput>(o.exclude_file));
  if (!o.measure.json_path.empty()) reporters.add(std::make_unique<JsonReporter>(o.measure.json_path));
  const CommandOutcome outcome = measure_nodes(request, command_line, reporter_progress(reporters), events);
  return static_cast<int>(outcome.code);
}

}  // namespace fb
