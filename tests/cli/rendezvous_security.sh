#!/usr/bin/env bash
# A job that lets no one in (issue 53, docs/security.md), with real processes on 127.0.0.1 and no GPU:
# an impostor that speaks the real wire protocol (tests/helpers/rendezvous_impostor.cpp) against real
# ranks (tcp_session_check, comm/tcp_session as fabricbench uses it) and the real doctor. Each case
# ends as documented: refused with one line, or ignored and logged while the job goes on; never a
# write the impostor chose, a crash, an unbounded wait or an exit 0 for a failure. Every process runs
# under `timeout 60`: a 124 means a wait that did not end (a failure).
#   rendezvous_security.sh IMPOSTOR TCP_SESSION_CHECK FABRICBENCH RESULTS_FIXTURES MARKER_LIB
set -u
impostor=$1
check=$2
bin=$3
fixtures=$4
marker_lib=$5
tmp=$(mktemp -d)
chmod 755 "$tmp"
fail=0
attacker=""
cleanup() {
  rm -rf "$tmp"
  [[ -n $attacker ]] && userdel "$attacker" 2> /dev/null
}
trap cleanup EXIT
t() { echo "-- $*"; }
bad() { echo "FAIL: $*"; fail=1; }
port() { echo $((20000 + RANDOM % 20000)); }
show() { sed 's/^/   | /' "$1"; }
says() {  # says FILE TEXT
  grep -qF -- "$2" "$1" || { show "$1"; bad "$1 does not say: $2"; }
}
# rank R N P CMD...: rank R of N, torchrun's variables, MASTER_PORT P (the rendezvous is P + 1),
# host cpuR (NCCL_HOSTID), in the background; output in $tmp/R.out, pid in $pid_R.
rank() {
  local r=$1 n=$2 p=$3
  shift 3
  env RANK="$r" WORLD_SIZE="$n" LOCAL_RANK=0 LOCAL_WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 MASTER_PORT="$p" \
    NCCL_HOSTID="cpu$r" timeout 60 "$@" > "$tmp/$r.out" 2>&1 &
  eval "pid_$r=$!"
}
# ends PID NAME: waits, the exit code in $tmp/NAME.rc.
ends() {
  wait "$1"
  echo $? > "$tmp/$2.rc"
}
rc() { cat "$tmp/$1.rc"; }
expect_rc() {  # expect_rc NAME RC FILE
  [[ $(rc "$1") == "$2" ]] || { show "$3"; bad "$1 exited $(rc "$1"), expected $2"; }
}
settle() { sleep 0.5; }

# As root the impostor is another user, who cannot read this user's key folder.
as_attacker=()
if [[ $(id -u) -eq 0 ]]; then
  attacker=fbimpostor$$
  useradd -M -r -s /usr/sbin/nologin "$attacker" || { bad "useradd failed"; attacker=""; }
  [[ -n $attacker ]] && as_attacker=(runuser -u "$attacker" --)
fi

t "a squatted port: the impostor listens first; rank 0 refuses (3), rank 1 never obeys it and ends (3)"
p=$(port)
"${as_attacker[@]}" timeout 60 "$impostor" squat $((p + 1)) 20 "$tmp/pwned.%h.prom" > "$tmp/imp.out" 2>&1 &
imp=$!
sleep 1
rank 0 2 "$p" "$bin" doctor --quick --timeout 6 --out "$tmp/doc0" --prometheus "$tmp/fb.%h.prom"
rank 1 2 "$p" "$bin" doctor --quick --timeout 6 --out "$tmp/doc0" --prometheus "$tmp/fb.%h.prom"
ends "$pid_0" squat0
ends "$pid_1" squat1
kill "$imp" 2> /dev/null
wait "$imp" 2> /dev/null
expect_rc squat0 3 "$tmp/0.out"
expect_rc squat1 3 "$tmp/1.out"
says "$tmp/0.out" "cannot listen at 127.0.0.1 port $((p + 1))"
says "$tmp/1.out" "no rank 0 of this job at 127.0.0.1:$((p + 1))"
sed 's/^/   rank 0: /' "$tmp/0.out"
sed 's/^/   rank 1: /' "$tmp/1.out"
says "$tmp/imp.out" "served a connection"
ls "$tmp" | grep -q pwned && bad "squat: a file the impostor named was written"
[[ $(grep -c . "$tmp/0.out") -le 2 && $(grep -c . "$tmp/1.out") -le 2 ]] || bad "squat: more than a line or two"

