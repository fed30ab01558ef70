#!/usr/bin/env bash
# Runs every fuzz target of the sanitizer build for SECONDS each (as many at a time as the machine
# has cores, at least two), starting from
# the checked-in seed corpora (fuzz/corpus/<target>/, not modified), and prints each target's
# final coverage (libFuzzer's cov: edges, ft: features). Exit 1 on any finding; the crashing
# input is kept in <build>/findings/.
#   fuzz/run.sh build-fuzz 60
set -uo pipefail
build=$1
seconds=${2:-60}
here=$(cd "$(dirname "$0")" && pwd)
targets=(fuzz_result_document fuzz_nvml_readout fuzz_smi_text fuzz_sysfs_values fuzz_nccl_log fuzz_size_syntax fuzz_import)
mkdir -p "$build/findings" "$build/logs"
run_one() {
  local t=$1 work="$build/corpus-work/$1"
  rm -rf "$work" && mkdir -p "$work"
  # -rss_limit_mb: a parser may not need more; -timeout: one input may not take more (a hang).
  "$build/$t" "$work" "$here/corpus/$t" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix="$build/findings/$t-" -print_final_stats=1 > "$build/logs/$t.log" 2>&1
}
fail=0
at_once=$(nproc)
((at_once >= 2)) || at_once=2
for ((i = 0; i < ${#targets[@]}; i += at_once)); do
  pids=()
  for t in "${targets[@]:i:at_once}"; do
    run_one "$t" &
    pids+=("$!")
  done
  for j in "${!pids[@]}"; do
    t=${targets[i + j]}
    if wait "${pids[j]}"; then
      stats=$(grep -E '#[0-9]+.*(DONE|pulse|NEW|REDUCE).*cov:' "$build/logs/$t.log" | tail -1)
      runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$build/logs/$t.log" | grep -o '[0-9]*$')
      echo "ok: $t ran ${seconds}s, ${runs:-?} inputs: $(grep -o 'cov: [0-9]* ft: [0-9]*' <<< "$stats")"
    else
      echo "FINDING: $t (log: $build/logs/$t.log; input: $build/findings/)"
      tail -40 "$build/logs/$t.log"
      fail=1
    fi
  done
done
exit $fail
