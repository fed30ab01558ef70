#!/usr/bin/env bash
# Several "hosts" on one GPU machine, for the paths that cross hosts (issue 29), with real processes
# and real NCCL traffic: each host is one rank in a UTS namespace of its own (unshare -u; root) with
# its own hostname (fbhost0, fbhost1, ...) and NCCL_HOSTID, all on GPU 0, NCCL over its socket
# transport on loopback (NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_SOCKET_IFNAME=lo).
#   scripts/fake-hosts.sh torchrun|mpirun N COMMAND [ARGS...]
#     torchrun: one torchrun per host (--nnodes N --node-rank i --nproc-per-node 1, rendezvous on
#               127.0.0.1:MASTER_PORT, default 29541); TORCHRUN names it where it is not on PATH
#               (default: the first /opt/*/bin/torchrun)
#     mpirun:   mpirun -np N, each rank in its own namespace (OMPI_ALLOW_RUN_AS_ROOT set for root)
#   e.g. scripts/fake-hosts.sh torchrun 2 build/fabricbench run all_reduce --sizes 1M,64M --json r.json
# Every host's output goes to $OUT/host<i>.log (OUT default fake-hosts-out); the exit code is the
# worst of the hosts'. Not yet here: a host whose link is rate-limited (network namespaces joined by
# veth pairs, shaped with tc), the next step of issue 29.
set -u
launcher=${1:?usage: scripts/fake-hosts.sh torchrun|mpirun N COMMAND [ARGS...]}
hosts=${2:?usage: scripts/fake-hosts.sh torchrun|mpirun N COMMAND [ARGS...]}
shift 2
[[ $# -gt 0 ]] || { echo "usage: scripts/fake-hosts.sh torchrun|mpirun N COMMAND [ARGS...]"; exit 2; }
[[ $hosts =~ ^[1-9][0-9]*$ ]] || { echo "error: N must be a whole number >= 1 (got $hosts)"; exit 2; }
[[ $(id -u) -eq 0 ]] || { echo "error: unshare -u needs root"; exit 3; }
out=${OUT:-fake-hosts-out}
mkdir -p "$out"
export CUDA_VISIBLE_DEVICES=0 NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_SOCKET_IFNAME=lo
command=$(printf '%q ' "$@")
case $launcher in
  torchrun)
    tr=${TORCHRUN:-$(command -v torchrun || ls /opt/*/bin/torchrun 2> /dev/null | head -n 1)}
    [[ -x $tr ]] || { echo "error: no torchrun (set TORCHRUN)"; exit 3; }
    port=${MASTER_PORT:-29541}
    pids=()
    for ((i = 0; i < hosts; i++)); do
      unshare -u bash -c "hostname fbhost$i && NCCL_HOSTID=fbhost$i exec $tr --nnodes $hosts --node-rank $i \
        --nproc-per-node 1 --master-addr 127.0.0.1 --master-port $port --no-python $command" \
        > "$out/host$i.log" 2>&1 &
      pids+=($!)
    done
    worst=0
    for p in "${pids[@]}"; do
      wait "$p"
      rc=$?
      ((rc > worst)) && worst=$rc
    done
    exit $worst
    ;;
  mpirun)
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    mpirun --oversubscribe --bind-to none -np "$hosts" -x CUDA_VISIBLE_DEVICES -x NCCL_P2P_DISABLE -x NCCL_SHM_DISABLE -x NCCL_SOCKET_IFNAME \
      unshare -u bash -c "hostname fbhost\$OMPI_COMM_WORLD_RANK && NCCL_HOSTID=fbhost\$OMPI_COMM_WORLD_RANK \
        exec $command > $out/host\$OMPI_COMM_WORLD_RANK.log 2>&1"
    ;;
  *) echo "error: unknown launcher '$launcher' (torchrun, mpirun)"; exit 2 ;;
esac
