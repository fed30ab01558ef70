#!/usr/bin/env bash
# srun against a real Slurm (Debian's slurm-wlm and munge), CPU only: a throw-away single-host
# cluster (munged, slurmctld, slurmd) in a temp folder, then the TCP session and the real binary
# under `srun -n 2` and `-n 4`; and the binary in a batch script without srun.
#   slurm_srun.sh CHECK_BINARY FABRICBENCH_BINARY
# Runs as root (CI) or not: the daemons run as the test's user, the only one that submits jobs.
# Missing packages fail the test: scripts/deps.sh test installs them.
set -u
check=$1
bin=$2
fail=0
t() { echo "-- $*"; }
bad() { echo "FAIL: $*"; fail=1; }
# The daemons are in /usr/sbin, which a non-root PATH may lack.
export PATH=$PATH:/usr/sbin:/usr/bin

for cmd in mungekey munged slurmctld slurmd srun sinfo squeue scancel; do
  command -v "$cmd" > /dev/null || { echo "FAIL: $cmd not found: install slurm-wlm and munge (scripts/deps.sh test)"; exit 1; }
done

# A Slurm job or mpirun around this test (or torchrun's variables) would leak into srun and the ranks.
mapfile -t leaked < <(compgen -v SLURM_)
unset "${leaked[@]}" RANK WORLD_SIZE LOCAL_RANK LOCAL_WORLD_SIZE MASTER_ADDR MASTER_PORT \
  OMPI_COMM_WORLD_SIZE MV2_COMM_WORLD_SIZE FABRICBENCH_RENDEZVOUS_PORT