t "hellos without the job's secret (none offered, a guessed proof, an invalid host): ignored and logged; the job runs"
p=$(port)
rank 0 2 "$p" "$check" exchange --timeout 30
sleep 0.5
"$impostor" hello $((p + 1)) 1 2 > "$tmp/h1.out" 2>&1
"$impostor" forged $((p + 1)) 1 2 > "$tmp/h2.out" 2>&1
IMPOSTOR_HOST=$'evil\n# forged' "$impostor" hello $((p + 1)) 1 2 > "$tmp/h3.out" 2>&1
rank 1 2 "$p" "$check" exchange --timeout 30
ends "$pid_0" ok0
ends "$pid_1" ok1
expect_rc ok0 0 "$tmp/0.out"
expect_rc ok1 0 "$tmp/1.out"
says "$tmp/0.out" "it did not offer to prove the job's secret"
says "$tmp/0.out" "it did not prove the job's secret (it says it is rank 1 on impostor)"
says "$tmp/0.out" "an invalid hello (its host is not a host name)"
says "$tmp/h2.out" "challenge: received"
grep "ignored" "$tmp/0.out" | sed 's/^/   /'
grep -q "^ok rank 0 of 2" "$tmp/0.out" || bad "the job after the impostors: rank 0 did not finish its exchanges"

t "a job across hosts without a secret is refused at once (2); --insecure-rendezvous lets it meet"
addr=$(hostname -I 2> /dev/null | awk '{print $1}')
if [[ -z $addr || $addr == 127.* ]]; then
  echo "SKIP: this host has no address but loopback"
else
  p=$(port)
  for r in 0 1; do
    env RANK=$r WORLD_SIZE=2 LOCAL_RANK=0 LOCAL_WORLD_SIZE=1 MASTER_ADDR="$addr" MASTER_PORT=$p \
      timeout 60 "$check" exchange --timeout 10 > "$tmp/m$r.out" 2>&1 &
    eval "pid_m$r=$!"
  done
  ends "$pid_m0" multi0
  ends "$pid_m1" multi1
  expect_rc multi0 2 "$tmp/m0.out"
  expect_rc multi1 2 "$tmp/m1.out"
  says "$tmp/m0.out" "a job across hosts needs a shared secret"
  for r in 0 1; do
    env RANK=$r WORLD_SIZE=2 LOCAL_RANK=0 LOCAL_WORLD_SIZE=1 MASTER_ADDR="$addr" MASTER_PORT=$((p + 7)) \
      FABRICBENCH_INSECURE_RENDEZVOUS=1 timeout 60 "$check" exchange --timeout 10 > "$tmp/m$r.out" 2>&1 &
    eval "pid_m$r=$!"
  done
  ends "$pid_m0" insecure0
  ends "$pid_m1" insecure1
  expect_rc insecure0 0 "$tmp/m0.out"
  expect_rc insecure1 0 "$tmp/m1.out"
  for r in 0 1; do
    env RANK=$r WORLD_SIZE=2 LOCAL_RANK=0 LOCAL_WORLD_SIZE=1 MASTER_ADDR="$addr" MASTER_PORT=$((p + 13)) \
      FABRICBENCH_JOB_SECRET=0123456789abcdef0123 timeout 60 "$check" exchange --timeout 10 > "$tmp/m$r.out" 2>&1 &
    eval "pid_m$r=$!"
    if [[ $r == 0 ]]; then  # rank 0 listens where MASTER_ADDR points, not on every address
      sleep 1
      bound=$(ss -ltnH "sport = :$((p + 14))" 2> /dev/null | awk '{print $4}')
      [[ $bound == "$addr:$((p + 14))" ]] || bad "rank 0 listens at '$bound', not $addr:$((p + 14))"
      echo "   rank 0 listens at $bound"
    fi
  done
  ends "$pid_m0" secret0
  ends "$pid_m1" secret1
  expect_rc secret0 0 "$tmp/m0.out"
  expect_rc secret1 0 "$tmp/m1.out"
  [[ $(grep -c "^ok rank" "$tmp/m0.out") -eq 1 ]] || bad "secret across hosts: rank 0 not ok"
fi

