#!/usr/bin/env bash
# The TCP session (torchrun/srun without MPI) with real processes on 127.0.0.1, no GPU needed.
#   tcp_bootstrap.sh CHECK_BINARY FABRICBENCH_BINARY
# Every process runs under `timeout 60`: a 124 means a rank was left behind (a failure).
set -u
check=$1
bin=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
t() { echo "-- $*"; }
bad() { echo "FAIL: $*"; fail=1; }
port() { echo $((20000 + RANDOM % 20000)); }

# start_ranks KIND N WORLD PORT FIRST_RANK -- CMD...: ranks FIRST_RANK..N-1 in the background,
# torchrun-style (KIND=torchrun) or srun-style (KIND=slurm); outputs in $tmp/out.R.
pids=()
start_ranks() {
  local kind=$1 n=$2 world=$3 p=$4 first=$5
  shift 6
  pids=()
  for ((r = first; r < n; r++)); do
    if [[ $kind == torchrun ]]; then
      env RANK=$r WORLD_SIZE=$world LOCAL_RANK=$r LOCAL_WORLD_SIZE=$n MASTER_ADDR=127.0.0.1 MASTER_PORT=$p \
        timeout 60 "$@" > "$tmp/out.$r" 2>&1 &
    else
      env SLURM_PROCID=$r SLURM_NTASKS=$world SLURM_LOCALID=$r SLURM_NODEID=0 SLURM_JOB_ID=$p SLURM_STEP_ID=0 \
        SLURM_JOB_NODELIST='localhost,gpu[01-03]' timeout 60 "$@" > "$tmp/out.$r" 2>&1 &
    fi
    pids+=($!)
  done
}
# Waits for every rank; rcs in $tmp/rc.R; the time it took in $secs.
wait_ranks() {
  local first=$1 i=0 start=$SECONDS
  for pid in "${pids[@]}"; do
    wait "$pid"
    echo $? > "$tmp/rc.$((first + i))"
    i=$((i + 1))
  done
  secs=$((SECONDS - start))
}
rc_of() { cat "$tmp/rc.$1"; }
out_of() { cat "$tmp/out.$1"; }
expect_rc() {  # expect_rc WHAT RANK RC
  [[ $(rc_of "$2") -eq $3 ]] || { echo "$(out_of "$2")"; bad "$1: rank $2 exited $(rc_of "$2"), expected $3"; }
}

for n in 2 5 8; do
  t "torchrun-style: allgather and broadcast on $n ranks"
  start_ranks torchrun $n $n "$(port)" 0 -- "$check" exchange
  wait_ranks 0
  for ((r = 0; r < n; r++)); do expect_rc "exchange n=$n" $r 0; done
  [[ $(cat "$tmp"/out.* | grep -c "^ok rank .* of $n (torchrun") -eq $n ]] || bad "exchange n=$n: not every rank said ok"
done

for n in 4 5; do
  t "torchrun-style: pairs of ranks exchange on their own (comm/group_bootstrap), $n ranks"
  start_ranks torchrun $n $n "$(port)" 0 -- "$check" groups
  wait_ranks 0
  for ((r = 0; r < n; r++)); do expect_rc "groups n=$n" $r 0; done
  [[ $(cat "$tmp"/out.* | grep -c "^ok group ") -eq $((n / 2 * 2)) ]] || bad "groups n=$n: not every paired rank said ok"
done

t "srun-style on 3 ranks: rank 0 is the first host of SLURM_JOB_NODELIST, the port derived from the job id"
start_ranks slurm 3 3 $((RANDOM % 1000)) 0 -- "$check" exchange
wait_ranks 0
for r in 0 1 2; do expect_rc "slurm exchange" $r 0; done
grep -q "ok rank 2 of 3 (slurm, local rank 2)" "$tmp/out.2" || bad "slurm: rank 2's line"

t "precedence: torchrun's variables win over Slurm's; --launcher slurm forces Slurm"
p=$(port)
pids=()
for r in 0 1; do
  env RANK=$r WORLD_SIZE=2 LOCAL_RANK=$r MASTER_ADDR=127.0.0.1 MASTER_PORT=$p SLURM_PROCID=$r SLURM_NTASKS=2 \
    SLURM_JOB_NODELIST=localhost SLURM_JOB_ID=$((p + 1)) SLURM_STEP_ID=0 timeout 60 "$check" exchange > "$tmp/out.$r" 2>&1 &
  pids[$r]=$!
done
wait_ranks 0
grep -q "(torchrun" "$tmp/out.0" || { out_of 0; bad "auto with both: not torchrun"; }
pids=()
for r in 0 1; do
  env RANK=$r WORLD_SIZE=2 LOCAL_RANK=$r MASTER_ADDR=127.0.0.1 MASTER_PORT=$p SLURM_PROCID=$r SLURM_NTASKS=2 \
    SLURM_JOB_NODELIST=localhost SLURM_JOB_ID=$((p + 1)) SLURM_STEP_ID=0 timeout 60 "$check" exchange --launcher slurm > "$tmp/out.$r" 2>&1 &
  pids[$r]=$!
