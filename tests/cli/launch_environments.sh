#!/usr/bin/env bash
# Every row of the launcher table (comm/launch_env_table.cpp, docs/launch.md) with real processes
# on 127.0.0.1, CPU only, 2 and 4 ranks: the environment each runtime sets, the rank mapping each
# rank reports and the rendezvous it meets at; then the refusals (sbatch without srun, a partial
# environment), which must come at once, never after a wait.
#   launch_environments.sh CHECK_BINARY FABRICBENCH_BINARY FIXTURE_DIR
# CHECK_BINARY is tests/helpers/launch_env_check.cpp; FABRICBENCH_MPI_PLUGIN names the MPI plugin.
# Every process runs under `timeout 60`: a 124 is a rank left behind (a failure).
set -u
check=$1
bin=$2
fixtures=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
t() { echo "-- $*"; }
bad() { echo "FAIL: $*"; fail=1; }
port() { echo $((20000 + RANDOM % 20000)); }
[[ $(id -u) -eq 0 ]] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Launcher variables of the shell around the test would leak into every rank.
mapfile -t leaked < <(compgen -v | grep -E '^(SLURM_|PMI_|PMIX_|OMPI_COMM_|PET_|TORCHELASTIC_|FABRICBENCH_(RENDEZVOUS|NNODES|NPROC|LOCAL))')
unset "${leaked[@]}" RANK WORLD_SIZE LOCAL_RANK LOCAL_WORLD_SIZE MASTER_ADDR MASTER_PORT JOB_COMPLETION_INDEX \
  MV2_COMM_WORLD_SIZE MPI_LOCALRANKID MPI_LOCALNRANKS 2> /dev/null

pids=()
# start NAME ENV... -- CMD...: one process in the background, its output in $tmp/NAME.
start() {
  local name=$1 vars=()
  shift
  while [[ $1 != -- ]]; do vars+=("$1"); shift; done
  shift
  env "${vars[@]}" timeout 60 "$@" > "$tmp/$name" 2>&1 &
  pids+=($!)
}
# finish: waits for every process started; each one's exit code in $tmp/NAME.rc is not kept: a
# non-zero one is a failure unless ALLOW_RC says it.
finish() {
  local pid rc=0
  for pid in "${pids[@]}"; do wait "$pid" || rc=$?; done
  pids=()
  return $rc
}
# expect_ranks WHAT N LAUNCHER WIRING LOCAL...: every "ok rank R of N" line, with rank R's local rank.
expect_ranks() {
  local what=$1 n=$2 launcher=$3 wiring=$4 r
  shift 4
  local out
  out=$(cat "$tmp"/out.* 2> /dev/null)
  for ((r = 0; r < n; r++)); do
    grep -qx "ok rank $r of $n ($launcher, local rank $1, $wiring)" <<< "$out" ||
      { echo "$out"; bad "$what: no line 'ok rank $r of $n ($launcher, local rank $1, $wiring)'"; return; }
    shift
  done
  [[ $(grep -c '^ok rank' <<< "$out") -eq $n ]] || { echo "$out"; bad "$what: not $n ranks"; }
}
rendezvous_is() {  # rendezvous_is WHAT ADDR:PORT ORIGIN
  grep -qx "rendezvous $2 ($3)" "$tmp"/out.* || { cat "$tmp"/out.*; bad "$1: rank 0's rendezvous is not $2 ($3)"; }
}
clean() { rm -f "$tmp"/out.*; }

for n in 2 4; do
  t "torchrun (elastic agent's variables), $n ranks on 2 nodes: RANK, LOCAL_RANK, MASTER_PORT + 1"
  clean
  p=$(port)
  per=$((n / 2))
  for ((r = 0; r < n; r++)); do
    start out.$r RANK=$r WORLD_SIZE=$n LOCAL_RANK=$((r % per)) LOCAL_WORLD_SIZE=$per GROUP_RANK=$((r / per)) \
      ROLE_RANK=$r ROLE_WORLD_SIZE=$n GROUP_WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$p \
      TORCHELASTIC_RUN_ID=fb TORCHELASTIC_RESTART_COUNT=0 TORCHELASTIC_MAX_RESTARTS=0 \
      TORCHELASTIC_USE_AGENT_STORE=True -- "$check"
  done
  finish || bad "torchrun n=$n: a rank failed"
  expect_ranks "torchrun n=$n" $n torchrun "TCP rendezvous" $( ((n == 2)) && echo 0 0 || echo 0 1 0 1)
  rendezvous_is "torchrun n=$n" "127.0.0.1:$((p + 1))" "MASTER_PORT + 1"
