#!/usr/bin/env bash
# Cordons the Kubernetes nodes that fabricbench named: an example to adapt (docs/launch.md).
#   cordon-failing-nodes.sh [--apply] [-n NAMESPACE] prom FILE      a --prometheus file (cluster.prom, or a
#                                                                  host's): hosts whose verdict's action is drain
#   cordon-failing-nodes.sh [--apply] [-n NAMESPACE] exclude FILE   `nodes --exclude-file`: the slow hosts
#   cordon-failing-nodes.sh [--apply] [-n NAMESPACE] prolog         daemonset-prolog.yaml's pods whose check
#                                                                  said action drain
# The action decides, not the level: a refused configuration is CRITICAL too, but its action is
# fix_configuration (the job's settings, not the node: docs/verdicts.md), and no node is cordoned for it.
# A host fabricbench names is a pod's host name (its spec.hostname, else its name) or, under
# hostNetwork, the node's own; the pods of NAMESPACE say which node each one ran on. Without
# --apply it prints the `kubectl cordon` commands instead of running them.
# Exit codes: 0 nothing to cordon, 1 nodes cordoned (or to cordon), 2 usage, 3 kubectl failed or a
# named host matches no pod or node.
set -u
apply=0
namespace=()
usage() {
  sed -n '3,7p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
while [[ $# -gt 0 ]]; do
  case $1 in
    --apply) apply=1; shift ;;
    -n) [[ $# -ge 2 ]] || usage; namespace=(-n "$2"); shift 2 ;;
    *) break ;;
  esac
done
mode=${1:-}
file=${2:-}
case $mode in
  prom | exclude) [[ -r $file ]] || { echo "cordon-failing-nodes: cannot read '$file'" >&2; exit 2; } ;;
  prolog) ;;
  *) usage ;;
esac

# One line of Slurm's hostlist syntax, as fabricbench writes it (one bracket group per name:
# node[01-03,07],gpu-a[1-2],login), one host per line.
expand_hostlist() {
  local line=$1 items=() cur='' depth=0 ch i item pre ranges post part lo hi k
  for ((i = 0; i < ${#line}; i++)); do
    ch=${line:i:1}
    [[ $ch == '[' ]] && depth=1
    [[ $ch == ']' ]] && depth=0
    if [[ $depth -eq 0 && ($ch == , || $ch == ' ') ]]; then
      [[ -n $cur ]] && items+=("$cur")
      cur=''
    else
      cur+=$ch
    fi
  done
  [[ -n $cur ]] && items+=("$cur")
  for item in "${items[@]}"; do
    if [[ $item =~ ^([^[]*)\[([^]]*)\](.*)$ ]]; then
      pre=${BASH_REMATCH[1]} ranges=${BASH_REMATCH[2]} post=${BASH_REMATCH[3]}
      IFS=, read -ra parts <<< "$ranges"
      for part in "${parts[@]}"; do
        lo=${part%-*} hi=${part#*-}
        for ((k = 10#$lo; k <= 10#$hi; k++)); do printf '%s%0*d%s\n' "$pre" "${#lo}" "$k" "$post"; done
      done
    else
      echo "$item"
    fi
  done
}

# The hosts to cordon, one per line.
named_hosts() {
  case $mode in
    prom) sed -n 's/^fabricbench_verdict{host="\([^"]*\)",status="[A-Z]*",action="drain"} 1$/\1/p' "$file" ;;
    exclude) expand_hostlist "$(head -n 1 "$file")" ;;
    prolog)
      local pod last
      pods=$(kubectl get pods "${namespace[@]}" -l app=fabricbench-prolog -o name) || exit 3
      for pod in $pods; do
        last=$(kubectl logs "${namespace[@]}" "$pod" --tail=1) || exit 3
        [[ $last == "fabricbench-prolog exit "*" action drain" ]] &&
          kubectl get "${namespace[@]}" "$pod" -o jsonpath='{.spec.nodeName}{"\n"}'
      done
      ;;
  esac
}

# "HOST NODE" for every pod of the namespace (its host name and its name) and every node.
table=$(kubectl get pods "${namespace[@]}" \
  -o jsonpath='{range .items[*]}{.spec.hostname}{" "}{.spec.nodeName}{"\n"}{.metadata.name}{" "}{.spec.nodeName}{"\n"}{end}') || exit 3
nodes=$(kubectl get nodes -o jsonpath='{range .items[*]}{.metadata.name}{" "}{.metadata.name}{"\n"}{end}') || exit 3
table+=$'\n'$nodes

mapfile -t hosts < <(named_hosts)
[[ ${#hosts[@]} -eq 0 ]] && { echo "cordon-failing-nodes: no node to cordon"; exit 0; }
declare -A todo=()
for host in "${hosts[@]}"; do
  node=$(awk -v h="$host" '$1 == h && $2 != "" { print $2; exit }' <<< "$table")
  [[ -n $node ]] || { echo "cordon-failing-nodes: '$host' is no pod's host and no node" >&2; exit 3; }
  todo[$node]=$host
done
for node in "${!todo[@]}"; do
  if [[ $apply -eq 1 ]]; then
    kubectl cordon "$node" || exit 3
  else
    echo "kubectl cordon $node  # fabricbench named ${todo[$node]}"
  fi
done
exit 1