t "4 idle connections and a 1 GiB hello: each dropped on its own; the job meets at once"
p=$(port)
rank 0 2 "$p" /usr/bin/time -f "maxrss %M KiB" "$check" exchange --timeout 30
sleep 0.5
"$impostor" idle $((p + 1)) 4 40 > "$tmp/idle.out" 2>&1 &
idle=$!
sleep 0.5
"$impostor" big-hello $((p + 1)) > "$tmp/big.out" 2>&1
start=$SECONDS
rank 1 2 "$p" "$check" exchange --timeout 30
ends "$pid_0" idle0
ends "$pid_1" idle1
secs=$((SECONDS - start))
kill "$idle" 2> /dev/null
wait "$idle" 2> /dev/null
expect_rc idle0 0 "$tmp/0.out"
expect_rc idle1 0 "$tmp/1.out"
[[ $secs -lt 10 ]] || bad "idle connections: the job took ${secs} s"
says "$tmp/0.out" "a frame 'H' of 1073741824 bytes, more than the 4096 it may carry"
rss=$(sed -n 's/^maxrss \([0-9]*\) KiB$/\1/p' "$tmp/0.out")
[[ -n $rss && $rss -lt 200000 ]] || bad "1 GiB hello: rank 0 grew to ${rss:-?} KiB"
echo "   rank 0's peak memory with 4 idle connections and a 1 GiB hello: $rss KiB; the job met in ${secs} s"

t "a rank with the secret floods exchanges: the job ends (4), naming it; rank 0's memory stays bounded"
p=$(port)
rank 0 2 "$p" /usr/bin/time -f "maxrss %M KiB" "$check" exchange --timeout 30
sleep 0.5
timeout 60 "$impostor" flood $((p + 1)) 1 2 > "$tmp/flood.out" 2>&1
ends "$pid_0" flood0
expect_rc flood0 4 "$tmp/0.out"
says "$tmp/0.out" "rank 1 (impostor) sent a second exchange before rank 0 answered its first"
rss=$(sed -n 's/^maxrss \([0-9]*\) KiB$/\1/p' "$tmp/0.out")
[[ -n $rss && $rss -lt 200000 ]] || bad "flood: rank 0 grew to ${rss:-?} KiB"
echo "   $(cat "$tmp/flood.out"); rank 0's peak memory $rss KiB"

# doctor_with CASE IMPOSTOR_ARGS...: the real doctor as rank 0 of 2 (--timeout 5), the impostor as rank 1;
# the doctor's time in $secs; its first error line said.
doctor_with() {
  local name=$1 p imp start
  shift
  p=$(port)
  start=$SECONDS
  rank 0 2 "$p" "$bin" doctor --quick --timeout 5 --out "$tmp/$name" --prometheus "$tmp/$name.%h.prom"
  sleep 0.5
  timeout 60 "$impostor" "$1" $((p + 1)) 1 2 "${@:2}" > "$tmp/$name.imp" 2>&1 &
  imp=$!
  ends "$pid_0" "$name"
  secs=$((SECONDS - start))
  kill "$imp" 2> /dev/null
  wait "$imp" 2> /dev/null
  echo "   exit $(rc "$name") in ${secs} s: $(grep -m1 'error' "$tmp/0.out")"
}
status_of() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["status"], d["verdict"]["status"], d["verdict"]["action"])' "$1/result.json" 2> /dev/null; }

for fatal in '{"code":0,"text":"all good"}' '{"code":77,"text":"my choice"}' '{"code":"zero","text":5,"step":[1]}' '[[[[["x"]]]]]'; do
  t "a failure frame $fatal from a rank: the doctor exits 4, never 0 or the peer's code, no crash"
  doctor_with fatal fatal "$fatal"
  expect_rc fatal 4 "$tmp/0.out"
  says "$tmp/0.out" "rank 1 (impostor)"
  [[ $(status_of "$tmp/fatal") == "failed CRITICAL drain" ]] || { show "$tmp/0.out"; bad "fatal: the document says $(status_of "$tmp/fatal")"; }
  rm -rf "$tmp/fatal"
done

t "a rank that joins and says nothing: the doctor ends after --timeout 5 (and 5 s), naming it (4)"
doctor_with silent silent
expect_rc silent 4 "$tmp/0.out"
says "$tmp/0.out" "rank 1 (impostor) said nothing for 10 s while rank 0 waited for its part of an exchange"
[[ $secs -lt 30 ]] || bad "silent rank: the doctor took ${secs} s"

