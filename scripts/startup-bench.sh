#!/usr/bin/env bash
# Start-up of one 8-byte point on one GPU, as a user waits for it: the wall time of
#   BIN run all_reduce -b 8 -e 8 POINT -q --launcher L --json FILE
# where POINT is nccl-tests' point, -n 1 -w 0 (one operation per timed batch, no warm-up), with
# fabricbench's own timing of single operations for the tail off (--tail-iters 0: nccl-tests has
# none); fabricbench still times its fewest batches for a median (6).
# for each launcher L, N times in one loop (a pause after each run lets its workers finish exiting),
# each launcher's median, and the median of each start-up step the result records (the same steps
# `run -v` prints). Given nccl-tests' all_reduce_perf, the loop also times its start-up of the same
# point (`all_reduce_perf -b 8 -e 8 -n 1 -w 0 -g 1`), so that each launcher's figure is a ratio to it
# on the same machine. A benchmark, not a test: it prints what it saw so that the next regression is
# seen, and exits non-zero only when a run fails (scripts/startup_bench_report.py prints the table).
#   scripts/startup-bench.sh BIN [N]     (N default 5)
#   LAUNCHERS="processes threads" scripts/startup-bench.sh build/fabricbench 7   (default: processes;
#       LAUNCHER=threads, one launcher, as before)
#   NCCL_TESTS=nccl-tests/build/all_reduce_perf scripts/startup-bench.sh build/fabricbench 7
#   POINT="-n 1" (fabricbench's default warm-up and tail; default "-n 1 -w 0 --tail-iters 0")
#   TARGET_MS=500 (the median each launcher is held against), MAX_RATIO=0.6 (its median against
#   nccl-tests'), GAP_S=1 (pause after each run), GPU=0
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:?usage: startup-bench.sh BIN [N]}
runs=${2:-5}
read -r -a launchers <<< "${LAUNCHERS:-${LAUNCHER:-processes}}"
nccl_tests=${NCCL_TESTS:-}
read -r -a point <<< "${POINT:--n 1 -w 0 --tail-iters 0}"
[[ -x $bin ]] || { echo "error: $bin is not an executable" >&2; exit 2; }
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "error: N must be a whole number above 0, got '$runs'" >&2; exit 2; }
[[ ${#launchers[@]} -gt 0 ]] || { echo "error: LAUNCHERS names no launcher" >&2; exit 2; }
for l in "${launchers[@]}"; do
  [[ $l == processes || $l == threads ]] || { echo "error: unknown launcher '$l' (processes, threads)" >&2; exit 2; }
done
[[ -z $nccl_tests || -x $nccl_tests ]] || { echo "error: NCCL_TESTS=$nccl_tests is not an executable" >&2; exit 2; }
export CUDA_VISIBLE_DEVICES=${GPU:-${CUDA_VISIBLE_DEVICES:-0}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Runs "$@" with its output in $tmp/$name_$i.txt and appends its wall (ms) to $tmp/walls_$name.txt.
timed() {
  local name=$1 i=$2
  shift 2
  local s e
  s=$(date +%s%N)
  if ! "$@" > "$tmp/out_${name}_$i.txt" 2>&1; then
    echo "FAIL: $name run $i exited non-zero:" >&2
    tail -5 "$tmp/out_${name}_$i.txt" >&2
    exit 1
  fi
  e=$(date +%s%N)
  echo "$(((e - s) / 1000000))" >> "$tmp/walls_$name.txt"
  sleep "${GAP_S:-1}"
}

for ((i = 1; i <= runs; i++)); do
  for l in "${launchers[@]}"; do
    timed "$l" "$i" "$bin" run all_reduce -b 8 -e 8 "${point[@]}" -q --launcher "$l" --json "$tmp/run_${l}_$i.json"
  done
  [[ -z $nccl_tests ]] || timed nccl_tests "$i" "$nccl_tests" -b 8 -e 8 -n 1 -w 0 -g 1
done
echo "fabricbench: run all_reduce -b 8 -e 8 ${point[*]} -q --launcher L"
python3 "$here/startup_bench_report.py" "$tmp" --target-ms "${TARGET_MS:-500}" --max-ratio "${MAX_RATIO:-0.6}" \
  "${launchers[@]}"
