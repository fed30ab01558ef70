#include "cli/nodes_cli.hpp"

#include <fmt/format.h>

#include "cli/measure_options.hpp"
#include "cli/run_request.hpp"
#include "core/error.hpp"
#include "core/units.hpp"

namespace fb {
namespace {

// A pair's point needs less than run's: its figure is compared with other pairs at 20% apart, and
// every round waits for its slowest pair.
constexpr double kPairMaxTimeS = 0.5;

void add_ranking_options(CLI::App* nodes, NodesOptions& o) {
  const char* grp = "Ranking";
  auto& r = o.request;
  nodes
      ->add_option("--reference", r.reference_gbps,
                   "Busbw in GB/s a healthy pair reaches (default: the median of the pairs, or the fastest "
                   "of fewer than 10)")
      ->check(CLI::Range(1e-3, 1e6).description("GB/s in [0.001, 1000000]"))
      ->group(grp);
  nodes
      ->add_option(
          "--slow-share", r.slow_share,
          "A pair is slow below this share of the reference (default: 5% below it, or 4 of the healthy "
          "pairs' spreads where they spread wider); a host named by its pairs' ranks has its median below it")
      ->check(CLI::Range(0.05, 1.0))
      ->group(grp);
  nodes
      ->add_option("--exclude-file", o.exclude_file,
                   "Write the named hosts here as one Slurm hostlist line (sbatch --exclude=$(cat FILE))")
      ->group(grp);
}

void add_mode_options(CLI::App* nodes, NodesOptions& o) {
  const char* grp = "Pairs";
  auto& s = o.request.sampling;
  nodes
      ->add_option(
          "--mode", o.mode,
          "auto (the full round robin while it fits 5 minutes, else sampling: a first pass, then the "
          "suspects re-paired with hosts known good) | round-robin | sampling")
      ->check(CLI::IsMember({"auto", "round-robin", "sampling"}))
      ->group(grp);
  nodes->add_option("--peers", s.peers, "Sampling: peers per host per pass (default 2)")
      ->check(CLI::Range(1, 64))
      ->group(grp);
  nodes->add_option("--passes", s.passes, "Sampling: passes, each over a fresh shuffle (default 3)")
      ->check(CLI::Range(1, 64))
      ->group(grp);
  nodes
      ->add_option("--retest-peers", s.retest_peers,
                   "Sampling: hosts known good each suspect is re-paired with (default 4)")
      ->check(CLI::Range(1, 64))
      ->group(grp);
  nodes->add_option("--seed", s.seed, "Sampling: the shuffle's seed (default 1)")->group(grp);
}

}  // namespace

CLI::App* add_nodes_subcommand(CLI::App& app, NodesOptions& o) {
  auto* nodes = app.add_subcommand(
      "nodes", "Pairs of hosts measured, the slow host named (under mpirun, torchrun or srun)");
  nodes->footer(
      R"(Start it with one rank per GPU on every host. Hosts are measured in pairs (a collective over
both hosts' GPUs), in rounds that keep every host busy; each pair is held against the reference
(the median of the pairs, the fastest of fewer than 10, or --reference) less the larger of 5% and
4 of the healthy pairs' spreads, and the hosts most of whose pairs are slow while their peers' are
not, slow beside two partners that are otherwise healthy, or whose pairs rank below their peers'
beyond a 10^-6 chance with their median more than 5% (or --slow-share) below, are named (NODE_SLOW),
with their pair figures. Under 10 pairs the round robin runs twice (each pair at its better figure);
past it, every host meets 6 random peers. Either way each suspect is then re-paired with hosts found
good, and cleared where those re-pairs all ran faster than the reference.
The time for this job and for 16, 128 and 1024 hosts is said before and after. Bandwidths in
GB/s = 1e9 bytes/s. Every pair of a round starts measuring at the same time and measures for
all of --max-time (default here 0.5 s; no tail), so that the round's pairs share one window.
Exit 1 when a host is named. docs/nodes.md has the method.

Examples:
  torchrun --nnodes 4 --nproc-per-node 8 ... fabricbench nodes --exclude-file bad-nodes.txt
  srun -N 16 --ntasks-per-node 8 fabricbench nodes --json nodes.json
  mpirun -np 32 --map-by ppr:8:node fabricbench nodes all_reduce --size 256M)");
  o.measure.collectives = {"all_reduce"};
  o.measure.request.settings.sampling.max_time_s = kPairMaxTimeS;
  o.measure.request.settings.sampling.tail_iters = 0;
  o.measure.request.settings.sampling.full_window = true;
  o.measure.request.settings.sampling.max_batches = 100000;
  nodes->add_option("collective", o.measure.collectives, "The collective each pair runs (default all_reduce)")
      ->expected(0, 1);
  nodes->add_option("--size", o.size, "Message size in bytes; K/M/G are powers of 2 (default 64M = 64 MiB)");
  add_mode_options(nodes, o);
  add_ranking_options(nodes, o);
  add_data_options(nodes, o.measure, /*verification=*/false);
  add_timing_options(nodes, o.measure);
  add_launch_options(nodes, o.measure, /*launcher=*/false);
  nodes->get_option("--gpus")->group("");
  nodes->add_option("--json", o.measure.json_path, "Write the result document here");
  return nodes;
}

NodesRequest nodes_request(const NodesOptions& o) {
  RunOptions m = o.measure;
  refuse_run_only_flags(m, "nodes");
  if (!m.gpus.empty())
    FB_USAGE_ERROR("nodes measures every rank's GPU: start one rank per GPU instead of --gpus");
  parse_size(o.size, "--size");
  m.sizes = {o.size};
  NodesRequest r = o.request;
  r.measure = run_request(m);
  if (r.measure.collectives.size() != 1) FB_USAGE_ERROR("nodes takes one collective");
  r.mode = o.mode == "round-robin" ? NodesModeChoice::round_robin
           : o.mode == "sampling"  ? NodesModeChoice::sampling
                                   : NodesModeChoice::automatic;
  return r;
}

}  // namespace fb