t "a host section nested 300,000 deep: refused in one line, no crash (4)"
python3 -c 'print("{\"name\":\"impostor\",\"x\":" + "[" * 300000 + "]" * 300000 + "}")' > "$tmp/deep.json"
doctor_with deep follow "$tmp/deep.json"
expect_rc deep 4 "$tmp/0.out"
says "$tmp/0.out" "nested deeper than 64 levels"

t "a document nested 300,000 deep (report FILE): one line of error (2), no crash"
python3 -c 'print("{\"schema\":\"fabricbench.result/1.4\",\"a\":" + "[" * 300000 + "]" * 300000 + "}")' > "$tmp/deep-doc.json"
out=$("$bin" report "$tmp/deep-doc.json" 2>&1)
code=$?
[[ $code -eq 2 && $(grep -c . <<< "$out") -eq 1 && $out == *"nested deeper than 64 levels"* ]] ||
  { echo "$out" | head -3; bad "report of a 300,000-level file: exit $code"; }

t "a forged host section naming another host: that host is the sender's, never the named one"
python3 - "$tmp/forged.json" "$fixtures/cpu-2host-torchrun-refused.json" << 'PY'
import json, sys
# A real host section (of a refused 2-host job), renamed to a host outside the job, its GPU named there.
section = json.load(open(sys.argv[2]))["hosts"][1]
section["name"] = section["host"]["hostname"] = "victim-node"
for g in section.get("gpus", []):
    g["host"] = "victim-node"
section["ranks"] = [0, 1]
section["verdict"].update(status="CRITICAL", action="drain")
json.dump(section, open(sys.argv[1], "w"))
PY
doctor_with forged follow "$tmp/forged.json"
grep -rl "victim-node" "$tmp"/forged* "$tmp/forged" 2> /dev/null | grep -v "forged.json$" | grep -q . &&
  { grep -rn "victim-node" "$tmp/forged" "$tmp"/forged.*.prom 2> /dev/null | head -3; bad "forged: a host named by another rank's section reached the outputs"; }
[[ $(rc forged) -ne 0 ]] || bad "forged: exit 0"
echo "   the doctor with a forged section: exit $(rc forged); $(status_of "$tmp/forged")"

t "a rank 0 that holds the secret names a path and a library: rank 1 writes at its own --prometheus, loads nothing it named"
p=$(port)
export FABRICBENCH_JOB_SECRET=0123456789abcdef0123456789abcdef
timeout 60 "$impostor" root $((p + 1)) "$tmp/pwned.%h.prom" "$marker_lib" > "$tmp/root.imp" 2>&1 &
imp=$!
sleep 0.5
FB_LOADED_MARKER=$tmp/loaded rank 1 2 "$p" "$bin" doctor --quick --timeout 10 --out "$tmp/r1" --prometheus "$tmp/own.%h.prom"
ends "$pid_1" root1
wait "$imp"
unset FABRICBENCH_JOB_SECRET
sed 's/^/   /' "$tmp/root.imp"
[[ -e $tmp/own.cpu1.prom && $(cat "$tmp/own.cpu1.prom") == "pwned 1" ]] || bad "rank 1 did not write its host's text at its own --prometheus"
ls "$tmp" | grep -q "^pwned" && bad "rank 1 wrote at the path rank 0 named"
[[ -e $tmp/loaded ]] && bad "rank 1 loaded the library rank 0 named"
[[ $(rc root1) == 4 ]] || { show "$tmp/1.out"; bad "rank 1 after a message that is no request: exit $(rc root1), expected 4"; }
says "$tmp/1.out" "rank 0's message is not a plan"

t "a host name with a newline: that rank refuses to start (2), in one line"
out=$(env RANK=1 WORLD_SIZE=2 LOCAL_RANK=0 MASTER_ADDR=127.0.0.1 MASTER_PORT=$(port) NCCL_HOSTID=$'evil\n# forged' \
  timeout 60 "$check" exchange --timeout 5 2>&1)
code=$?
[[ $code -eq 2 && $(grep -c . <<< "$out") -eq 1 && $out == *"is not a host name"* ]] || { echo "$out"; bad "newline host: exit $code"; }

[[ $fail -eq 0 ]] && echo "all rendezvous security checks passed"
exit $fail
