#!/usr/bin/env bash
# Behaviour unchanged: two builds of fabricbench on the same GPUs in the same call, alternated
# rounds of `run all_reduce -b 1M -e 1G` and of `doctor --quick`, each figure's median over the
# rounds of each build and their difference. With CONTROL=1 the base build runs a second time in
# every round (a copy of it, as a third side): the base-against-itself column is the noise of the
# same code in the same call, against which a difference of the new build is read. Prints the two
# tables last; exit 1 past --tolerance (on the new build's difference only).
#   [CONTROL=1] scripts/compare-builds.sh BASE_BIN NEW_BIN [ROUNDS] [TOLERANCE_PERCENT]
#     ROUNDS     default 3;  TOLERANCE_PERCENT default 1 (on figures from 16 MiB up, and the doctor's)
set -u
cd "$(dirname "$0")/.."
base=${1:?usage: scripts/compare-builds.sh BASE_BIN NEW_BIN [ROUNDS] [TOLERANCE_PERCENT]}
new=${2:?usage: scripts/compare-builds.sh BASE_BIN NEW_BIN [ROUNDS] [TOLERANCE_PERCENT]}
rounds=${3:-3}
tolerance=${4:-1}
out=${OUT:-compare-builds-out}
mkdir -p "$out"
for b in "$base" "$new"; do [[ -x $b ]] || { echo "error: no executable $b"; exit 2; }; done
sides="base new"
[[ ${CONTROL:-0} == 1 ]] && sides="base new control"
status=0
for k in $(seq 1 "$rounds"); do
  for side in $sides; do
    bin=$base
    [[ $side == new ]] && bin=$new
    echo "== round $k: $side run all_reduce -b 1M -e 1G"
    "$bin" run all_reduce -b 1M -e 1G -q --json "$out/run_${side}_$k.json" > /dev/null || status=1
    echo "== round $k: $side doctor --quick"
    "$bin" doctor --quick --out "$out/doctor_${side}_$k" > "$out/doctor_${side}_$k.txt" 2>&1 || status=1
  done
done
python3 - "$out" "$rounds" "$tolerance" "$sides" <<'PY' || status=1
import json, statistics, sys
out, rounds, tol, sides = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4].split()

def run_figures(path):  # bytes -> algbw (GB/s): on one GPU busbw is 0 by nccl-tests' formula
    doc = json.load(open(path))
    return {(r["collective"], p["bytes"]): p["algbw_gbps"] for r in doc["runs"] for p in r["points"]}

def doctor_figures(path):  # each p2p figure, and each verified collective point of the doctor
    doc = json.load(open(path))
    figs = {(m["test"], f"{m['src']}->{m['dst']}"): m["value"] for m in doc.get("p2p", [])}
    for r in doc.get("runs", []):
        for p in r["points"]:
            figs[(r["label"] or r["collective"], p["bytes"])] = p["algbw_gbps"]
    return figs

def table(title, load, pattern, gate):
    got = {s: [load(pattern.format(s=s, k=k)) for k in range(1, rounds + 1)] for s in sides}
    keys = sorted(set().union(*got["base"]), key=lambda k: (k[0], k[1] if isinstance(k[1], int) else 0, str(k[1])))
    control = "control" in got
    print(f"\n{title} (medians of {rounds} alternated rounds each)")
    print(f"{'figure':<34} {'base':>10} {'new':>10} {'diff':>8}" + (f" {'base vs itself':>15}" if control else ""))
    bad = 0
    for key in keys:
        med = {s: statistics.median(f[key] for f in got[s] if key in f) for s in got}
        pct = lambda s: (med[s] - med["base"]) / med["base"] * 100 if med["base"] else 0.0
        diff = pct("new")
        flag = "" if not gate(key) or abs(diff) <= tol else "  OVER"
        bad += flag != ""
        line = f"{str(key):<34} {med['base']:>10.2f} {med['new']:>10.2f} {diff:>+7.2f}%"
        print(line + (f" {pct('control'):>+14.2f}%" if control else "") + flag)
    return bad

bad = table("run all_reduce -b 1M -e 1G: algbw GB/s", run_figures, out + "/run_{s}_{k}.json",
            lambda key: key[1] >= 16 << 20)
bad += table("doctor --quick: GB/s (p2p latency in ns)", doctor_figures, out + "/doctor_{s}_{k}/result.json",
             lambda key: True)
print(f"\n{bad} figure(s) differ by more than {tol}%")
sys.exit(1 if bad else 0)
PY
exit $status
