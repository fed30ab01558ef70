#!/usr/bin/env bash
# On a machine with 2+ GPUs: runs the GPU tests, the fidelity sweep against the reference
# figures (docs/reference/), and the start-up measurement; prints a table at the end.
#   scripts/gpu-check.sh [BUILD_DIR]      (default: build; builds it first if missing)
# Results land in ${OUT:-gpu-check-out}/.
set -u
cd "$(dirname "$0")/.."
build=${1:-build}
bin=$build/fabricbench
out=${OUT:-gpu-check-out}
mkdir -p "$out"
[[ -x $bin && -x $build/nccl_timing_baseline ]] ||
  { cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release && cmake --build "$build" -j; } || exit 1

status=0
echo "== GPU tests"
for t in all_dtypes_ops_processes all_dtypes_ops_threads in_place corruption too_large threads_vs_processes \
  p2p_copies_verified p2p_bad_input mpi_two_ranks interrupt fill; do
  if bash tests/gpu/gpu_tests.sh "$t" "$bin" > "$out/gpu_test_$t.log" 2>&1; then
    echo "PASS gpu_$t"
  else
    echo "FAIL gpu_$t"; tail -5 "$out/gpu_test_$t.log"; status=1
  fi
done

echo "== start-up: run all_reduce -b 8 -e 8 -n 1 on 2 GPUs (wall time, launch and NCCL init included)"
for l in processes threads; do
  s=$(date +%s%N)
  "$bin" run all_reduce -b 8 -e 8 -n 1 --gpus 2 --launcher $l -q > /dev/null || status=1
  echo "startup $l: $((($(date +%s%N) - s) / 1000000)) ms"
done

echo "== fidelity sweep"
big="--sizes 1M,16M,64M,256M,1G,4G"
colls="all_reduce all_gather reduce_scatter alltoall broadcast sendrecv gather scatter"
for l in processes threads; do
  tag=$([[ $l == processes ]] && echo procs || echo threads)
  s=$(date +%s%N)
  "$bin" run $colls $big --gpus 2 --launcher $l -q --json "$out/big_$tag.json" > "$out/big_$tag.txt" || status=1
  echo "sweep $l (8 collectives, 1M-4G): $((($(date +%s%N) - s) / 1000000)) ms"
  "$bin" run all_reduce --sizes 2M,8M,32M,128M,512M,2G --gpus 2 --launcher $l -q --json "$out/mid_$tag.json" > /dev/null || status=1
  "$bin" run all_reduce --sizes 8,2K,4K,32K,64K,128K,512K --gpus 2 --launcher $l -q --json "$out/small_$tag.json" > /dev/null || status=1
  "$bin" run all_reduce --sizes 8,2K,4K,32K,64K,128K,512K -G 100 --gpus 2 --launcher $l -q --json "$out/graph_$tag.json" > /dev/null || status=1
done
echo "== same-run baseline: timed the nccl-tests way (tools/nccl_timing_baseline)"
# Small all_reduce without graphs is bound by the host's launch rate, which moves between
# rounds on a VM: alternate fabricbench and the baseline, then compare medians over rounds.
if command -v mpirun > /dev/null; then
  [[ $(id -u) -eq 0 ]] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  : > "$out/baseline_small.txt"
  rounds=()
  for k in 1 2 3 4 5 6; do
    "$bin" run all_reduce --sizes 8,2K,32K,128K,512K --gpus 2 -q --json "$out/small_round_$k.json" > /dev/null ||
      status=1
    rounds+=("$out/small_round_$k.json")
    mpirun -np 2 "$build/nccl_timing_baseline" all_reduce 8,2048,32768,131072,524288 >> "$out/baseline_small.txt" ||
      status=1
  done
  python3 scripts/compare_baseline.py "$out/baseline_small.txt" "${rounds[@]}" | tee "$out/compare_baseline.txt"
  [[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
  for c in all_reduce reduce_scatter all_gather; do
    mpirun -np 2 "$build/nccl_timing_baseline" $c 4294967296 20 6
  done | tee "$out/baseline_big.txt"
else
  echo "SKIPPED same-run small-size check: no mpirun here (the baseline's two-process mode needs it)"
  status=1
fi
nvidia-smi --query-gpu=index,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv
python3 scripts/compare_reference.py docs/reference/h200x2-nccl-tests.json \
  procs="$out/big_procs.json" threads="$out/big_threads.json" procs-mid="$out/mid_procs.json" \
  threads-mid="$out/mid_threads.json" procs-small="$out/small_procs.json" \
  threads-small="$out/small_threads.json" procs-graph="$out/graph_procs.json" \
  threads-graph="$out/graph_threads.json" | tee "$out/compare.txt"
[[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
echo "== topo (live) and nvidia-smi topo -m"
"$bin" topo --json "$out/topo.json" | tee "$out/topo.txt" || status=1
nvidia-smi topo -m > "$out/nvidia-smi-topo-m.txt" 2>&1 && cat "$out/nvidia-smi-topo-m.txt" | head -4

echo "== p2p against nvbandwidth"
s=$(date +%s%N)
"$bin" p2p --gpus 2 -q --json "$out/p2p.json" --csv "$out/p2p.csv" > "$out/p2p.txt" || status=1
echo "p2p wall: $((($(date +%s%N) - s) / 1000000)) ms"
cat "$out/p2p.txt"
python3 scripts/compare_reference.py docs/reference/h200x2-nvbandwidth.json p2p="$out/p2p.json" |
  tee "$out/compare_p2p.txt"
[[ ${PIPESTATUS[0]} -eq 0 ]] || status=1
exit $status
