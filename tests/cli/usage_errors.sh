#!/usr/bin/env bash
# Bad input to the real binary: a one-line error and exit code 2, before any GPU work
# (so this passes on machines with and without GPUs).
set -u
bin=$1
fail=0
source "$(dirname "$0")/expect.sh"
fixtures="$(dirname "$0")/../fixtures/results"
EXPECT_SHOW=1  # the one-line errors are what this test is about
expect 2 "unknown collective 'allreduce'" run allreduce
expect 2 "unknown data type 'float128'" run all_reduce -d float128
expect 2 "unknown reduction op 'xor'" run all_reduce -o xor
expect 2 "is larger than -e/--maxbytes" run all_reduce -b 1G -e 1M
expect 2 "is not a size" run all_reduce -b lots
expect 2 "--iters must be at least 1" run all_reduce -n 0
expect 2 "collectives is required" run
expect 2 "launcher" run all_reduce --launcher pmi
# Under a launcher's variables too: an unknown name is refused, not taken for auto-detection.
RANK=0 WORLD_SIZE=1 LOCAL_RANK=0 MASTER_ADDR=127.0.0.1 MASTER_PORT=1 \
  expect_line 2 "unknown --launcher 'flux' (known: auto, processes, threads, local, torchrun, pytorchjob, mpi, slurm, indexed-job, hydra, pmix)" \
  topo --launcher flux
expect 2 "--fill: random not in {pattern,zeros}" run all_reduce --fill random
expect 2 "--fill zeros cannot be kept with -c 1" run all_reduce --fill zeros -c 1
expect 2 "the variable WORLD_SIZE is not set" run all_reduce --launcher torchrun
expect 0 "Examples" run --help
expect 0 "2  usage: the command line or an input file is wrong" --help
expect 2 "--size 5000 is not a multiple of 4 KiB" p2p --size 5000
expect 2 "--size '0' must be at least 1 byte" p2p --size 0
expect 2 "--latency-stride must be a multiple of 8" p2p --latency-stride 3
expect 2 "--size '1X' has an unknown suffix" scale all_reduce --size 1X
expect 2 "--counts entry 'x' is not a whole number" scale all_reduce --counts 2,x
expect 2 "--algos 'Ring,,Tree' has an empty entry" algos all_reduce --algos Ring,,Tree
expect 2 "--gpus names GPU 1 twice" doctor --gpus 1,1
expect 2 "--prolog and --passive exclude each other" doctor --prolog --passive
expect 2 "--fail-on: bogus not in {error,warning}" doctor --fail-on bogus
expect 2 "--host requires --prometheus" report "$fixtures/synthetic-4host.json" --host node-a
expect 2 "no host 'node-e' in the result: its hosts are node-a, node-b, node-c, node-d" report "$fixtures/synthetic-4host.json" --prometheus /dev/null --host node-e

# Every error is one line starting `fabricbench: error:`, CLI11's own parse errors included, and
# says where the options are listed.
expect_line 2 "Could not convert: --timeout = x (\`fabricbench run --help\` lists the options)" \
  run all_reduce --timeout x
expect_line 2 "-g is not a flag of \`fabricbench run\`: -g is nccl-tests' GPUs per thread" run all_reduce -g 2
expect_line 2 "The following argument was not expected: --no-such" run all_reduce --no-such
expect_line 2 "--fill: random not in {pattern,zeros}" run all_reduce --fill random
expect_line 2 "unknown collective 'allreduce'" run allreduce
expect_line 2 "The following argument was not expected: --frobnicate (\`fabricbench --help\`" --frobnicate
# An empty value is an error, never 0 or the default.
empty="an empty value; give one or leave the option out"
expect_line 2 "--stepbytes: $empty" run all_reduce -i ''
expect_line 2 "--warmup_iters: $empty" run all_reduce -w ''
expect_line 2 "--cudagraph: $empty" run all_reduce -G ''
expect_line 2 "--check: $empty" run all_reduce -c ''
expect_line 2 "--root: $empty" run broadcast -r ''
expect_line 2 "--target-ci: $empty" run all_reduce --target-ci ''
expect_line 2 "--gpus: $empty" run all_reduce --gpus ''
expect_line 2 "--counts: $empty" scale all_reduce --counts ''
expect_line 2 "--algos: $empty" algos all_reduce --algos ''
expect_line 2 "--minbytes: $empty" run all_reduce -b ''
expect_line 2 "--budget: $empty" doctor --budget ''

# compare needs no GPU: malformed and unrelated files, a regression, identical files.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "not json" > "$tmp/bad.json"
expect 2 "not a JSON document" compare "$tmp/bad.json" "$tmp/bad.json"
expect 2 "cannot read" compare "$tmp/missing.json" "$tmp/bad.json"
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
def doc(busbw, coll="all_reduce"):
    point = {"bytes": 1 << 30, "count": 1 << 28, "in_place": False, "iters_per_batch": 20, "wrong": None,
             "time_us": {"min": 1, "median": 1, "mean": 1, "p99": 1, "max": 1, "median_ci": 0.002, "n": 6},
             "algbw_gbps": busbw, "busbw_gbps": busbw}
    run = {"kind": "collective", "collective": coll, "dtype": "float", "op": "sum", "root": 0, "gpus": [0, 1],
           "launcher": "processes", "graph_launches": 0, "forced": {}, "points": [point]}
    return {"schema": "fabricbench.result/1", "tool": {"version": "0", "git": "x"}, "command": [], "started": "",
            "finished": "", "status": "complete", "failure": "", "env": {}, "gpus": [], "runs": [run], "findings": [],
            "host": {"hostname": "h", "driver": "", "runtime": "", "comm": {"name": "", "version": "", "version_code": 0, "path": ""}}}
for name, bw, coll in [("base", 330, "all_reduce"), ("slow", 290, "all_reduce"), ("other", 330, "all_gather")]:
    json.dump(doc(bw, coll), open(f"{d}/{name}.json", "w"))
PY
expect 0 "same" compare "$tmp/base.json" "$tmp/base.json"
expect 1 "REGRESSION" compare "$tmp/base.json" "$tmp/slow.json"
expect 2 "collectives: all_reduce in the base, all_gather in the new result" compare "$tmp/base.json" "$tmp/other.json"
expect 2 "share no measurement" compare "$tmp/base.json" "$tmp/other.json" --force
exit $fail