done
wait_ranks 0
grep -q "(slurm" "$tmp/out.0" || { out_of 0; bad "--launcher slurm: not slurm"; }

for victim in 2 0; do
  t "rank $victim of 4 is killed: every rank ends (exit 4), naming it"
  start_ranks torchrun 4 4 "$(port)" 0 -- "$check" die $victim
  wait_ranks 0
  for r in 0 1 2 3; do [[ $r -eq $victim ]] || expect_rc "die $victim" $r 4; done
  [[ $secs -lt 30 ]] || bad "die $victim: took ${secs}s"
  who=$([[ $victim -eq 0 ]] && echo 1 || echo 0)
  grep -q "rank $victim (.*) .*died or was killed" "$tmp/out.$who" || { out_of $who; bad "die $victim: rank $who does not name rank $victim"; }
done

t "rank 1 of 3 hangs past --timeout 2: the job ends on every rank, naming it"
start_ranks torchrun 3 3 "$(port)" 0 -- "$check" hang 1 2
wait_ranks 0
for r in 0 1 2; do expect_rc "hang" $r 4; done
[[ $secs -lt 30 ]] || bad "hang: took ${secs}s"
grep -q "rank 1 (.*) did not finish within --timeout 2 s during 'sleeping'" "$tmp/out.0" || { out_of 0; bad "hang: rank 0's message"; }

t "a rank started with another WORLD_SIZE: a usage error (2) on both"
p=$(port)
start_ranks torchrun 1 2 "$p" 0 -- "$check" exchange
env RANK=1 WORLD_SIZE=3 LOCAL_RANK=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=$p timeout 60 "$check" exchange > "$tmp/out.1" 2>&1 &
pids+=($!)
wait_ranks 0
expect_rc "world size" 0 2
expect_rc "world size" 1 2
grep -q "rank 1 (.*) says the job has 3 ranks, rank 0 (.*) says 2" "$tmp/out.0" || { out_of 0; bad "world size: message"; }

t "RANK outside WORLD_SIZE: a usage error at once"
out=$(RANK=2 WORLD_SIZE=2 LOCAL_RANK=0 MASTER_ADDR=127.0.0.1 MASTER_PORT=1 timeout 60 "$check" exchange 2>&1)
rc=$?
[[ $rc -eq 2 ]] && grep -q "RANK=2 is not a rank of a job of WORLD_SIZE=2" <<< "$out" || { echo "$out"; bad "rank range rc=$rc"; }

t "fewer ranks than WORLD_SIZE: rank 0 gives up after --timeout 3 (exit 3), the others too"
start_ranks torchrun 2 3 "$(port)" 0 -- "$check" exchange --timeout 3
wait_ranks 0
expect_rc "missing rank" 0 3
expect_rc "missing rank" 1 3
grep -q "only 2 of 3 ranks reached rank 0 .* missing: rank 2" "$tmp/out.0" || { out_of 0; bad "missing rank: message"; }

t "an unreachable rank 0: exit 3 after --timeout 2"
start_ranks torchrun 2 2 "$(port)" 1 -- "$check" exchange --timeout 2
wait_ranks 1
expect_rc "unreachable" 1 3
grep -q "cannot reach rank 0 at 127.0.0.1:" "$tmp/out.1" || { out_of 1; bad "unreachable: message"; }
[[ $secs -lt 20 ]] || bad "unreachable: took ${secs}s"

t "a missing variable under --launcher torchrun: a usage error naming it"
out=$(env -u MASTER_ADDR RANK=0 WORLD_SIZE=1 timeout 60 "$bin" topo --launcher torchrun 2>&1)
rc=$?
[[ $rc -eq 2 ]] && grep -q "MASTER_ADDR is not set" <<< "$out" || { echo "$out"; bad "forced torchrun rc=$rc"; }

t "the real fabricbench in a torchrun-style job"
if ! command -v nvidia-smi > /dev/null; then
  start_ranks torchrun 2 2 "$(port)" 0 -- "$bin" run all_reduce
  wait_ranks 0
  expect_rc "fabricbench without a GPU" 0 3
  expect_rc "fabricbench without a GPU (released)" 1 0
  grep -q "no usable GPU" "$tmp/out.0" || { out_of 0; bad "no GPU message"; }
fi
start_ranks torchrun 2 2 "$(port)" 0 -- "$bin" p2p
wait_ranks 0
expect_rc "p2p under torchrun" 0 2
grep -q "does not run under torchrun" "$tmp/out.0" || { out_of 0; bad "p2p message"; }
# Messages name the launcher that started the job (comm/launch_env's table), never mpirun.
start_ranks slurm 2 2 $((RANDOM % 1000)) 0 -- "$bin" p2p
wait_ranks 0
expect_rc "p2p under srun" 0 2
grep -q "does not run under srun" "$tmp/out.0" || { out_of 0; bad "p2p message under srun"; }
! grep -q "mpirun" "$tmp"/out.* || { out_of 0; bad "a message under srun says mpirun"; }

[[ $fail -eq 0 ]] && echo "all TCP session checks passed"
exit $fail