tmp=$(mktemp -d)
# munged refuses a socket in a folder that not everyone may enter.
chmod 755 "$tmp"
mkdir "$tmp/state" "$tmp/spool"
pids=()
alive() { kill -0 "$1" 2> /dev/null; }
cleanup() {
  local jobs=() pid log f left
  trap '' PIPE  # a closed stdout (| head) must not stop the clean-up half way
  # Jobs first (a step cut short by `timeout` leaves its tasks under slurmstepd), then the daemons.
  [[ -n ${ctld_pid:-} ]] && alive "$ctld_pid" && mapfile -t jobs < <(timeout 10 squeue -h -o %i 2> /dev/null)
  if [[ ${#jobs[@]} -gt 0 ]]; then
    scancel "${jobs[@]}" 2> /dev/null
    for _ in $(seq 20); do [[ -z $(timeout 5 squeue -h 2> /dev/null) ]] && break; sleep 0.5; done
  fi
  # A slurmstepd keeps its socket in the spool until it has reported the step's end: killing
  # slurmd before would leave it behind.
  for _ in $(seq 20); do
    left=
    for f in "$tmp"/spool/*; do [[ -S $f ]] && left=$f; done
    [[ -z $left ]] && break
    sleep 0.5
  done
  for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null; done
  [[ -n $left ]] && echo "note: a slurmstepd did not end within 10 s ($left)"
  for pid in "${pids[@]}"; do timeout 10 tail --pid="$pid" -f /dev/null; done
  if [[ $fail -ne 0 ]]; then
    # The log files (slurmstepd's lines among slurmd's), else what a daemon said before opening one.
    for log in munged slurmctld slurmd; do
      echo "---- $log (last lines)"
      if [[ -s $tmp/$log.log ]]; then tail -n 25 "$tmp/$log.log"; else tail -n 25 "$tmp/$log.out"; fi
    done
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
# ctest's timeout or Ctrl-C: through the EXIT trap too, so that no daemon outlives the test.
trap 'exit 1' INT TERM

# A port nothing listens on, below the rendezvous ports (20000-39999 under Slurm) and the
# ephemeral range.
free_port() {
  local p
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    p=$((10000 + RANDOM % 10000))
    (exec 3<> "/dev/tcp/127.0.0.1/$p") 2> /dev/null || { echo "$p"; return; }
  done
  echo "$p"
}

# The node is this host's short name when it resolves (as on a cluster), else localhost: the
# ranks find rank 0 by the step's node list.
node=$(hostname -s)
getent hosts "$node" > /dev/null || node=localhost
cpus=$(nproc)
((cpus < 4)) && cpus=4
ctld_port=$(free_port)
slurmd_port=$(free_port)
while [[ $slurmd_port == "$ctld_port" ]]; do slurmd_port=$(free_port); done
export SLURM_CONF=$tmp/slurm.conf
# config_overrides: the node is the CPUs written here even where nproc is less (-n 4 on 2 cores);
# proctrack/linuxproc and task/none: no cgroups, which a container may not delegate.
cat > "$SLURM_CONF" << EOF
ClusterName=fabricbench
SlurmctldHost=$node(127.0.0.1)
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge.sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
KillWait=2
MailProg=/bin/true
FirstJobId=$((1 + RANDOM % 5000))
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

t "a single-host Slurm: munged, slurmctld and slurmd (node $node, $cpus CPUs)"
mungekey -c -k "$tmp/munge.key"
munged -F --socket="$tmp/munge.sock" --key-file="$tmp/munge.key" --pid-file="$tmp/munged.pid" \
  --seed-file="$tmp/munged.seed" > "$tmp/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [[ -S $tmp/munge.sock ]] && break; sleep 0.1; done
slurmctld -D -c -i > "$tmp/slurmctld.out" 2>&1 &
ctld_pid=$!
pids+=($!)
slurmd -D -N "$node" > "$tmp/slurmd.out" 2>&1 &
pids+=($!)
state=
for _ in $(seq 60); do
  for pid in "${pids[@]}"; do alive "$pid" || { bad "a daemon exited at start-up (its log below)"; exit 1; }; done
  state=$(timeout 5 sinfo -h -N -o %t 2> /dev/null)
  [[ $state == idle ]] && break
  sleep 0.5
done
[[ $state == idle ]] || { bad "the node is not idle after 30 s (sinfo: '$state')"; exit 1; }

# run_srun SRUN_OPTION... -- CMD...: srun with every output line labelled by its rank ("R: ...")
# and each rank's exit code printed last ("R: exit C"); sets $out, $rc (srun's), $ms and $secs.
# A rank that fails does not make srun kill the others (--kill-on-bad-exit=0): they must end on
# their own.
run_srun() {
  local opts=() start=$EPOCHREALTIME
  while [[ $1 != -- ]]; do opts+=("$1"); shift; done
  shift
  out=$(timeout -k 5 30 srun --label --kill-on-bad-exit=0 "${opts[@]}" bash -c '"$@"; c=$?; echo "exit $c"; exit $c' rank "$@" 2>&1)
  rc=$?
  ms=$(((${EPOCHREALTIME/./} - ${start/./}) / 1000))
  secs=$((ms / 1000))
}
took() { echo "   srun took ${ms} ms"; }
# rank_exit R C WHAT: rank R printed "exit C".
rank_exit() {
  grep -qE "^ *$1: exit $2\$" <<< "$out" || { echo "$out"; bad "$3: rank $1 did not exit $2 (srun rc=$rc)"; }
}

for n in 2 4; do
  t "srun -n $n: allgather and broadcast, every rank knows it was started by Slurm"
  run_srun -n "$n" -- "$check" exchange
  [[ $rc -eq 0 ]] || { echo "$out"; bad "exchange n=$n: srun rc=$rc"; }
  for ((r = 0; r < n; r++)); do
    grep -qE "^ *$r: ok rank $r of $n \(slurm, local rank $r\)\$" <<< "$out" || { echo "$out"; bad "exchange n=$n: rank $r's line"; }
    rank_exit $r 0 "exchange n=$n"
  done
  took
done

t "srun -n 4: pairs of ranks exchange on their own (comm/group_bootstrap, as nodes' pairs of hosts do)"
run_srun -n 4 -- "$check" groups
[[ $rc -eq 0 ]] || { echo "$out"; bad "groups: srun rc=$rc"; }
for r in 0 1 2 3; do
  grep -qE "^ *$r: ok group $((r / 2)) of rank $r\$" <<< "$out" || { echo "$out"; bad "groups: rank $r's line"; }
done
took

t "srun -n 4, rank 1 killed: every other rank ends (exit 4) on its own, naming rank 1"
run_srun -n 4 -- "$check" die 1
# srun exits with the highest code (137, rank 1's); `timeout` would have taken 30 s.
[[ $rc -ne 0 && $secs -lt 20 ]] || { echo "$out"; bad "die: srun rc=$rc after ${secs}s"; }
rank_exit 1 137 "die"
for r in 0 2 3; do rank_exit $r 4 "die"; done
grep -qE "^ *0: .*rank 1 \(.*\) .*died or was killed" <<< "$out" || { echo "$out"; bad "die: rank 0 does not name rank 1"; }
took

# docs/cli.md: under `srun --mpi=pmix` (PMIX_RANK set too) the job is still Slurm's, over TCP.
# Slurm's pmix plugin loads libpmix2, which Open MPI brings (scripts/deps.sh test).
t "srun --mpi=pmix -n 2: still the Slurm launcher, not the MPI plugin"
run_srun -n 2 --mpi=pmix -- "$check" exchange
[[ $rc -eq 0 && $(grep -cE '^ *[01]: ok rank [01] of 2 \(slurm,' <<< "$out") -eq 2 ]] || { echo "$out"; bad "pmix: srun rc=$rc"; }
took

# The real binary: it must find Slurm from srun's variables, meet the other ranks and let rank 0
# alone run the command.
t "fabricbench topo under srun -n 4: rank 0 alone probes and prints, the others follow it"
run_srun -n 4 -- "$bin" topo --no-runtime --json "$tmp/topo.json"
# Exit 1 is an error-level finding about this host, not about the launch.
rank_exit 0 '[01]' "topo"
for r in 1 2 3; do rank_exit $r 0 "topo"; done
[[ $(grep -cE '^ *0: # GPU topology' <<< "$out") -eq 1 ]] || { echo "$out"; bad "topo: rank 0 did not print the topology"; }
grep -vE '^ *[0-3]: exit [0-9]+$' <<< "$out" | grep -qE '^ *[1-3]: ' && { echo "$out"; bad "topo: a rank other than 0 printed"; }
[[ -s $tmp/topo.json ]] || bad "topo: rank 0 wrote no --json"
took

t "fabricbench p2p under srun -n 2: refused, naming srun"
run_srun -n 2 -- "$bin" p2p
[[ $rc -eq 2 ]] || { echo "$out"; bad "p2p: srun rc=$rc"; }
rank_exit 0 2 "p2p"
rank_exit 1 0 "p2p"
grep -qE '^ *0: .*`fabricbench p2p` does not run under srun' <<< "$out" || { echo "$out"; bad "p2p: rank 0's message"; }
took

if ! command -v nvidia-smi > /dev/null; then
  t "fabricbench run under srun -n 2 without a GPU: rank 0's clean error ends the job, rank 1 released"
  run_srun -n 2 -- "$bin" run all_reduce
  [[ $rc -eq 3 ]] || { echo "$out"; bad "no GPU: srun rc=$rc"; }
  rank_exit 0 3 "no GPU"
  rank_exit 1 0 "no GPU"
  grep -qE '^ *0: .*no usable GPU' <<< "$out" || { echo "$out"; bad "no GPU: rank 0's message"; }
  # The control: told to ignore srun's variables, each rank is a job of its own and fails alone.
  run_srun -n 2 -- "$bin" run all_reduce --launcher local
  rank_exit 0 3 "--launcher local"
  rank_exit 1 3 "--launcher local"
  took
fi

# docs/launch.md: a batch script that asked for 2 tasks runs on one host only; fabricbench started
# there without srun is refused at once (before, rank 0 of 2 waited --timeout for a rank 1).
t "fabricbench topo in the batch script of sbatch -n 2, without srun: refused at once, naming srun"
start=$EPOCHREALTIME
# sbatch -W polls every 10 s: poll squeue instead.
job=$(timeout 10 sbatch --parsable -n 2 -o "$tmp/batch.out" --wrap "$(printf '%q' "$bin") topo --no-runtime; echo 'exit '\$?")
for _ in $(seq 100); do [[ -z $(timeout 5 squeue -h -j "$job" 2> /dev/null) ]] && break; sleep 0.1; done
ms=$(((${EPOCHREALTIME/./} - ${start/./}) / 1000))
grep -q '^exit 2$' "$tmp/batch.out" && grep -q "started by sbatch without a launcher step (SLURM_JOB_ID=[0-9]*, SLURM_NTASKS=2,.*srun fabricbench" \
  "$tmp/batch.out" || { cat "$tmp/batch.out"; bad "sbatch without srun: not refused with exit 2"; }
took

[[ $fail -eq 0 ]] && echo "all Slurm checks passed"
exit $fail
