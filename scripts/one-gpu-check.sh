#!/usr/bin/env bash
# On a machine with one GPU (GPU 0 of any machine): fabricbench's figures of a GPU on its own
# against nvbandwidth's in the same call (alternated rounds), every copy verified; the up-front
# estimate of doctor, run, algos and p2p against their wall time; the one-GPU doctor's result and
# report (kept in $OUT). Prints its tables last; exit 1 when a check fails.
#   scripts/one-gpu-check.sh [BUILD_DIR] [NVBANDWIDTH]
#     BUILD_DIR    default build (fabricbench built there)
#     NVBANDWIDTH  default build-nvbandwidth/obj/nvbandwidth: nvbandwidth 0.8 built from its public
#                  source (github.com/NVIDIA/nvbandwidth) in that git-ignored folder, with
#                  scripts/build-nvbandwidth.sh SOURCE (on the development machine; carried over)
#   ROUNDS=N       alternated rounds (default 3; odd rounds run nvbandwidth first, even rounds
#                  fabricbench first, so that a drift of the machine favours neither); each round's
#                  host links are also compared on their own
#                  (the round table: each host link within HOST_BAND, default 1%, of nvbandwidth's in at
#                  least HOST_NEED rounds, default all; rounds where nvbandwidth itself moved are marked)
#   ONLY=fidelity  the rounds against nvbandwidth only (no estimates, no doctor)
#   SAMPLES=N      samples each tool takes per figure, its median reported: nvbandwidth -i N and
#                  fabricbench p2p --samples N (default: each tool's own, 3 and 5). Where the host
#                  link moves from sample to sample, a median of 3-5 moves more than 1% between runs
#                  of either tool; more samples compare the two methods rather than the moments
#   NVB_SAMPLES=N  nvbandwidth's samples alone (-i N; fabricbench at SAMPLES, or its default)
#   ALSO="DIR ..." other builds' fabricbench (another commit, a candidate method) also run p2p in each
#                  round, after BUILD_DIR's: one round table per build, reported apart
set -u
cd "$(dirname "$0")/.."
build=${1:-build}
nvb=${2:-build-nvbandwidth/obj/nvbandwidth}
bin=$build/fabricbench
out=${OUT:-one-gpu-check-out}
mkdir -p "$out"
[[ -x $bin ]] || { echo "error: no $bin: build it first (scripts/test.sh, or scripts/fabricbench.sh --version)"; exit 2; }
[[ -x $nvb ]] || { echo "error: no nvbandwidth at $nvb"; exit 2; }
status=0
export CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-0}

