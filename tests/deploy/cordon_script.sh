#!/usr/bin/env bash
# deploy/kubernetes/cordon-failing-nodes.sh against a stand-in kubectl (no cluster here): the pods
# of an Indexed Job (hostname fabricbench-doctor-N, name with a random suffix), a PyTorchJob's Master,
# a node under hostNetwork, and two prolog pods; checks which nodes it cordons, that it cordons
# nothing without --apply, and its exit codes.
#   cordon_script.sh CORDON_SCRIPT
set -u
script=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
t() { echo "-- $*"; }
bad() { echo "FAIL: $*"; fail=1; }

mkdir "$tmp/bin"
cat > "$tmp/bin/kubectl" << 'EOF'
#!/usr/bin/env bash
# Answers what cordon-failing-nodes.sh asks; records every call.
echo "$*" >> "$KUBECTL_LOG"
args=" $* "
case $args in
  *" get pods "*"-l app=fabricbench-prolog"*) printf 'pod/fabricbench-prolog-aaaaa\npod/fabricbench-prolog-bbbbb\npod/fabricbench-prolog-ccccc\n' ;;
  *" get pods "*) printf '%s\n' 'fabricbench-doctor-0 gpu-node-07' 'fabricbench-doctor-0-x7k2p gpu-node-07' \
    'fabricbench-doctor-1 gpu-node-12' 'fabricbench-doctor-1-q9z4m gpu-node-12' \
    ' gpu-node-03' 'fabricbench-nodes-master-0 gpu-node-03' ;;
  *" get nodes "*) printf '%s\n' 'gpu-node-03 gpu-node-03' 'gpu-node-07 gpu-node-07' 'gpu-node-12 gpu-node-12' 'gpu-node-21 gpu-node-21' ;;
  *" logs "*"aaaaa"*) echo "fabricbench-prolog exit 0 action none" ;;
  *" logs "*"bbbbb"*) echo "fabricbench-prolog exit 1 action drain" ;;
  *" logs "*"ccccc"*) echo "fabricbench-prolog exit 2 action fix_configuration" ;;
  *" get "*"pod/fabricbench-prolog-bbbbb"*) echo "gpu-node-21" ;;
  *" cordon "*) echo "node/${*: -1} cordoned" ;;
  *) echo "kubectl stand-in: unexpected: $*" >&2; exit 1 ;;
esac
EOF
chmod +x "$tmp/bin/kubectl"
export PATH=$tmp/bin:$PATH KUBECTL_LOG=$tmp/kubectl.log
cordons() { grep -c '^cordon ' "$KUBECTL_LOG" 2> /dev/null || true; }

# The head of a doctor's Prometheus file across 3 pods: pod 1's host CRITICAL with action drain; the
# third CRITICAL too, but a refused configuration (fix_configuration): level 4, and no reason to cordon.
cat > "$tmp/fb.prom" << 'EOF'
# HELP fabricbench_verdict The verdict per host: 1 for its status (PASS, INFO, UNKNOWN, WARNING, CRITICAL) and recommended action (none, investigate, fix_configuration, drain).
# TYPE fabricbench_verdict gauge
fabricbench_verdict{host="fabricbench-doctor-0",status="WARNING",action="investigate"} 1
fabricbench_verdict{host="fabricbench-doctor-1",status="CRITICAL",action="drain"} 1
fabricbench_verdict{host="gpu-node-03",status="CRITICAL",action="fix_configuration"} 1
# HELP fabricbench_verdict_level The verdict per host as a number: 0 PASS, 1 INFO, 2 UNKNOWN, 3 WARNING, 4 CRITICAL (drain at 4).
# TYPE fabricbench_verdict_level gauge
fabricbench_verdict_level{host="fabricbench-doctor-0"} 3
fabricbench_verdict_level{host="fabricbench-doctor-1"} 4
fabricbench_verdict_level{host="gpu-node-03"} 4
EOF

t "prom: the drain is pod fabricbench-doctor-1 on gpu-node-12 (gpu-node-03's fix_configuration is not cordoned); without --apply, only said"
: > "$KUBECTL_LOG"
out=$(bash "$script" -n fb prom "$tmp/fb.prom")
rc=$?
[[ $rc -eq 1 && $out == "kubectl cordon gpu-node-12  # fabricbench named fabricbench-doctor-1" ]] || { echo "$out"; bad "prom dry run rc=$rc"; }
[[ $(cordons) -eq 0 ]] || bad "prom dry run cordoned"
grep -q -- "get pods -n fb" "$KUBECTL_LOG" || bad "prom: the namespace was not passed"
bash "$script" --apply -n fb prom "$tmp/fb.prom" > /dev/null
[[ $(grep '^cordon ' "$KUBECTL_LOG") == "cordon gpu-node-12" ]] || { cat "$KUBECTL_LOG"; bad "prom --apply"; }

t "exclude: nodes' hostlist line (brackets, zero padding, a hostNetwork node name) to nodes"
: > "$KUBECTL_LOG"
echo "fabricbench-doctor-[0-1],gpu-node-03" > "$tmp/bad-nodes.txt"
out=$(bash "$script" --apply exclude "$tmp/bad-nodes.txt")
rc=$?
[[ $rc -eq 1 && $(grep '^cordon ' "$KUBECTL_LOG" | sort | tr '\n' ' ') == "cordon gpu-node-03 cordon gpu-node-07 cordon gpu-node-12 " ]] ||
  { echo "$out"; cat "$KUBECTL_LOG"; bad "exclude rc=$rc"; }
echo "fabricbench-nodes-master-0" > "$tmp/one.txt"
[[ $(bash "$script" exclude "$tmp/one.txt") == "kubectl cordon gpu-node-03  # fabricbench named fabricbench-nodes-master-0" ]] || bad "exclude: a PyTorchJob Master's pod name"
echo "n[098-100]" > "$tmp/pad.txt"
out=$(bash "$script" exclude "$tmp/pad.txt" 2>&1)
[[ $? -eq 3 && $out == *"'n098' is no pod's host and no node"* ]] || { echo "$out"; bad "exclude: an unknown host is not exit 3"; }

t "prolog: the pod whose check said action drain is on gpu-node-21 (the fix_configuration one is not cordoned)"
: > "$KUBECTL_LOG"
out=$(bash "$script" --apply prolog)
rc=$?
[[ $rc -eq 1 && $(grep '^cordon ' "$KUBECTL_LOG") == "cordon gpu-node-21" ]] || { echo "$out"; cat "$KUBECTL_LOG"; bad "prolog rc=$rc"; }

t "nothing named: exit 0; a bad mode or file: exit 2"
echo "" > "$tmp/empty.txt"
out=$(bash "$script" exclude "$tmp/empty.txt")
[[ $? -eq 0 && $out == "cordon-failing-nodes: no node to cordon" ]] || { echo "$out"; bad "empty exclude file"; }
bash "$script" drain 2> /dev/null
[[ $? -eq 2 ]] || bad "unknown mode not exit 2"
bash "$script" prom "$tmp/missing.prom" 2> /dev/null
[[ $? -eq 2 ]] || bad "missing file not exit 2"

[[ $fail -eq 0 ]] && echo "all cordon script checks passed"
exit $fail
