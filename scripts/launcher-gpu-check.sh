#!/usr/bin/env bash
# Issue 15 on a machine with 2 GPUs: fabricbench started the way torchrun and srun start it.
# torchrun need not be installed: the variables it would set are set by hand, one process per GPU.
#   scripts/launcher-gpu-check.sh [BUILD_DIR] [OUT_DIR]
# Prints each step's exit codes; the logs and result documents are in OUT_DIR.
set -u
bin=$(realpath "${1:-build}")/fabricbench
out=${2:-/tmp/launcher-gpu-check}
mkdir -p "$out"
port=$((29500 + RANDOM % 1000))
pids=()

# start KIND NAME ARGS...: 2 ranks, torchrun-style (KIND=torchrun) or srun-style (KIND=slurm).
start() {
  local kind=$1 name=$2
  shift 2
  port=$((port + 2))
  pids=()
  for r in 0 1; do
    if [[ $kind == torchrun ]]; then
      env RANK=$r WORLD_SIZE=2 LOCAL_RANK=$r LOCAL_WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port \
        "$bin" "$@" > "$out/$name.rank$r.log" 2>&1 &
    else
      env SLURM_PROCID=$r SLURM_NTASKS=2 SLURM_LOCALID=$r SLURM_NODEID=0 SLURM_JOB_ID=$port \
        SLURM_JOB_NODELIST=localhost "$bin" "$@" > "$out/$name.rank$r.log" 2>&1 &
    fi
    pids+=($!)
  done
}
finish() {  # finish NAME: waits for both ranks, prints their exit codes and rank 0's last lines
  for r in 0 1; do
    wait "${pids[$r]}"
    echo "$1: rank $r exit $?"
  done
  tail -n 4 "$out/$1.rank0.log"
}

echo "== 1. the default launcher, then the same sweep torchrun-style: busbw within 1%"
"$bin" run all_reduce -b 1M -e 4G --json "$out/default.json" > "$out/default.log" 2>&1
echo "default: exit $?"
start torchrun torchrun run all_reduce -b 1M -e 4G --json "$out/torchrun.json"
finish torchrun
"$bin" compare "$out/default.json" "$out/torchrun.json" --threshold 0.01 --min-size 64M
echo "compare: exit $? (0: no change beyond 1% at 64 MiB and more)"
if command -v torchrun > /dev/null; then
  torchrun --nproc_per_node=2 --no-python "$bin" run all_reduce -b 1M -e 4G --json "$out/real-torchrun.json" \
    > "$out/real-torchrun.log" 2>&1
  echo "real torchrun: exit $?"
fi

echo "== 2. srun-style variables"
start slurm slurm run all_reduce -b 1M -e 64M --json "$out/slurm.json"
finish slurm

echo "== 3. two 'hosts' through NCCL's socket transport"
NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_DEBUG=INFO start torchrun socket run all_reduce --sizes 1M,64M,512M \
  --json "$out/socket.json"
finish socket
grep -ho "via NET/[A-Za-z]*[^ ]*" "$out"/socket.rank*.log | sort | uniq -c

echo "== 4. rank 1 killed mid-run: both ranks end, rank 0 names rank 1 and keeps its points"
start torchrun killed run all_reduce -b 1G -e 4G -n 400 --timeout 30 --json "$out/killed.json"
sleep 8
kill -9 "${pids[1]}"
finish killed
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('status', d['status'], 'points', sum(len(r['points']) for r in d['runs']), 'failure', d.get('failure'))" "$out/killed.json"

echo "== 5. rank 1 stopped (SIGSTOP) mid-run: rank 0 ends after --timeout 15, naming where rank 1 was"
start torchrun stopped run all_reduce -b 1G -e 4G -n 400 --timeout 15 --json "$out/stopped.json"
sleep 8
kill -STOP "${pids[1]}"
wait "${pids[0]}"
echo "stopped: rank 0 exit $?"
kill -CONT "${pids[1]}"  # it reads rank 0's abort and ends
wait "${pids[1]}"
echo "stopped: rank 1 exit $? (after SIGCONT)"
tail -n 3 "$out/stopped.rank0.log"