rounds=${ROUNDS:-3}
band=${HOST_BAND:-0.01}
also=${ALSO:-}
need=${HOST_NEED:-$rounds}
for b in $also; do [[ -x $b/fabricbench ]] || { echo "error: no $b/fabricbench (ALSO)"; exit 2; }; done
label() { local d=${1%/}; d=${d//\//_}; echo "${d//./_}"; }  # a build folder as a file-name part
echo "== fidelity: fabricbench p2p against nvbandwidth, $rounds alternated rounds"
tests=(host_to_device_memcpy_ce device_to_host_memcpy_ce host_to_device_memcpy_sm device_to_host_memcpy_sm
  device_local_copy host_device_latency_sm)
for v in SAMPLES NVB_SAMPLES; do
  [[ -z ${!v:-} || ${!v} =~ ^[1-9][0-9]*$ ]] || { echo "error: $v must be a whole number above 0"; exit 2; }
done
samples=${SAMPLES:-}
nvb_samples=${NVB_SAMPLES:-$samples}
nvb_args=() fb_args=()
[[ -z $nvb_samples ]] || nvb_args=(-i "$nvb_samples")
[[ -z $samples ]] || fb_args=(--samples "$samples")
echo "   samples per figure: nvbandwidth ${nvb_samples:-its default (3)}, fabricbench ${samples:-its default (5)}"
run_nvbandwidth() {
  "$nvb" -t "${tests[@]}" "${nvb_args[@]}" -j > "$out/nvbandwidth_$1.json" 2> "$out/nvbandwidth_$1.err" || status=1
}
run_fabricbench() {
  "$bin" p2p -q "${fb_args[@]}" --json "$out/p2p_$1.json" > "$out/p2p_$1.txt" || status=1
  for b in $also; do
    "$b/fabricbench" p2p -q "${fb_args[@]}" --json "$out/p2p_$(label "$b")_$1.json" \
      > "$out/p2p_$(label "$b")_$1.txt" || status=1
  done
}
for ((k = 1; k <= rounds; k++)); do
  if ((k % 2)); then run_nvbandwidth "$k"; run_fabricbench "$k"; else run_fabricbench "$k"; run_nvbandwidth "$k"; fi
done
nvb_files=() fb_files=()
for ((k = 1; k <= rounds; k++)); do nvb_files+=("$out/nvbandwidth_$k.json") fb_files+=("$out/p2p_$k.json"); done
python3 scripts/compare_nvbandwidth.py --nvbandwidth "${nvb_files[@]}" \
  --fabricbench "${fb_files[@]}" > "$out/compare_nvbandwidth.txt" || status=1
{ echo "-- $bin"
  python3 scripts/compare_nvbandwidth.py --per-round --host-band "$band" --need "$need" \
    --nvbandwidth "${nvb_files[@]}" --fabricbench "${fb_files[@]}"; } > "$out/rounds.txt" || status=1
for b in $also; do
  files=()
  for ((k = 1; k <= rounds; k++)); do files+=("$out/p2p_$(label "$b")_$k.json"); done
  { echo "-- $b/fabricbench (ALSO: reported, not checked)"
    python3 scripts/compare_nvbandwidth.py --per-round --host-band "$band" --need "$need" \
      --nvbandwidth "${nvb_files[@]}" --fabricbench "${files[@]}"; } >> "$out/also.txt"
done
python3 - "${fb_files[@]}" > "$out/verified.txt" <<'PY' || status=1
import json, sys
need = {"h2d", "d2h", "h2d_sm", "d2h_sm", "local_copy", "host_latency"}
bad = 0
for path in sys.argv[1:]:
    got = {m["test"]: m for m in json.load(open(path))["p2p"]}
    for t in sorted(need):
        m = got.get(t)
        ok = m is not None and m["samples"] > 0 and m["wrong"] <= 0
        bad += 0 if ok else 1
        print(f"{path}: {t}: {'ok' if ok else 'MISSING OR WRONG'}" + (f" ({m['value']:.1f}, wrong {m['wrong']})" if m else ""))
sys.exit(1 if bad else 0)
PY

if [[ ${ONLY:-} == fidelity ]]; then
  grep -v ': ok' "$out/verified.txt" || true
  cat "$out/compare_nvbandwidth.txt" "$out/rounds.txt"
  [[ -z $also ]] || cat "$out/also.txt"
  [[ $status -eq 0 ]] && echo "one-gpu-check (fidelity): all checks passed" || echo "one-gpu-check (fidelity): FAILED (above)"
  exit $status
fi

echo "== up-front estimates against the wall"
printf '%-14s %12s %10s %8s\n' command "estimate s" "wall s" error > "$out/estimates.txt"
estimate() {  # NAME ARGS...: runs fabricbench ARGS, compares its first "about N s" with the wall
  local name=$1
  shift
  local s e rc
  s=$(date +%s%N)
  "$bin" "$@" > "$out/$name.out" 2> "$out/$name.err"
  rc=$?
  e=$(date +%s%N)
  [[ $rc -le 1 ]] || { echo "FAIL: $name exited $rc"; tail -3 "$out/$name.err"; status=1; }
  python3 - "$name" "$out/$name.err" "$s" "$e" >> "$out/estimates.txt" <<'PY' || status=1
import re, sys
name, err, s, e = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
m = re.search(r"about (\d+(?:\.\d+)?) s", open(err).read())
wall = (e - s) / 1e9
if not m:
    print(f"{name:<14} {'none':>12} {wall:>10.1f} {'-':>8}  NO ESTIMATE"); sys.exit(1)
est = float(m.group(1))
dev = (est - wall) / wall
print(f"{name:<14} {est:>12.1f} {wall:>10.1f} {dev * 100:>+7.0f}%  {'ok' if abs(dev) <= 0.30 else 'OUT (30%)'}")
sys.exit(0 if abs(dev) <= 0.30 else 1)
PY
}
estimate doctor doctor --out "$out/doctor"
estimate doctor_quick doctor --quick --out "$out/doctor-quick"
estimate run run all_reduce
estimate run_sweep run all_reduce all_gather -b 8 -e 1G
estimate algos algos all_reduce
estimate p2p p2p

echo "== results"
cat "$out/verified.txt" | grep -v ': ok' || true
cat "$out/compare_nvbandwidth.txt" "$out/rounds.txt" "$out/estimates.txt"
[[ -z $also ]] || cat "$out/also.txt"
[[ $status -eq 0 ]] && echo "one-gpu-check: all checks passed" || echo "one-gpu-check: FAILED (above)"
exit $status
