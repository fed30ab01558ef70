#!/usr/bin/env bash
# Start-up of one 8-byte point on one GPU, as a user waits for it: the wall time of
#   BIN run all_reduce -b 8 -e 8 -n 1 -q --json FILE
# over N runs (a pause between them lets the previous run's worker finish exiting), its median, and
# the median of each start-up step the result records (the same steps `run -v` prints). A benchmark,
# not a test: it prints what it saw so that the next regression is seen, and exits non-zero only when
# a run fails.
#   scripts/startup-bench.sh BIN [N]     (N default 5)
#   LAUNCHER=threads scripts/startup-bench.sh build/fabricbench 5     (default: processes)
#   TARGET_MS=500 (the median it is held against), GAP_S=1 (pause between runs), GPU=0
set -u
bin=${1:?usage: startup-bench.sh BIN [N]}
runs=${2:-5}
launcher=${LAUNCHER:-processes}
target=${TARGET_MS:-500}
[[ -x $bin ]] || { echo "error: $bin is not an executable" >&2; exit 2; }
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "error: N must be a whole number above 0, got '$runs'" >&2; exit 2; }
export CUDA_VISIBLE_DEVICES=${GPU:-${CUDA_VISIBLE_DEVICES:-0}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
walls=()
for ((i = 1; i <= runs; i++)); do
  s=$(date +%s%N)
  if ! "$bin" run all_reduce -b 8 -e 8 -n 1 -q --launcher "$launcher" --json "$tmp/run_$i.json" \
    > "$tmp/out_$i.txt" 2>&1; then
    echo "FAIL: run $i exited non-zero:" >&2
    tail -5 "$tmp/out_$i.txt" >&2
    exit 1
  fi
  e=$(date +%s%N)
  walls+=("$(((e - s) / 1000000))")
  sleep "${GAP_S:-1}"
done
python3 - "$target" "$launcher" "${walls[*]}" "$tmp"/run_*.json <<'PY'
import json, statistics, sys
target, launcher, walls, paths = float(sys.argv[1]), sys.argv[2], [int(w) for w in sys.argv[3].split()], sys.argv[4:]
steps = {}  # step -> the ms each run spent in it (until the next step began)
order = []
rest = []  # from the last step to the process's exit (the wall less the last stamp; the clock starts
           # at the binary's static initialisation, so this also holds the exec and library loading)
for path, wall in zip(sorted(paths, key=lambda p: int(p.rsplit("_", 1)[1].split(".")[0])), walls):
    phases = json.load(open(path)).get("startup", [])
    if phases:
        rest.append(wall - phases[-1]["at_ms"])
    for a, b in zip(phases, phases[1:] + [None]):
        name = a["phase"]
        if name.startswith("measuring, from"):
            name = "measuring"
        if name not in steps:
            steps[name] = []
            order.append(name)
        if b:
            steps[name].append(b["at_ms"] - a["at_ms"])
median = statistics.median(walls)
print(f"start-up of one 8 B all_reduce on 1 GPU, launcher {launcher}, {len(walls)} runs")
print(f"  wall ms: {', '.join(str(w) for w in walls)}")
print(f"  median {median:.0f} ms (target {target:.0f} ms: {'met' if median <= target else 'NOT met'})")
print("  steps, median ms of each (until the next step began):")
for name in (n for n in order if steps[n]):
    print(f"    {statistics.median(steps[name]):8.1f}  {name}")
if rest:
    print(f"    {statistics.median(rest):8.1f}  from '{order[-1]}' to the process's exit (and its exec before main)")
PY
