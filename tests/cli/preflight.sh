#!/usr/bin/env bash
# The preflight of a job across hosts (issue 40, engine/job_preflight) with real processes, no GPU:
# 2 ranks started as torchrun starts them, on "hosts" told apart by NCCL_HOSTID (as NCCL tells them),
# one host with an NCCL_PROTO of its own. run, nodes and the doctor are refused before anything
# touches a GPU (exit 2, the variable and its hosts named, the other rank released); the doctor's
# document says so (status refused, action fix_configuration) and `report --analyse` of it the
# same; --allow-mismatch goes on (to the missing GPU here: exit 3). Every process runs under
# `timeout 60`: a 124 means a rank was left waiting (a failure).
#   preflight.sh FABRICBENCH_BINARY
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# job NAME PROTO1 ARGS...: rank 0 on host cpuA, rank 1 on cpuB with NCCL_PROTO=PROTO1 ("" none).
job() {
  local name=$1 proto=$2 port=$((20000 + RANDOM % 20000)) r
  shift 2
  for r in 0 1; do
    local own=()
    [[ $r == 1 && -n $proto ]] && own=(NCCL_PROTO="$proto")
    env -u NCCL_PROTO RANK=$r WORLD_SIZE=2 LOCAL_RANK=0 LOCAL_WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 \
      MASTER_PORT=$port NCCL_HOSTID=cpu$r "${own[@]}" timeout 60 "$bin" "$@" \
      > "$tmp/$name.$r" 2>&1 &
    eval "pid$r=$!"
  done
  local start=$SECONDS
  wait "$pid0"
  echo $? > "$tmp/$name.rc0"
  wait "$pid1"
  echo $? > "$tmp/$name.rc1"
  echo "$((SECONDS - start))" > "$tmp/$name.secs"
}
rc() { cat "$tmp/$1.rc$2"; }
expect_rc() {  # expect_rc NAME RANK RC
  [[ $(rc "$1" "$2") == "$3" ]] || { cat "$tmp/$1.$2"; bad "$1: rank $2 exited $(rc "$1" "$2"), expected $3"; }
}
says() {  # says NAME RANK TEXT
  grep -qF -- "$3" "$tmp/$1.$2" || { cat "$tmp/$1.$2"; bad "$1: rank $2 does not say: $3"; }
}

mismatch="NCCL_PROTO differs between hosts: not set on cpu0; LL on cpu1"
for cmd in "run all_reduce --sizes 1M" "nodes --size 16M" "algos all_reduce --sizes 1M"; do
  name=${cmd%% *}
  # shellcheck disable=SC2086 # the command's words
  job "$name" LL $cmd
  expect_rc "$name" 0 2
  expect_rc "$name" 1 0
  says "$name" 0 "the hosts of this torchrun job disagree on what NCCL needs alike on every rank"
  says "$name" 0 "$mismatch"
  says "$name" 0 "--allow-mismatch"
  echo "$name refused: exit $(rc "$name" 0) in $(cat "$tmp/$name.secs") s, rank 1 exit $(rc "$name" 1)"
done

job doctor LL doctor --quick --out "$tmp/doc" --prometheus "$tmp/fb-%h.prom"
expect_rc doctor 0 2
expect_rc doctor 1 0
says doctor 0 "$mismatch"
python3 - "$tmp/doc/result.json" << 'PY' || bad "doctor: the document"
import json, sys
d = json.load(open(sys.argv[1]))
env = [f for f in d["findings"] if f["code"] == "HOST_MISMATCH_ENV"]
codes = [f["code"] for f in d["findings"]]
assert d["status"] == "refused" and d["runs"] == [], (d["status"], d["runs"])
assert env and env[0]["severity"] == "error" and "LL on cpu1" in env[0]["evidence"], env
assert d["verdict"]["status"] == "CRITICAL" and d["verdict"]["action"] == "fix_configuration", d["verdict"]
assert "RUN_REFUSED" in codes and "RUN_FAILED" not in codes and "ONE_GPU" not in codes, codes
assert not any("one node" in f["evidence"] for f in d["findings"]), codes
assert [h["name"] for h in d["hosts"]] == ["cpu0", "cpu1"], [h["name"] for h in d["hosts"]]
assert [s["stage"] for s in d["doctor"]["stages"]] == ["preflight"], d["doctor"]["stages"]
print("doctor refused:", d["verdict"]["status"], d["verdict"]["action"], codes)
PY
# Each host's textfile says the job's configuration is at fault, not "not finished" (drain).
for h in cpu0 cpu1; do
  grep -q "^fabricbench_verdict{host=\"$h\",status=\"CRITICAL\",action=\"fix_configuration\"} 1$" "$tmp/fb-$h.prom" ||
    { cat "$tmp/fb-$h.prom" 2> /dev/null | head -5; bad "doctor: $h's textfile does not say CRITICAL, fix_configuration"; }
done
grep -q "^# Refused: the hosts of this job disagree" "$tmp/doc/summary.md" ||
  grep -q "Refused: the hosts of this job disagree" "$tmp/doc/summary.md" || bad "summary.md does not say Refused"
"$bin" report "$tmp/doc/result.json" --analyse > "$tmp/analyse.txt" 2>&1
[[ $? == 1 ]] || bad "report --analyse of the refused document: exit not 1"
grep -q "verdict: CRITICAL (action: fix_configuration" "$tmp/analyse.txt" || { cat "$tmp/analyse.txt"; bad "report --analyse: another verdict"; }
grep -qF "$mismatch" "$tmp/analyse.txt" || bad "report --analyse does not name the variable"

job allow LL run all_reduce --sizes 1M --allow-mismatch
says allow 0 "HOST_MISMATCH_ENV: $mismatch (running anyway: --allow-mismatch)"
[[ $(rc allow 0) != 2 ]] || bad "--allow-mismatch: still refused"
job agree "" run all_reduce --sizes 1M
! grep -q "disagree" "$tmp/agree.0" || bad "hosts that agree: refused"
echo "--allow-mismatch: exit $(rc allow 0) (no GPU here); hosts that agree: exit $(rc agree 0)"

[[ $fail == 0 ]] && echo "ok preflight"
exit $fail
