#!/usr/bin/env bash
# Issue 30 on the project's own fixtures, through the real binary (no GPU needed): report judges what
# it shows and says by which rules; one expected figure in every format; flags that fit the field;
# a compare that checks what it compares; offline analysis that knows it is offline.
set -u
bin=$1
fixtures=$2
results=$fixtures/results
fail=0
source "$(dirname "$0")/expect.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Judged by default, and by whom: the synthetic MI300X result (curves at 11-15% of AMD's figure)
# is far below its expectation whatever the file's single saved info says, in every format: below
# 60% of it BUSBW_BELOW_EXPECTED is an error (issues 44, 45), so exit 1 and the verdict's action drain;
# figures this low only staging through host memory explains (SIGNATURE_HOST_STAGED, issue 49); the
# figure furthest below its reference has no row (MI300X sendrecv): said against the bound its xGMI gives
# (issues 43, 49), never as expected.
expect 1 "Errors (SIGNATURE_HOST_STAGED, BUSBW_BELOW_EXPECTED): not fit for use as measured; sendrecv busbw at 16 MiB: 12.8 GB/s, 7% of the bound 179.9 GB/s" \
  report "$results/synthetic-mi300x8.json" --format md
expect 1 "Judged by fabricbench.rules/" report "$results/synthetic-mi300x8.json" --format md
expect 1 "**Verdict: CRITICAL (action: drain)**" report "$results/synthetic-mi300x8.json" --format md
expect 1 "[error] BUSBW_BELOW_EXPECTED" report "$results/synthetic-mi300x8.json" --analyse
expect 1 "" report "$results/synthetic-mi300x8.json" -o "$tmp/mi300x8.html"
grep -q 'data-outcome="errors"' "$tmp/mi300x8.html" || { echo "FAIL: mi300x8 page not under an errors banner"; fail=1; }
grep -q 'data-status="CRITICAL" data-action="drain"' "$tmp/mi300x8.html" || { echo "FAIL: mi300x8 verdict block"; fail=1; }
# Saved findings of other rules are shown as such (the doctor's file predates rules_version).
expect 0 "Findings saved in the file, by rules of a build that did not record their version" \
  report "$results/h200x2-doctor-quick.json" --format md
# A plain run result gets judged too: its page says by which rules.
expect 0 "" report "$results/h200x2-run-6coll-1M-4G-procs.json" -o "$tmp/run.html"
grep -q 'data-rules="fabricbench.rules/' "$tmp/run.html" || { echo "FAIL: no rules version on the page"; fail=1; }

# One expected figure with its source in the Markdown; sizes as a person reads them.
expect 1 "| all_reduce busbw at 4 GiB | 45.7 GB/s | 314.7 GB/s | 15% of expected | AMD ROCm blog" \
  report "$results/synthetic-mi300x8.json" --format md
expect 0 "a healthy ring reaches 89% of its SM ceiling at 1 GiB on 2 GPUs" report "$results/synthetic-nvswitch8.json" --format md
run report "$results/h200x2-combined.json" --format md
[[ "$out" != *"4294967296"* && "$out" != *"·   ·"* ]] || { echo "FAIL: bytes or an empty field in the Markdown: ${out:0:300}"; fail=1; }
# CSV keeps bytes.
expect 0 "4294967296" report "$results/h200x2-combined.json" --format csv

