#!/usr/bin/env bash
# The MPI bootstrap against real Open MPI ranks (Debian's openmpi-bin), no GPU needed.
#   mpi_bootstrap.sh CHECK_BINARY FABRICBENCH_BINARY
set -u
check=$1
bin=$2
[[ $(id -u) -eq 0 ]] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi="mpirun --oversubscribe"
fail=0
t() { echo "-- $*"; }

t "exchanges on 3 ranks"
out=$(timeout 60 $mpi -np 3 "$check" 2>&1)
rc=$?
echo "$out"
[[ $rc -eq 0 && $(grep -c '^ok rank' <<< "$out") -eq 3 ]] || { echo "FAIL: 3 ranks, rc=$rc"; fail=1; }

t "a rank that aborts ends the job (no hang)"
start=$(date +%s)
out=$(timeout 60 $mpi -np 3 "$check" abort 2>&1)
rc=$?
secs=$(($(date +%s) - start))
[[ $rc -ne 0 && $rc -ne 124 && $secs -lt 30 ]] || { echo "FAIL: abort: rc=$rc after ${secs}s"; fail=1; }
grep -q "^FAIL" <<< "$out" && { echo "$out"; fail=1; }

# The real binary under mpirun, where there is no GPU: clean errors on rank 0, the other
# ranks released, the job's exit code the error's.
if ! command -v nvidia-smi > /dev/null; then
  t "fabricbench run under mpirun without a GPU"
  out=$(timeout 60 $mpi -np 2 "$bin" run all_reduce 2>&1)
  rc=$?
  [[ $rc -eq 3 ]] && grep -q "no usable GPU" <<< "$out" || { echo "$out"; echo "FAIL: no GPU rc=$rc"; fail=1; }
fi
if ! command -v nvidia-smi > /dev/null; then
  t "doctor --prolog under mpirun without a GPU: the failing verdict written, exit 3"
  tmp=$(mktemp -d)
  out=$(timeout 60 $mpi -np 2 "$bin" doctor --prolog --out "$tmp/res" --prometheus "$tmp/fb-%h.prom" 2>&1)
  rc=$?
  host=$(hostname)
  [[ $rc -eq 3 ]] && grep -q "^fabricbench_verdict{host=\"$host\",status=\"CRITICAL\",action=\"drain\"} 1$" "$tmp/fb-$host.prom" &&
    grep -q '"status": "failed"' "$tmp/res/result.json" && [[ -s "$tmp/res/cluster.prom" ]] ||
    { echo "$out"; ls "$tmp" "$tmp/res"; echo "FAIL: doctor under mpirun rc=$rc"; fail=1; }
  rm -rf "$tmp"
fi
t "usage error under mpirun"
out=$(timeout 60 $mpi -np 2 "$bin" run bogus 2>&1)
rc=$?
[[ $rc -eq 2 ]] && grep -q "unknown collective 'bogus'" <<< "$out" || { echo "$out"; echo "FAIL: usage rc=$rc"; fail=1; }
t "commands that launch their own workers are refused under mpirun"
out=$(timeout 60 $mpi -np 2 "$bin" p2p 2>&1)
rc=$?
[[ $rc -eq 2 ]] && grep -q "does not run under mpirun" <<< "$out" || { echo "$out"; echo "FAIL: p2p rc=$rc"; fail=1; }
# The main command's build (scripts/fabricbench.sh) leaves the plugin beside the binary and installs
# Open MPI with the build set: mpirun finds the plugin there, with no variable naming it.
t "the plugin beside the binary, as scripts/fabricbench.sh builds it"
deps="$(dirname "$0")/../../scripts/deps.sh"
bash "$deps" list build | tr ' ' '\n' | grep -qx libopenmpi-dev ||
  { echo "FAIL: scripts/deps.sh's build set lacks libopenmpi-dev"; fail=1; }
[[ -f "$(dirname "$bin")/libfabricbench_mpi.so" ]] || { echo "FAIL: no libfabricbench_mpi.so beside $bin"; fail=1; }
out=$(env -u FABRICBENCH_MPI_PLUGIN timeout 60 $mpi -np 2 "$bin" run bogus 2>&1)
rc=$?
[[ $rc -eq 2 ]] && grep -q "unknown collective 'bogus'" <<< "$out" || { echo "$out"; echo "FAIL: beside rc=$rc"; fail=1; }
t "without the plugin: a clear error, not a crash"
out=$(FABRICBENCH_MPI_PLUGIN=/nonexistent/libfabricbench_mpi.so timeout 60 $mpi -x FABRICBENCH_MPI_PLUGIN -np 2 "$bin" run all_reduce 2>&1)
rc=$?
[[ $rc -eq 3 ]] && grep -q "MPI plugin could not be loaded" <<< "$out" || { echo "$out"; echo "FAIL: plugin rc=$rc"; fail=1; }
[[ $fail -eq 0 ]] && echo "all MPI checks passed"
exit $fail
