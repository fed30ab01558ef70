#!/usr/bin/env bash
# What fabricbench costs against nccl-tests, on the same GPUs in one call (issue 12's benchmark).
#   scripts/speed-bench.sh FABRICBENCH NCCLTESTS_BUILD [OUTDIR] [ROUNDS]
# NCCLTESTS_BUILD: a build folder of nccl-tests (github.com/NVIDIA/nccl-tests, built from its
# public source with MPI=1 for the two-process rows; never committed here). Runs, ROUNDS times
# alternately (default 2):
#   sweep    6 collectives, 1 MiB - 4 GiB by x2: nccl-tests (`mpirun -np 2 <c>_perf -g 1`, one
#            mpirun per collective) twice, with its defaults (-n 20 -w 5 -c 1) and with -c 0,
#            against one `fabricbench run` (default launcher: one process per GPU); wall time of
#            each, the ratios, and the out-of-place busbw side by side. The 1% bar at >= 64 MiB
#            (else exit 1) is against -c 0: nccl-tests' data check re-fills the buffers before
#            each size's timing, and with it all_gather/reduce_scatter at 2-4 GiB fall into a
#            slower mode in some processes; the machine lent sets it too, hence one call for
#            both (docs/metrics.md, "Comparing with nccl-tests"). fabricbench times unchecked data.
#   startup  one 1 MiB all_reduce point, whole process: nccl-tests -g 2 and mpirun -np 2 against
#            fabricbench with both launchers.
#   small    all_reduce 8 B - 512 KiB by x16: nccl-tests' all_reduce_perf (-c 0 -n 20000
#            -w 2000 -N 3) against `fabricbench run` (its defaults), each round alternated,
#            compared by scripts/compare_baseline.py (medians over rounds within 10%, else
#            exit 1). These sizes are launch-bound, and the launch rate moves between two modes
#            (~6.5 and ~8.5 us at 8 B on 2 x H200) that last tens to hundreds of ms, in
#            nccl-tests as in fabricbench, with the GPUs at a steady 1980 MHz and no steal time.
#            At its default -n 20 one nccl-tests measurement spans 0.15 ms, one draw of a mode:
#            its run medians went 6.2-9.1 us in one call. 20,000 operations (about 0.15 s)
#            span several.
#   doctor   `doctor --quick` healthy, with NCCL_P2P_DISABLE=1, and with P2P and SHM disabled:
#            wall time, the stage estimate, the top finding and what was cut.
# Prints a short table last. Needs 2 GPUs, mpirun (as root: OMPI_ALLOW_RUN_AS_ROOT=1
# OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1) and python3.
set -uo pipefail
fb=$(readlink -f "$1"); nt=$(readlink -f "$2"); out=${3:-/tmp/speed-bench}; rounds=${4:-2}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
colls=(all_reduce all_gather reduce_scatter alltoall broadcast sendrecv)
mpi=(mpirun -np 2 --bind-to none)

# Wall time of a command in milliseconds, its output kept in a file.
timed() {
  local log=$1; shift
  local s e
  s=$(date +%s%N)
  "$@" > "$log" 2>&1
  local rc=$?
  e=$(date +%s%N)
  echo "$(((e - s) / 1000000)) $rc"
}

: > "$out/walls.txt"
: > "$out/small_nccl_tests.txt"
for r in $(seq 1 "$rounds"); do
  echo "round $r: nccl-tests sweeps (-c 1, -c 0)" >&2
  for check in 1 0; do
    tag=$([[ $check == 1 ]] && echo nt || echo ntc0)
    total=0
    for c in "${colls[@]}"; do
      read -r ms rc < <(timed "$out/${tag}_${c}_r$r.txt" "${mpi[@]}" "$nt/${c}_perf" -b 1M -e 4G -f 2 -g 1 -c $check)
      [[ $rc -eq 0 ]] || echo "nccl-tests $c failed (rc $rc): $out/${tag}_${c}_r$r.txt" >&2
      total=$((total + ms))
    done
    echo "sweep nccl-tests-c$check $r $total" >> "$out/walls.txt"
  done
  echo "round $r: fabricbench sweep" >&2
  read -r ms rc < <(timed "$out/fb_r$r.txt" "$fb" run "${colls[@]}" -b 1M -e 4G -f 2 -q \
    --json "$out/fb_r$r.json")
  [[ $rc -eq 0 ]] || echo "fabricbench failed (rc $rc): $out/fb_r$r.txt" >&2
  echo "sweep fabricbench $r $ms" >> "$out/walls.txt"

  echo "round $r: small sizes" >&2
  "${mpi[@]}" "$nt/all_reduce_perf" -b 8 -e 512K -f 16 -c 0 -n 20000 -w 2000 -N 3 \
    >> "$out/small_nccl_tests.txt" 2>&1
  "$fb" run all_reduce --sizes 8,128,2K,32K,512K -q --json "$out/small_fb_r$r.json" > /dev/null 2>&1

  echo "round $r: start-up" >&2
  read -r ms rc < <(timed "$out/st_nt1_r$r.txt" "$nt/all_reduce_perf" -b 1M -e 1M -g 2)
  echo "startup nccl-tests-g2 $r $ms" >> "$out/walls.txt"
  read -r ms rc < <(timed "$out/st_nt2_r$r.txt" "${mpi[@]}" "$nt/all_reduce_perf" -b 1M -e 1M -g 1)
  echo "startup nccl-tests-mpirun $r $ms" >> "$out/walls.txt"
  read -r ms rc < <(timed "$out/st_fbp_r$r.txt" "$fb" run all_reduce -b 1M -e 1M -q)
  echo "startup fabricbench-processes $r $ms" >> "$out/walls.txt"
  read -r ms rc < <(timed "$out/st_fbt_r$r.txt" "$fb" run all_reduce -b 1M -e 1M -q --launcher threads)
  echo "startup fabricbench-threads $r $ms" >> "$out/walls.txt"
done

if [[ "${SKIP_DOCTOR:-0}" != 1 ]]; then
  for mode in healthy p2p-off p2p-shm-off; do
    echo "doctor --quick, $mode" >&2
    envs=()
    [[ $mode == p2p-off ]] && envs=(NCCL_P2P_DISABLE=1)
    [[ $mode == p2p-shm-off ]] && envs=(NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1)
    read -r ms rc < <(timed "$out/doctor_$mode.txt" env "${envs[@]}" "$fb" doctor --quick \
      --out "$out/doctor_$mode")
    echo "doctor $mode 1 $ms $rc" >> "$out/walls.txt"
  done
fi
echo "== small sizes, medians over $rounds round(s): fabricbench against nccl-tests"
python3 "$here/compare_baseline.py" "$out/small_nccl_tests.txt" "$out"/small_fb_r*.json
small_rc=$?
python3 "$here/speed_bench_report.py" "$out" "$rounds"
report_rc=$?
exit $((small_rc > report_rc ? small_rc : report_rc))
