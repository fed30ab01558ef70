#pragma once
// The result document: plain data shared by every command (docs/result-schema.md).
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/nccl_nic.hpp"
#include "core/stats.hpp"
#include "model/expectation_rows.hpp"
#include "model/host_facts.hpp"
#include "model/nodes_info.hpp"
#include "model/p2p_tests.hpp"
#include "model/projection.hpp"
#include "model/result_enums.hpp"
#include "model/result_version.hpp"
#include "model/topology.hpp"
#include "model/verdict.hpp"

namespace fb {

struct ToolInfo {
  std::string version;
  std::string git;
};

struct CommLibrary {
  std::string name;     // "NCCL" or "RCCL"
  std::string version;  // "2.28.3"
  int version_code = 0;
  std::string path;  // the file actually loaded
};

struct GpuInfo {
  int index = 0;  // runtime device ordinal
  int rank = 0;   // rank it ran as
  std::string name;
  std::string pci_bus_id;
  std::uint64_t memory_bytes = 0;
  int compute_capability = 0;  // major*10 + minor
  std::string host;
};

struct HostInfo {
  std::string hostname;
  std::string driver;   // driver API version, "13.0"
  std::string runtime;  // runtime API version
  CommLibrary comm;
  std::optional<HostFacts> config;  // host configuration as read (topo, doctor); null when not read
};

// How a point was sampled (bench/sampler.hpp); absent in documents written before it was kept.
struct PointSampling {
  int warmup_ops = 0;  // untimed operations before the first batch
  double warmup_ms = 0;
  double target_ci = 0;  // the interval asked for (0: a fixed number of batches)
  bool ci_met = false;   // time_us.median_ci reached target_ci (never claimed otherwise)
  std::string stop;      // "target" | "budget" | "max_batches" | "count"
  // Per-operation time of the first and the last timed batch: a first batch slower than the
  // last says the warm-up was too short.
  double first_batch_us = 0;
  double last_batch_us = 0;
};

// Single operations' times at a point (the tail), each the max over ranks, microseconds: `n`
// operations timed one by one with an event between consecutive ones (source "events", the
// method of nccl-tests -I), or batches of one operation each (source "batches": at sizes where a
// timed batch is one operation, its batches are the single operations). p50 is sorted[n/2] and
// p99 the nearest rank (ceil(0.99 n)), as nccl-tests reports them; with fewer than 100 samples p99
// may equal max.
struct IterationTimes {
  std::string source;
  int n = 0;
  double p50_us = 0;
  double p99_us = 0;
  double max_us = 0;
  std::vector<double> samples_us;  // in the order taken
};

struct Point {
  std::uint64_t bytes = 0;  // nccl-tests' size: the larger of the send and receive buffers
  std::uint64_t count = 0;  // NCCL's count argument (elements per rank/peer), nccl-tests' count column
  bool in_place = false;
  TimeStats time_us;  // per operation, max over ranks, one sample per batch
  double algbw_gbps = 0;
  double busbw_gbps = 0;
  std::int64_t wrong = -1;  // wrong elements over all ranks; -1 when not checked
  int iters_per_batch = 0;
  std::optional<PointSampling> sampling;
  std::optional<IterationTimes> iterations;  // absent: not measured (-G, --tail-iters 0, older documents)
  // NCCL's own choice at this size, from its log (algos); empty when not read.
  std::string nccl_algo;
  std::string nccl_proto;
  int nccl_channels = 0;  // 0: not in NCCL's log (before 2.24 it logs no channel count)
};

struct Run {
  RunKind kind = RunKind::collective;
  std::string label;  // scale: the placement ("best", "worst")
  std::string collective;
  std::string dtype;
  std::string op;  // empty for collectives that do not reduce
  int root = 0;
  std::vector<int> gpus;
  std::string launcher;
  int graph_launches = 0;  // 0: plain launches; N: CUDA graph launched N times per batch
  std::string alloc;       // the buffers' allocator ("nccl", "runtime"); "" before it was recorded
  std::string fill;        // "zeros" (--fill zeros); "": the default pattern
  std::map<std::string, std::string> forced;  // NCCL_ALGO / NCCL_PROTO when set
  std::string failure;                        // why this run could not complete (algos, scale)
  // NCCL's set-up as its log reported it (algos, the doctor): peer transports, channel counts,
  // NVLS and the NICs it found. Empty or nullopt: not in NCCL's log (or no log was read).
  std::vector<std::string> nccl_transports;
  std::optional<int> nccl_coll_channels;
  std::optional<int> nccl_p2p_channels;
  std::optional<int> nccl_nvls_channels;
  std::optional<bool> nccl_nvls_available;        // NVLS multicast support, as NCCL found it
  std::optional<std::vector<NcclNic>> nccl_nics;  // NET/IB and NET/Socket devices NCCL listed
  std::string nccl_network;                       // the network NCCL chose ("IB", "Socket", "IBext_v8")
  std::vector<Point> points;
};

// One p2p figure: a copy's bandwidth or a latency, between two GPUs or a GPU and the host.
struct P2pMeasurement {
  P2pTest test = P2pTest::ce_read;
  int src = -1;  // GPU index; -1: host
  int dst = -1;
  P2pUnit unit = P2pUnit::gbps;  // the test's unit (kP2pTests)
  double value = 0;              // median over samples (bidirectional: both directions summed)
  double min = 0;
  double max = 0;
  int samples = 0;
  std::uint64_t bytes = 0;  // per copy
  std::int64_t wrong = -1;  // mismatched 32-bit words after the copies; -1: not verified
  double wire_gbps = 0;     // the path's theoretical peak (bidirectional: both directions)
  double ceiling_gbps = 0;  // what this kind of traffic reaches on that wire (0: unknown)
  std::string note;         // e.g. "staged through host memory: no peer access"
};

struct Finding {
  std::string code;
  Severity severity = Severity::info;
  std::string evidence;
  std::string expected;
  std::string hint;
  // The host of a job it is about (1.5); "": the run, or the whole job. "= {}" lets the rules' aggregate
  // initialisations leave it out without GCC's -Wmissing-field-initializers.
  std::string host = {};  // NOLINT(readability-redundant-member-init)
};

// A start-up step: when it began, in ms since the launching process started (it lasts until
// the next one begins).
struct StartupPhase {
  std::string phase;
  double at_ms = 0;
};

// Something the doctor left out to stay inside its time budget, and why.
struct DoctorCut {
  std::string stage;  // "algorithms"
  std::string what;   // "1 GiB points"
  std::string why;    // "estimated 48 s at 2.9 GB/s busbw; 20 s of the 45 s budget left"
};

// How long a doctor stage took, beside what was estimated before it began.
struct DoctorStageTime {
  std::string stage;       // "algorithms"
  double estimate_s = -1;  // from the speed measured so far; -1: none (the stage's fixed guess was shown)
  double took_s = 0;
};

// The doctor's own bookkeeping (absent for the other commands).
struct DoctorInfo {
  double budget_s = 0;  // --budget
  std::vector<DoctorCut> cuts;
  std::vector<DoctorStageTime> stages;  // in the order run; absent from documents before it was kept
};

// One host of a job that spans hosts (the doctor and `nodes` under mpirun, torchrun or srun): what
// that host said about itself, and its own judgement. The document's `hosts` (1.3); empty when
// everything ran on one host, whose facts are the document's `host` and `topology`.
struct HostSection {
  std::string name;                        // the host's name as the job knows it (the hostname of its ranks)
  std::vector<int> ranks;                  // the job's ranks on this host
  HostInfo host;                           // its versions, NCCL library and configuration (network included)
  std::map<std::string, std::string> env;  // its NCCL_* environment
  std::vector<GpuInfo> gpus;               // its GPUs (index = the device ordinal on that host)
  std::optional<Topology> topology;        // its topology, where it was read
  std::string net_plugin;                  // the NCCL NET plugin library found there; "" none
  std::vector<std::string> command;        // 1.6: its first rank's own arguments (argv less the binary)
  std::vector<Finding> findings;           // what was found on this host alone
  std::optional<Verdict> verdict;          // its verdict (the doctor), with its action
};

// Where a document read from another tool's output came from (`report`/`compare` of an nccl-tests,
// rccl-tests or PyTorch script output): the tool, its version, the file, what was converted to
// fabricbench's units and formulas, the lines left out and what the output could not tell.
struct ImportSource {
  std::string
      tool;  // "nccl-tests", "rccl-tests", "nccl-tests JSON", "rccl-tests CSV", "PyTorch all_reduce script"
  std::string version;  // the tool's own version ("2.19.6"); "" when the output does not say
  std::string file;
  std::vector<std::string> converted;  // each conversion, in words ("GiB/s -> GB/s (1e9 B/s)")
  std::vector<std::string> skipped;    // "line 12: ..." each line left out, with why
  std::vector<std::string> unknown;    // what the output does not tell, with the flag that would
  // 1.6: where the document's `env` was read in the output, one entry each ("line 1: NCCL_P2P_DISABLE=1 on
  // the command line", "NCCL's log: NCCL_ALGO set by environment to Ring"). Empty: the run's environment
  // was not in the output, so `env` is unknown, not empty. A setting made where the paste does not show
  // it (an export before the pasted lines) stays unknown even where this is not empty.
  std::vector<std::string> env_sources;
};

struct Result {
  std::string schema = kResultSchema;
  ToolInfo tool;
  std::vector<std::string> command;
  std::string started;   // ISO 8601, UTC
  std::string finished;  // empty while the run is in progress
  RunStatus status = RunStatus::running;
  std::string failure;  // why the run ended early
  HostInfo host;
  std::map<std::string, std::string> env;
  std::vector<GpuInfo> gpus;
  std::optional<Topology> topology;
  std::vector<Run> runs;
  std::vector<P2pMeasurement> p2p;
  std::vector<Finding> findings;
  // The verdict rules' version that wrote `findings` (analyse/judge.hpp, kRulesVersion); empty in
  // documents written before 1.2.
  std::string rules_version;
  std::vector<StartupPhase> startup;  // run: where the time before the first point went
  std::optional<DoctorInfo> doctor;
  std::optional<Projection> projection;  // project: the tensor-parallel projection
  // A site's baseline the document was judged against (`--expectations FILE`); absent: built-in rows.
  std::optional<ExpectationSet> expectations;
  std::optional<Verdict> verdict;      // the checks' statuses, where the document was judged
  std::vector<HostSection> hosts;      // a job across hosts: one section per host (1.3)
  std::optional<NodesInfo> nodes;      // `nodes`: the pairs of hosts measured (1.3)
  std::optional<ImportSource> source;  // read from another tool's output (1.4); absent otherwise
};

// Whether any finding is an error (the commands then exit 1).
inline bool has_error_finding(const std::vector<Finding>& findings) {
  return std::any_of(findings.begin(), findings.end(),
                     [](const Finding& f) { return f.severity == Severity::error; });
}

}  // namespace fb
