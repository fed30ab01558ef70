#!/usr/bin/env bash
# scripts/startup-bench.sh with stand-ins for fabricbench and nccl-tests' all_reduce_perf: each
# launcher and nccl-tests run in one loop with the right arguments, a failing run fails the script;
# scripts/startup_bench_report.py on fixed walls: medians, ratios to nccl-tests, step medians.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# The stand-ins log their arguments; fabricbench writes the document's start-up steps.
cat > "$tmp/fabricbench" <<'SH'
#!/usr/bin/env bash
echo "fabricbench $*" >> "$LOG"
[[ " $* " == *" --launcher ${FAIL_LAUNCHER:-none} "* ]] && { echo "worker failed" >&2; exit 4; }
args="$*"
json=${args##*--json }
cat > "$json" <<'J'
{"startup": [{"phase": "CUDA driver start-up", "at_ms": 10.0}, {"phase": "starting the workers", "at_ms": 50.0},
 {"phase": "measuring, from all_reduce 8 B", "at_ms": 80.0}, {"phase": "teardown", "at_ms": 90.0},
 {"phase": "all workers ended", "at_ms": 95.0}]}
J
SH
cat > "$tmp/all_reduce_perf" <<'SH'
#!/usr/bin/env bash
echo "nccl-tests $*" >> "$LOG"
SH
chmod +x "$tmp/fabricbench" "$tmp/all_reduce_perf"

export LOG=$tmp/log GAP_S=0
out=$(LAUNCHERS="processes threads" NCCL_TESTS=$tmp/all_reduce_perf bash "$root/scripts/startup-bench.sh" "$tmp/fabricbench" 3)
rc=$?
echo "$out"
[[ $rc -eq 0 ]] || { echo "FAIL: the loop exited $rc"; fail=1; }
expected=$(for i in 1 2 3; do
  echo "fabricbench run all_reduce -b 8 -e 8 -n 1 -w 0 --tail-iters 0 -q --launcher processes --json"
  echo "fabricbench run all_reduce -b 8 -e 8 -n 1 -w 0 --tail-iters 0 -q --launcher threads --json"
  echo "nccl-tests -b 8 -e 8 -n 1 -w 0 -g 1"
done)
[[ $(sed -E 's/ --json .*/ --json/' "$LOG") == "$expected" ]] || { echo "FAIL: runs or their order:"; cat "$LOG"; fail=1; }
for want in "nccl-tests all_reduce_perf -b 8 -e 8 -n 1 -w 0 -g 1, 3 runs" "launcher processes, 3 runs" \
  "launcher threads, 3 runs" "x nccl-tests' median (at most 0.60"; do
  grep -qF "$want" <<< "$out" || { echo "FAIL: no '$want'"; fail=1; }
done

# POINT replaces fabricbench's point flags.
: > "$LOG"
POINT="-n 1" bash "$root/scripts/startup-bench.sh" "$tmp/fabricbench" 1 > /dev/null
grep -qx "fabricbench run all_reduce -b 8 -e 8 -n 1 -q --launcher processes --json .*" "$LOG" ||
  { echo "FAIL: POINT not passed:"; cat "$LOG"; fail=1; }

# One launcher's run fails: the script says which and exits 1.
: > "$LOG"
out=$(FAIL_LAUNCHER=threads LAUNCHERS="processes threads" bash "$root/scripts/startup-bench.sh" "$tmp/fabricbench" 2 2>&1)
rc=$?
[[ $rc -eq 1 ]] && grep -q "FAIL: threads run 1 exited non-zero" <<< "$out" && grep -q "worker failed" <<< "$out" ||
  { echo "$out"; echo "FAIL: a failing run gave exit $rc"; fail=1; }
LAUNCHERS=sockets bash "$root/scripts/startup-bench.sh" "$tmp/fabricbench" 1 > /dev/null 2>&1
[[ $? -eq 2 ]] || { echo "FAIL: an unknown launcher is not refused"; fail=1; }

# The report on fixed walls. processes: median 800 ms, 800 / 1300 = 0.62 (NOT met at 0.6); threads:
# median 650, 0.50 (met); each step's median from the stamps: 40, 30, 10, and 800 - 95 = 705 to exit.
d=$tmp/fixed
mkdir -p "$d"
printf '700\n900\n800\n' > "$d/walls_processes.txt"
printf '650\n600\n700\n' > "$d/walls_threads.txt"
printf '1300\n1200\n1400\n' > "$d/walls_nccl_tests.txt"
for l in processes threads; do for i in 1 2 3; do
  cat > "$d/run_${l}_$i.json" <<'J'
{"startup": [{"phase": "CUDA driver start-up", "at_ms": 10.0}, {"phase": "starting the workers", "at_ms": 50.0},
 {"phase": "measuring, from all_reduce 8 B", "at_ms": 80.0}, {"phase": "all workers ended", "at_ms": 95.0}]}
J
done; done
out=$(python3 "$root/scripts/startup_bench_report.py" "$d" processes threads)
echo "$out"
for want in "  median 1300 ms" "  median 800 ms (target 500 ms: NOT met)" \
  "  0.62 x nccl-tests' median (at most 0.60: NOT met)" "  median 650 ms (target 500 ms: NOT met)" \
  "  0.50 x nccl-tests' median (at most 0.60: met)" "        40.0  CUDA driver start-up" \
  "        30.0  starting the workers" "        15.0  measuring" \
  "       705.0  from 'all workers ended' to the process's exit"; do
  grep -qF -- "$want" <<< "$out" || { echo "FAIL: no '$want'"; fail=1; }
done
rm "$d/run_threads_2.json"
python3 "$root/scripts/startup_bench_report.py" "$d" processes threads > /dev/null 2>&1
[[ $? -eq 2 ]] || { echo "FAIL: a missing document is not exit 2"; fail=1; }

[[ $fail -eq 0 ]] && echo "startup_bench: ok"
exit $fail