done

t "PyTorchJob without torchrun, nprocPerNode auto: 2 pods, one rank each (local rank 0)"
clean
p=$(port)
for pod in 0 1; do
  start out.$pod RANK=$pod WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$p PET_NODE_RANK=$pod PET_NNODES=2 \
    PET_NPROC_PER_NODE=auto PET_MASTER_ADDR=127.0.0.1 PET_MASTER_PORT=$p PYTHONUNBUFFERED=1 -- "$check"
done
finish || bad "pytorchjob n=2: a pod failed"
expect_ranks "pytorchjob n=2" 2 pytorchjob "TCP rendezvous" 0 0
rendezvous_is "pytorchjob n=2" "127.0.0.1:$((p + 1))" "MASTER_PORT + 1"

t "PyTorchJob without torchrun, nprocPerNode 2: 2 pods, each process starts its pod's 2 ranks (4 ranks)"
clean
p=$(port)
for pod in 0 1; do
  start out.$pod RANK=$pod WORLD_SIZE=4 MASTER_ADDR=127.0.0.1 MASTER_PORT=$p PET_NODE_RANK=$pod PET_NNODES=2 \
    PET_NPROC_PER_NODE=2 -- "$check"
done
finish || bad "pytorchjob n=4: a pod failed"
expect_ranks "pytorchjob n=4" 4 pytorchjob "TCP rendezvous" 0 1 0 1

for n in 2 4; do
  t "Indexed Job, $n ranks: JOB_COMPLETION_INDEX, --nnodes, --rendezvous (and --nproc-per-node 2 for 4)"
  clean
  p=$(port)
  pods=2
  flags=(--nnodes 2 --rendezvous "127.0.0.1:$p")
  ((n == 4)) && flags+=(--nproc-per-node 2)
  for ((pod = 0; pod < pods; pod++)); do start out.$pod JOB_COMPLETION_INDEX=$pod -- "$check" "${flags[@]}"; done
  finish || bad "indexed-job n=$n: a pod failed"
  expect_ranks "indexed-job n=$n" $n indexed-job "TCP rendezvous" $( ((n == 2)) && echo 0 0 || echo 0 1 0 1)
  rendezvous_is "indexed-job n=$n" "127.0.0.1:$p" "--rendezvous"
done

for n in 2 4; do
  t "srun's step variables, $n ranks: SLURM_PROCID, the first host of SLURM_STEP_NODELIST"
  clean
  job=$((RANDOM % 1000))
  for ((r = 0; r < n; r++)); do
    start out.$r SLURM_PROCID=$r SLURM_NTASKS=$n SLURM_STEP_NUM_TASKS=$n SLURM_LOCALID=$r SLURM_STEP_ID=0 \
      SLURM_JOB_ID=$job SLURM_STEP_NODELIST=localhost SLURM_JOB_NODELIST=localhost -- "$check"
  done
  finish || bad "slurm n=$n: a rank failed"
  expect_ranks "slurm n=$n" $n slurm "TCP rendezvous" $(seq 0 $((n - 1)))
  rendezvous_is "slurm n=$n" "localhost:$((20000 + job * 16 % 20000))" "derived from SLURM_JOB_ID and SLURM_STEP_ID"
done

for n in 2 4; do
  t "Hydra's variables (Intel MPI, MPICH), $n ranks on 2 nodes, meeting over TCP (--rendezvous)"
  clean
  p=$(port)
  per=$((n / 2))
  for ((r = 0; r < n; r++)); do
    start out.$r PMI_RANK=$r PMI_SIZE=$n MPI_LOCALRANKID=$((r % per)) MPI_LOCALNRANKS=$per PMI_FD=9 -- \
      "$check" --rendezvous "127.0.0.1:$p"
  done
  finish || bad "hydra n=$n: a rank failed"
  expect_ranks "hydra n=$n" $n hydra "TCP rendezvous" $( ((n == 2)) && echo 0 0 || echo 0 1 0 1)
done

t "Hydra's variables without --rendezvous: an Open MPI plugin starts each as rank 0 of 1, which is said"
clean
for r in 0 1; do start out.$r PMI_RANK=$r PMI_SIZE=2 MPI_LOCALRANKID=$r MPI_LOCALNRANKS=2 -- "$check"; done
finish && bad "hydra without --rendezvous: every rank exited 0"
for r in 0 1; do
  grep -q "MPI started this process as rank 0 of 1, but PMI_RANK=$r and PMI_SIZE=2" "$tmp/out.$r" ||
    { cat "$tmp/out.$r"; bad "hydra without --rendezvous: rank $r's message"; }
