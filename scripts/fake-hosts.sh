#!/usr/bin/env bash
# Several "hosts" on one GPU machine, for the paths that cross hosts (issue 29), with real processes
# and real NCCL traffic: each host is one rank in a UTS namespace of its own (unshare -u; root) with
# its own hostname (fbhost0, fbhost1, ...) and NCCL_HOSTID, all on GPU 0, NCCL over its socket
# transport (NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1).
#   scripts/fake-hosts.sh torchrun|mpirun N COMMAND [ARGS...]
#     torchrun: one torchrun per host (--nnodes N --node-rank i --nproc-per-node 1, rendezvous on
#               host 0, MASTER_PORT default 29541); TORCHRUN names it where it is not on PATH
#               (default: the first /opt/*/bin/torchrun)
#     mpirun:   mpirun -np N, each rank in its own namespaces (OMPI_ALLOW_RUN_AS_ROOT set for root)
#   e.g. scripts/fake-hosts.sh torchrun 2 build/fabricbench run all_reduce --sizes 1M,64M --json r.json
# By default the hosts share the loopback interface. NETNS=1 gives each host a network namespace of
# its own, joined to the others by a veth pair on a bridge (10.77.0.<i+1>/24 on its interface fb0),
# and SLOW_HOST=i (implies NETNS=1) shapes host i's link with tc's token bucket to SLOW_RATE (default
# 1gbit) each way: a slow host made real. ip and tc come from the PATH or from NETNS_TOOLS (default
# .netns-tools, made by scripts/netns-tools.sh); the namespaces and the bridge are removed at exit.
# STARVE_HOST=i starves host i of CPU instead: its processes (the launcher's agent and its rank) pinned to
# one core (STARVE_CORE, default the last) beside STARVE_LOOPS (default 4) busy loops on that core, so the
# host is slow, not its link; the loops end at exit.
# HOST_ENV="i:NAME=VALUE ..." sets NAME=VALUE in host i's environment only (its own NCCL settings, as a
# host whose profile or image sets them: the job's preflight must catch it); entries are separated
# by spaces, so a VALUE has none.
# Every host's output goes to $OUT/host<i>.log (OUT default fake-hosts-out); the exit code is the
# worst of the hosts'.
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
# The "hosts" meet over fabricbench's TCP rendezvous as hosts do: with the job's secret (docs/security.md).
FABRICBENCH_JOB_SECRET=${FABRICBENCH_JOB_SECRET:-$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')}
export FABRICBENCH_JOB_SECRET
netns=${NETNS:-0}
if [[ -n ${SLOW_HOST:-} ]]; then
  [[ $SLOW_HOST =~ ^[0-9]+$ && $SLOW_HOST -lt $hosts ]] ||
    { echo "error: SLOW_HOST must be a host number from 0 to $((hosts - 1)) (got $SLOW_HOST)"; exit 2; }
  netns=1
fi
master=127.0.0.1
starve_host=${STARVE_HOST:-}
starve_core=${STARVE_CORE:-$(($(nproc) - 1))}
if [[ -n $starve_host ]]; then
  [[ $starve_host =~ ^[0-9]+$ && $starve_host -lt $hosts ]] ||
    { echo "error: STARVE_HOST must be a host number from 0 to $((hosts - 1)) (got $starve_host)"; exit 2; }
  [[ ${STARVE_LOOPS:-4} =~ ^[0-9]+$ ]] || { echo "error: STARVE_LOOPS must be a whole number"; exit 2; }
  command -v taskset > /dev/null || { echo "error: no taskset (util-linux)"; exit 3; }
fi

# ip/tc from the PATH, else Debian's unpacked by scripts/netns-tools.sh (their libraries only for them).
tools=$(realpath -m "${NETNS_TOOLS:-.netns-tools}")
net() {
  local tool=$1
  shift
  if command -v "$tool" > /dev/null; then
    "$tool" "$@"
  else
    LD_LIBRARY_PATH=$tools/lib "$tools/bin/$tool" "$@"
  fi
}
# A rank still exiting keeps its namespace, and so its veth, alive past `ip netns del`: the links are
# deleted by name too, here and before the network is made (a previous run's leftovers).
cleanup() {
  for ((i = 0; i < hosts; i++)); do
    net ip netns del "fbhost$i" 2> /dev/null
    net ip link del "fbv$i" 2> /dev/null
  done
  net ip link del fbbr0 2> /dev/null
}
# The bridge, and per host a namespace whose fb0 is one end of a veth pair on it.
make_network() {
  net ip -V > /dev/null || { echo "error: no ip (run scripts/netns-tools.sh, or set NETNS_TOOLS)"; exit 3; }
  cleanup
  trap cleanup EXIT
  # The bridge's own address (.254) is where mpirun's PMIx server listens for ranks in the namespaces.
  net ip link add fbbr0 type bridge && net ip addr add 10.77.0.254/24 dev fbbr0 && net ip link set fbbr0 up || exit 3
  for ((i = 0; i < hosts; i++)); do
    net ip netns add "fbhost$i" && net ip link add "fbv$i" type veth peer name fb0 netns "fbhost$i" &&
      net ip link set "fbv$i" master fbbr0 up && net ip -n "fbhost$i" addr add "10.77.0.$((i + 1))/24" dev fb0 &&
      net ip -n "fbhost$i" link set fb0 up && net ip -n "fbhost$i" link set lo up || exit 3
  done
  if [[ -n ${SLOW_HOST:-} ]]; then
    local rate=${SLOW_RATE:-1gbit}
    net tc -n "fbhost$SLOW_HOST" qdisc add dev fb0 root tbf rate "$rate" burst 256kb latency 100ms &&
      net tc qdisc add dev "fbv$SLOW_HOST" root tbf rate "$rate" burst 256kb latency 100ms || exit 3
    echo "fbhost$SLOW_HOST: its link shaped to $rate each way (tc tbf)"
  fi
  export NCCL_SOCKET_IFNAME=fb0
  master=10.77.0.1
}
# Runs COMMAND as host $1: in its network namespace (NETNS=1), in a UTS namespace with its hostname,
# with its NCCL_HOSTID and its HOST_ENV entries, pinned to the starved core if it is STARVE_HOST. The
# words go through as they are: no shell string to quote.
in_host() {
  local i=$1 entry
  shift
  local pre=() own=()
  [[ $i == "${starve_host:-}" ]] && pre=(taskset -c "$starve_core")
  [[ $netns == 1 ]] && pre+=(nsenter "--net=/run/netns/fbhost$i")
  for entry in ${host_env:-}; do
    [[ ${entry%%:*} == "$i" ]] && own+=("${entry#*:}")
  done
  "${pre[@]}" unshare -u env "NCCL_HOSTID=fbhost$i" "${own[@]}" bash -c 'hostname "$0" && exec "$@"' "fbhost$i" "$@"
}
host_env=${HOST_ENV:-}
for entry in $host_env; do
  [[ $entry =~ ^[0-9]+:[A-Za-z_][A-Za-z0-9_]*= ]] ||
    { echo "error: HOST_ENV entries are i:NAME=VALUE (got '$entry')"; exit 2; }
done

[[ $netns == 1 ]] && make_network
# The busy loops that starve STARVE_HOST's core, ended at exit (with the network, where there is one).
spinners=()
if [[ -n $starve_host ]]; then
  for ((k = 0; k < ${STARVE_LOOPS:-4}; k++)); do
    taskset -c "$starve_core" bash -c 'while :; do :; done' &
    spinners+=($!)
  done
  trap 'kill "${spinners[@]}" 2> /dev/null; [[ $netns == 1 ]] && cleanup' EXIT
  echo "fbhost$starve_host: its processes pinned to CPU $starve_core beside ${#spinners[@]} busy loops"
fi
case $launcher in
  torchrun)
    tr=${TORCHRUN:-$(command -v torchrun || ls /opt/*/bin/torchrun 2> /dev/null | head -n 1)}
    [[ -x $tr ]] || { echo "error: no torchrun (set TORCHRUN)"; exit 3; }
    port=${MASTER_PORT:-29541}
    pids=()
    for ((i = 0; i < hosts; i++)); do
      in_host "$i" "$tr" --nnodes "$hosts" --node-rank "$i" --nproc-per-node 1 --master-addr "$master" \
        --master-port "$port" --no-python "$@" > "$out/host$i.log" 2>&1 &
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
    # A rank in its own network namespace cannot reach PMIx's server on the host's loopback: let the
    # server listen on the bridge (remote connections, the first interface not loopback: fbbr0).
    [[ $netns == 1 ]] && export PMIX_MCA_ptl_tcp_remote_connections=1 PMIX_MCA_ptl_base_remote_connections=1 \
      PMIX_MCA_ptl_tcp_if_include=fbbr0 PMIX_MCA_ptl_base_if_include=fbbr0 OMPI_MCA_btl=self,vader
    rank_script=$(mktemp)  # each rank runs in_host with the command's words as they are
    {
      declare -f in_host
      echo "netns=$netns"
      echo "starve_host=$(printf '%q' "$starve_host") starve_core=$starve_core"
      echo "host_env=$(printf '%q' "$host_env")"
      echo "in_host \$OMPI_COMM_WORLD_RANK $(printf '%q ' "$@") > $(printf '%q' "$out")/host\$OMPI_COMM_WORLD_RANK.log 2>&1"
    } > "$rank_script"
    mpirun --oversubscribe --bind-to none -np "$hosts" -x CUDA_VISIBLE_DEVICES -x NCCL_P2P_DISABLE \
      -x NCCL_SHM_DISABLE -x NCCL_SOCKET_IFNAME bash "$rank_script"
    rc=$?
    rm -f "$rank_script"
    exit $rc
    ;;
  *) echo "error: unknown launcher '$launcher' (torchrun, mpirun)"; exit 2 ;;
esac
