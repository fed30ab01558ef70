#!/usr/bin/env bash
# On a machine without a GPU (CI), `fabricbench run all_reduce` must say so plainly and exit 3
# (environment missing) within 5 seconds.
set -u
bin=$1
start=$(date +%s%N)
out=$(timeout 10 "$bin" run all_reduce 2>&1)
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
echo "exit $rc after ${ms} ms: $out"
[[ $rc -eq 3 ]] || { echo "FAIL: expected exit 3"; exit 1; }
[[ "$out" == *"no usable GPU"* || "$out" == *"no GPU found"* ]] || { echo "FAIL: message"; exit 1; }
[[ $ms -lt 5000 ]] || { echo "FAIL: took ${ms} ms"; exit 1; }
[[ $(printf '%s\n' "$out" | wc -l) -eq 1 ]] || { echo "FAIL: expected one line"; exit 1; }

# `fabricbench topo` reports what sysfs shows, says what it could not read, and exits 0.
out=$(timeout 10 "$bin" topo 2>&1)
rc=$?
echo "topo exit $rc: $out"
[[ $rc -eq 0 ]] || { echo "FAIL: topo should exit 0 without a GPU"; exit 1; }
# The runtime is named as built: CUDA, or HIP in the -DFABRICBENCH_GPU=hip build.
[[ "$out" == *"could not read: NVML"* && ("$out" == *"could not read: CUDA runtime: no usable GPU"* ||
  "$out" == *"could not read: HIP runtime: no usable GPU"*) ]] ||
  { echo "FAIL: topo should say what it could not read"; exit 1; }

# A bare `fabricbench` is `fabricbench doctor`: without a GPU it says so and exits 3.
out=$(timeout 10 "$bin" 2>&1)
rc=$?
echo "doctor exit $rc: $out"
[[ $rc -eq 3 && "$out" == *"no usable GPU"* ]] || { echo "FAIL: bare fabricbench without a GPU"; exit 1; }

# Every outcome writes the verdict: `doctor --prolog --out DIR --prometheus FILE` without a GPU exits 3
# (environment) and still leaves DIR's result.json, report.html and summary.md and FILE saying
# CRITICAL, action drain, replacing an earlier run's PASS.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'fabricbench_verdict{host="stale",status="PASS",action="none"} 1\n' > "$tmp/fb.prom"
out=$(timeout 20 "$bin" doctor --prolog --out "$tmp/res" --prometheus "$tmp/fb.prom" 2>&1)
rc=$?
echo "doctor --prolog exit $rc: $out"
[[ $rc -eq 3 && "$out" == *"no usable GPU"* ]] || { echo "FAIL: doctor --prolog without a GPU"; exit 1; }
for f in result.json report.html summary.md; do
  [[ -s "$tmp/res/$f" ]] || { echo "FAIL: no $f in the results folder"; exit 1; }
done
python3 - "$tmp/res/result.json" <<'PY' || { echo "FAIL: result.json"; exit 1; }
import json, sys
d = json.load(open(sys.argv[1]))
run_failed = [f for f in d["findings"] if f["code"] == "RUN_FAILED"]
assert d["status"] == "failed" and "no usable GPU" in d["failure"], (d["status"], d["failure"])
assert run_failed and run_failed[0]["severity"] == "error", d["findings"]
assert d["verdict"]["status"] == "CRITICAL" and d["verdict"]["action"] == "drain", d["verdict"]
print("result.json:", d["status"], d["verdict"]["status"], d["verdict"]["action"])
PY
host=$(hostname)
grep -q "^fabricbench_verdict{host=\"$host\",status=\"CRITICAL\",action=\"drain\"} 1$" "$tmp/fb.prom" ||
  { echo "FAIL: the textfile: $(cat "$tmp/fb.prom")"; exit 1; }
grep -q 'stale' "$tmp/fb.prom" && { echo "FAIL: the earlier textfile was kept"; exit 1; }
grep -q '^\*\*Verdict: CRITICAL (action: drain)\*\*' "$tmp/res/summary.md" ||
  { echo "FAIL: summary.md does not open with the verdict"; exit 1; }
if command -v promtool > /dev/null; then
  check=$(promtool check metrics < "$tmp/fb.prom" 2>&1)
  [[ $? -eq 0 && -z $check ]] || { echo "FAIL: promtool: $check"; exit 1; }
fi
echo "no_gpu: ok"
