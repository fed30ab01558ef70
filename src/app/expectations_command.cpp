#include "app/expectations_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>
#include <set>

#include "analyse/expect/expectations.hpp"
#include "analyse/expect/expectations_file.hpp"
#include "analyse/judge.hpp"
#include "core/error.hpp"
#include "core/file_io.hpp"
#include "ingest/import_file.hpp"
#include "model/result_json.hpp"
#include "report/expectations_table.hpp"
#include "report/import_source.hpp"

namespace fb {

namespace {

// A finding about the network the run crossed: NCCL over TCP sockets or without GPUDirect RDMA, a
// port down or slow, hosts whose NICs or NET plugin differ. A baseline from such a run holds every
// other node to that network's figures.
bool network_finding(const Finding& f) {
  return f.code.starts_with("NET_") || f.code.starts_with("NIC_") || f.code == "HOST_MISMATCH_NICS" ||
         f.code == "HOST_MISMATCH_NET_PLUGIN";
}

// A baseline judges every other node by itself: refused from a run that failed, whose figures the
// current rules find short (a bandwidth, data or failure finding of warning or worse) or whose network
// they find wanting (a network finding of warning or worse).
void require_healthy(Result r, const std::string& file) {
  if (r.status != RunStatus::complete)
    FB_USAGE_ERROR(fmt::format(
        "{}: the run did not complete (status {}): not a baseline; --force takes it anyway", file, r.status));
  judge(r);
  std::set<std::string> short_of;
  std::set<std::string> network;
  for (const auto& f : r.findings) {
    if (f.severity == Severity::info) continue;
    if (network_finding(f)) network.insert(f.code);
    if (f.severity == Severity::error || f.code.starts_with("BUSBW_") || f.code.starts_with("DATA_"))
      short_of.insert(f.code);
  }
  if (!network.empty())
    FB_USAGE_ERROR(
        fmt::format("{}: its network findings ({}) say the run did not cross the network a healthy "
                    "node would: not a baseline; `fabricbench report {}` says why; --force takes it "
                    "anyway",
                    file, fmt::join(network, ", "), file));
  if (!short_of.empty())
    FB_USAGE_ERROR(
        fmt::format("{}: its findings say the figures fall short ({}): not a baseline; "
                    "`fabricbench report {}` says why; --force takes it anyway",
                    file, fmt::join(short_of, ", "), file));
}

// The baseline's document, or another tool's output read into one as `report` reads it; what was
// converted said on stderr (stdout may be the site file).
Result load_baseline(const ExpectationsOptions& o) {
  const ImportOptions import{o.import.nccl_log, o.import.topo, o.import.gpu, o.import.collective, o.force};
  Result r = load_input(o.from, import);
  std::cerr << import_source_markdown(r);
  return r;
}

}  // namespace

int expectations_command(const ExpectationsOptions& o) {
  const ImportOptions import{o.import.nccl_log, o.import.topo, o.import.gpu, o.import.collective};
  if (o.from.empty() && import.any())
    FB_USAGE_ERROR("--nccl-log, --topo, --gpu and --collective describe the output given with --from");
  if (!o.output.empty()) check_output_is_not_an_input(o.output, {o.from, o.import.nccl_log, o.import.topo});
  std::string text;
  if (!o.from.empty()) {
    const Result r = load_baseline(o);
    if (!o.force) require_healthy(r, o.from);
    text = expectations_document(baseline_rows(r, o.from));
  } else {
    Result r;
    if (!o.expectations.empty()) r.expectations = load_expectations_file(o.expectations);
    text = expectations_markdown(expectation_rows(r));
  }
  if (o.output.empty()) {
    std::cout << text;
    flush_stdout();
  } else {
    write_file_atomically(o.output, text);
  }
  return 0;
}

}  // namespace fb
