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
