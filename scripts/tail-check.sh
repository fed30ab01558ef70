#!/usr/bin/env bash
# The tail (single operations) against nccl-tests -I on the same GPU in one call: alternated rounds of
# nccl-tests' all_reduce_perf -I 1 (its 200 timed operations, an event between each) and fabricbench
# run all_reduce (by default and with --tail-iters 200), at 1 MiB and 1 GiB; then fabricbench under a
# noisy neighbour (a second job on the same GPU) to show that RESULT_TAIL sees it.
# Prints the table of medians and each tool's range over the rounds (its run-to-run noise) last.
#   scripts/tail-check.sh FABRICBENCH NCCLTESTS_BUILD [ROUNDS]
#     NCCLTESTS_BUILD: a build folder of nccl-tests (github.com/NVIDIA/nccl-tests, built from its public
#     source in a git-ignored folder), holding all_reduce_perf
set -u
cd "$(dirname "$0")/.."
bin=${1:?usage: scripts/tail-check.sh FABRICBENCH NCCLTESTS_BUILD [ROUNDS]}
nt=${2:?usage: scripts/tail-check.sh FABRICBENCH NCCLTESTS_BUILD [ROUNDS]}/all_reduce_perf
rounds=${3:-5}
out=${OUT:-tail-check-out}
mkdir -p "$out"
[[ -x $bin ]] || { echo "error: no executable $bin"; exit 2; }
[[ -x $nt ]] || { echo "error: no executable $nt"; exit 2; }
export CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-0}
status=0
for k in $(seq 1 "$rounds"); do
  for size in 1M 1G; do
    "$nt" -b "$size" -e "$size" -g 1 -c 0 -w 20 -n 200 -I 1 -J "$out/nt_${size}_$k.json" \
      > "$out/nt_${size}_$k.txt" 2>&1 || { echo "nccl-tests $size failed"; status=1; }
  done
  "$bin" run all_reduce --sizes 1M,1G -q --json "$out/fb_default_$k.json" > /dev/null || status=1
  "$bin" run all_reduce --sizes 1M,1G --tail-iters 200 -q --json "$out/fb_200_$k.json" > /dev/null || status=1
done
# A noisy neighbour: another job on the same GPU (its own 1 GiB all_reduce, for up to 50 s), which
# the GPU time-slices with the measured one.
"$bin" run all_reduce --sizes 1G -n 1000 --target-ci 0 --batches 100 --max-time 60 -q > /dev/null 2>&1 &
neighbour=$!
sleep 2
"$bin" run all_reduce --sizes 1M,1G -q --json "$out/fb_neighbour.json" > "$out/fb_neighbour.txt" 2>&1
kill "$neighbour" 2> /dev/null
wait "$neighbour" 2> /dev/null
"$bin" report --analyse "$out/fb_neighbour.json" --format md -o "$out/fb_neighbour.md" > /dev/null 2>&1
python3 - "$out" "$rounds" <<'PY' || status=1
import glob, json, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
SIZES = {"1M": 1 << 20, "1G": 1 << 30}

def nccl_tests(path):  # the per-iteration object of the out-of-place row, wherever -J put it
    found = []
    def walk(v):
        if isinstance(v, dict):
            if isinstance(v.get("out_of_place_per_iter"), dict): found.append(v["out_of_place_per_iter"])
            for x in v.values(): walk(x)
        elif isinstance(v, list):
            for x in v: walk(x)
    walk(json.load(open(path)))
    if not found: raise SystemExit(f"{path}: no out_of_place_per_iter")
    it = found[0]
    return {"p50": it["p50_us"], "p99": it["p99_us"], "max": it["max_us"], "n": len(it["times_us"])}

def fabricbench(path, size):
    for run in json.load(open(path))["runs"]:
        for p in run["points"]:
            if p["bytes"] == SIZES[size] and p.get("iterations"):
                it = p["iterations"]
                return {"p50": it["p50_us"], "p99": it["p99_us"], "max": it["max_us"], "n": it["n"],
                        "median": p["time_us"]["median"]}
    raise SystemExit(f"{path}: no iterations at {size}")

print(f"\nsingle operations, all_reduce float, 1 GPU: medians over {rounds} alternated rounds [min-max over rounds]")
print(f"{'size':<5} {'tool':<26} {'n':>4} {'p50 us':>22} {'p99 us':>22} {'max us':>22}")
def cell(vals):
    return f"{statistics.median(vals):8.1f} [{min(vals):.1f}-{max(vals):.1f}]"
for size in SIZES:
    rows = {"nccl-tests -I 1 -n 200": [nccl_tests(f"{out}/nt_{size}_{k}.json") for k in range(1, rounds + 1)],
            "fabricbench (default)": [fabricbench(f"{out}/fb_default_{k}.json", size) for k in range(1, rounds + 1)],
            "fabricbench --tail-iters 200": [fabricbench(f"{out}/fb_200_{k}.json", size) for k in range(1, rounds + 1)]}
    for tool, figs in rows.items():
        print(f"{size:<5} {tool:<26} {figs[0]['n']:>4} {cell([f['p50'] for f in figs]):>22} "
              f"{cell([f['p99'] for f in figs]):>22} {cell([f['max'] for f in figs]):>22}")
print("\nwith a noisy neighbour (another job's all_reduce on the same GPU):")
for size in SIZES:
    f = fabricbench(f"{out}/fb_neighbour.json", size)
    print(f"{size:<5} fabricbench: median {f['median']:.1f} us, single operations p50 {f['p50']:.1f} p99 {f['p99']:.1f} "
          f"max {f['max']:.1f} us ({f['n']})")
tail = [line for line in open(f"{out}/fb_neighbour.md") if "RESULT_TAIL" in line]
print("RESULT_TAIL:", tail[0].strip() if tail else "not raised")
PY
exit $status