# Flags that fit the field: nccl-tests' flags fabricbench lacks say what to use instead.
expect_line 2 "-g is nccl-tests' GPUs per thread; fabricbench drives the GPUs you select: --gpus N" run all_reduce -g 8
expect_line 2 "-t is nccl-tests' threads per process" run all_reduce -t 2
expect_line 2 "--json FILE" run all_reduce -J out.json
expect_line 2 "slowest rank's time" run all_reduce -a 1
expect_line 2 "-N is nccl-tests' repeated cycles" algos all_reduce -N 3
expect_line 2 "-z is nccl-tests' blocking collectives" scale all_reduce -z 1
expect_line 2 "-n N (operations per timed batch) or -G N" run all_reduce -m 4
expect_line 2 "-o is the reduction op in \`run\`, as in nccl-tests" run all_reduce -o out.html
expect_line 2 "--sizes LIST" run all_reduce --size 1G
expect_line 2 "--size SIZE" p2p --sizes 1G
expect_line 2 "--out DIR" doctor -o results
expect_line 2 "--format md" report "$results/h200x2-combined.json" --markdown
expect_line 2 "unknown reduction op 'xor'" run all_reduce -o xor  # -o keeps nccl-tests' meaning
expect_line 2 "-o is not a flag of \`fabricbench topo\`: -o is report's and compare's output file" topo --no-runtime -o t.json
expect 0 "-T,--timeout" run --help

# A compare that checks what it compares.
expect_line 2 "(GPU model: NVIDIA H100 80GB HBM3 in the base, AMD Instinct MI300X in the new result); --force" \
  compare "$results/synthetic-nvswitch8.json" "$results/synthetic-mi300x8.json"
expect 2 "GPU count: 2 in the base, 8 in the new result" \
  compare "$results/h200x2-combined.json" "$results/synthetic-nvswitch8.json"
expect 1 "measurements compared: " compare "$results/synthetic-nvswitch8.json" "$results/synthetic-mi300x8.json" --force
# Rows in numeric size order: 1 MiB before 16 MiB before 1 GiB.
run compare "$results/h200x2-run-6coll-1M-4G-procs.json" "$results/h200x2-run-6coll-1M-4G-procs.json"
order=$(printf '%s\n' "$out" | grep "collective all_reduce" | awk '{print $5 $6}' | tr '\n' ' ')
[[ "$order" == "1MiB 16MiB 64MiB 256MiB 1GiB 4GiB "* ]] || { echo "FAIL: compare rows out of size order: $order"; fail=1; }
[[ "$out" == "# 36 measurements compared: 0 REGRESSIONS, 0 worse, 0 better, 36 the same"* ]] ||
  { echo "FAIL: no headline count: ${out:0:200}"; fail=1; }
expect 0 "**36 measurements compared" compare "$results/h200x2-run-6coll-1M-4G-procs.json" \
  "$results/h200x2-run-6coll-1M-4G-procs.json" --format md

# Offline analysis that knows it is offline.
expect_line 2 "--sysfs-root $tmp/none: no GPU under" topo --sysfs-root "$tmp/none" --no-runtime
run topo --sysfs-root "$fixtures/topo/h200x2" --no-runtime
matches 0 "NVLink state not read (no NVML): the GPU fabric is unknown; PCIe path PHB" topo h200x2 || true
[[ "$out" != *"no GPU fabric"* && "$out" != *"run as root"* && "$out" != *"ACS control 0000"* ]] ||
  { echo "FAIL: the capture judged as this machine, or a fabric called PCIe: ${out:0:400}"; fail=1; }
expect 0 "not in the captured tree (not judged)" topo --sysfs-root "$fixtures/topo/h200x2" --no-runtime
expect 0 "NV18" topo --sysfs-root "$fixtures/topo/h200x2" --nvml-file "$fixtures/topo/h200x2/nvml.json" --no-runtime
run topo --sysfs-root "$fixtures/topo/mi300x8" --rocm-smi-file "$fixtures/topo/mi300x8/rocm-smi-showtopo.txt" --no-runtime
matches 0 "xGMI links up/total" topo mi300x8 || true
matches 0 "AMD Instinct MI300X" topo mi300x8 || true
[[ "$out" != *"NVLinks up/total"* ]] || { echo "FAIL: an NVLink column for AMD GPUs"; fail=1; }
expect 3 "--gemm-tflops T --hbm-gbps B" project "$results/h200x2-run-6coll-1M-4G-procs.json" --model llama-3-70b \
  --batch 64 --tp 1,2
exit $fail