done
grep -q "^ok rank" "$tmp"/out.* && bad "hydra without --rendezvous: a silent single-rank run"

if command -v mpirun > /dev/null; then
  mpi=(timeout 60 mpirun --oversubscribe -x FABRICBENCH_MPI_PLUGIN)
  for n in 2 4; do
    t "mpirun (Open MPI) -np $n: the MPI plugin; the same ranks over TCP with --rendezvous"
    clean
    "${mpi[@]}" -np $n "$check" > "$tmp/out.mpi" 2>&1 || bad "mpirun n=$n failed"
    expect_ranks "mpi n=$n" $n mpi "MPI plugin" $(seq 0 $((n - 1)))
    clean
    "${mpi[@]}" -np $n "$check" --rendezvous "127.0.0.1:$(port)" > "$tmp/out.tcp" 2>&1 || bad "mpirun --rendezvous n=$n failed"
    expect_ranks "mpi --rendezvous n=$n" $n mpi "TCP rendezvous" $(seq 0 $((n - 1)))
    t "PMIx (mpirun's ranks without OMPI_COMM_WORLD_*) -np $n: the PMIx row, through the MPI plugin"
    clean
    "${mpi[@]}" -np $n env -u OMPI_COMM_WORLD_SIZE -u OMPI_COMM_WORLD_RANK -u OMPI_COMM_WORLD_LOCAL_RANK \
      -u OMPI_COMM_WORLD_LOCAL_SIZE "$check" > "$tmp/out.pmix" 2>&1 || bad "mpirun (PMIx) n=$n failed"
    expect_ranks "pmix n=$n" $n pmix "MPI plugin" $(seq 0 $((n - 1)))
  done
else
  bad "mpirun not found: install openmpi-bin (scripts/deps.sh test)"
fi

for n in 2 4; do
  t "the batch script of sbatch -n $n (captured), no srun: refused at once, naming srun"
  start=$SECONDS
  out=$(env $(grep -v '^SLURM_NTASKS=\|^SLURM_NPROCS=' "$fixtures/slurm_sbatch_script_n2.env") SLURM_NTASKS=$n \
    timeout 60 "$bin" topo --no-runtime 2>&1)
  rc=$?
  [[ $rc -eq 2 && $((SECONDS - start)) -lt 5 ]] && grep -q "SLURM_NTASKS=$n.*srun fabricbench" <<< "$out" ||
    { echo "$out"; bad "sbatch n=$n: rc=$rc"; }
done

t "a partial environment (RANK and WORLD_SIZE only): a usage error naming them, at once"
out=$(env RANK=1 WORLD_SIZE=4 timeout 60 "$bin" topo --no-runtime 2>&1)
rc=$?
[[ $rc -eq 2 ]] && grep -q "RANK=1, WORLD_SIZE=4 set but not LOCAL_RANK, MASTER_ADDR, MASTER_PORT" <<< "$out" ||
  { echo "$out"; bad "partial: rc=$rc"; }
out=$(env JOB_COMPLETION_INDEX=0 timeout 60 "$bin" topo --no-runtime --rendezvous 127.0.0.1:1 2>&1)
rc=$?
[[ $rc -eq 2 ]] && grep -q "nnodes (FABRICBENCH_NNODES) is not given" <<< "$out" || { echo "$out"; bad "indexed without --nnodes: rc=$rc"; }

t "the real fabricbench in an Indexed Job of 2 pods x --nproc-per-node 2: rank 0 alone prints"
clean
p=$(port)
for pod in 0 1; do
  start out.$pod JOB_COMPLETION_INDEX=$pod -- "$bin" topo --no-runtime --nnodes 2 --nproc-per-node 2 \
    --rendezvous "127.0.0.1:$p" --json "$tmp/topo.$pod.json"
done
pod_rc=0
for pid in "${pids[@]}"; do wait "$pid" || pod_rc=$?; done
pids=()
# Pod 0's code is rank 0's (1: an error-level finding about this machine, not about the launch).
[[ $pod_rc -le 1 && -s $tmp/topo.0.json && ! -e $tmp/topo.1.json ]] || { cat "$tmp"/out.*; bad "real fabricbench: rc=$pod_rc"; }

[[ $fail -eq 0 ]] && echo "all launcher environment checks passed"
exit $fail
