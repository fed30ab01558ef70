#!/usr/bin/env bash
# GPU tests across fake hosts on one GPU (label `gpu`; root, and ip/tc on the PATH or in .netns-tools:
# scripts/netns-tools.sh): scripts/fake-hosts.sh's hosts, each in its own network namespace.
#   fake_hosts_tests.sh CASE FABRICBENCH_BINARY
#   nodes_torchrun, nodes_mpirun  `nodes --size 16M` on each host count of FB_HOSTS (default "4 8 12"), for
#                                 each kind of FB_KINDS (default "healthy link cpu"): healthy, none named (exit 0,
#                                 empty exclude file); one host (fbhost2 of 4, else fbhost5) slowed by its link
#                                 (tc, 1 Gbit/s) or by CPU starvation (its processes on one core beside busy
#                                 loops): exactly it named, with its pair figures, in the output, the document
#                                 and the exclude file (exit 1)
#   doctor_nodes_torchrun, doctor_nodes_mpirun
#                                 the same with `doctor --quick`, each within 25 s from launch: the host named
#                                 in the cluster line, its own section (NODE_SLOW) and the exclude file
#   doctor_hosts                  doctor --quick on 2 hosts: one result, 2 host sections, NET_SOCKET,
#                                 no ONE_GPU and nothing held against NVLink
#   doctor_kill                   kill -9 of host 1's rank once the collectives stage has begun: every rank
#                                 ends within --timeout, rank 1, fbhost1 and the stage named, the points
#                                 kept, the hosts judged (no ONE_GPU, no "one node"); fbhost1's textfile
#                                 keeps the "not finished" CRITICAL written at the start
#   doctor_host_files             doctor --prolog --prometheus 'fb-%h.prom' on 2 hosts: one file per host,
#                                 each with only its host's series (promtool accepts each), and the
#                                 cluster's cluster.prom in --out with both hosts
#   preflight_torchrun, preflight_mpirun
#                                 2 hosts, NCCL_PROTO set on fbhost1 only: doctor --quick refused (exit 2; under
#                                 torchrun, which exits 1 for any failed worker, the rank's own code from its
#                                 log) within 15 s of its own start before any collective, HOST_MISMATCH_ENV an
#                                 error naming fbhost1 and NCCL_PROTO, action fix_configuration; run and nodes
#                                 refused too; NCCL_P2P_NET_CHUNKSIZE on fbhost1 refused likewise; with
#                                 --allow-mismatch the doctor measures and keeps the finding
#   config_hang                   2 hosts under torchrun, NCCL_P2P_NET_CHUNKSIZE on fbhost1 only, doctor --quick
#                                 --allow-mismatch --timeout 10: the collective that hangs ends the run, and the
#                                 verdict's action is fix_configuration with the difference named as the likely
#                                 cause (not drain)
# FB_TABLE=FILE: every run of the slow-host cases appends "case hosts kind named seconds rc" to FILE.
# Each case fails loudly; none skips.
set -u
case_name=$1
bin=$(realpath "$2")
here=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
# FB_KEEP_RESULTS=DIR keeps every result.json written, as DIR/CASE-FOLDER.json (fixtures of real runs), and
# the hosts' logs beside them.
keep() {
  [[ -n ${FB_KEEP_RESULTS:-} ]] || return 0
  mkdir -p "$FB_KEEP_RESULTS"
  for f in "$tmp"/*/result.json; do
    [[ -f $f ]] && cp "$f" "$FB_KEEP_RESULTS/$case_name-$(basename "$(dirname "$f")").json"
  done
  for f in "$tmp"/*/host*.log; do  # the hosts' own logs too (STAMP=1: with the seconds of each line)
    [[ -f $f ]] && cp "$f" "$FB_KEEP_RESULTS/$case_name-$(basename "$(dirname "$f")")-$(basename "$f")"
  done
}
trap 'keep; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
hosts() { (cd "$here" && NETNS=1 OUT="$tmp/$1" timeout 300 scripts/fake-hosts.sh "${@:2}"); }

# slow_index N: the host slowed in an N-host case (fbhost2 of 4, as before; fbhost5 of more, as issue 50 saw).
slow_index() { if (($1 == 4)); then echo 2; else echo 5; fi; }

# slow_run CASE LAUNCHER N KIND COMMAND...: one run on N hosts with host slow_index(N) slowed by KIND (link:
# tc; cpu: starved; healthy: none), its logs in $tmp/RUN and its document in $tmp/RUN-res (RUN=CASE-N-KIND);
# sets run, rc, took (seconds of the whole case: the namespaces' set-up and removal included) and launched
# (the launcher's own seconds, from its start to its last rank's exit: what the 25 s limit holds).
slow_run() {
  local name=$1 launcher=$2 n=$3 kind=$4 start slow
  shift 4
  run=$name-$n-$kind
  slow=$(slow_index "$n")
  mkdir -p "$tmp/$run-res"
  start=$SECONDS
  case $kind in
    link) SLOW_HOST=$slow hosts "$run" "$launcher" "$n" "$@" > /dev/null ;;
    cpu) STARVE_HOST=$slow hosts "$run" "$launcher" "$n" "$@" > /dev/null ;;
    healthy) hosts "$run" "$launcher" "$n" "$@" > /dev/null ;;
    *) fail "unknown kind $kind (healthy, link, cpu)" ;;
  esac
  rc=$?
  took=$((SECONDS - start))
  launched=$(cat "$tmp/$run/launcher_seconds" 2> /dev/null || echo "$took")
}

# check_named DOCUMENT WANT: WANT (a host, or "" for none) is exactly what the document names, with
# NODE_SLOW evidence that cites its pairs; other hosts' sections (the doctor's) hold no NODE_SLOW.
check_named() {
  python3 - "$1" "$2" << 'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want = sys.argv[2]
n = d["nodes"]
slow = [f for f in d["findings"] if f["code"] == "NODE_SLOW"]
print("  named", n["named"], "reference", round(n["reference_gbps"], 3), "slow below", round(n["slow_below_gbps"], 3),
      "pairs", len(n["pairs"]), "mode", n.get("mode"))
if want:
    mine = [(p["b"] if p["a"] == want else p["a"], round(p["busbw_gbps"], 3)) for p in n["pairs"] if want in (p["a"], p["b"])]
    print("  " + want + "'s pairs:", mine)
    assert n["named"] == [want] and n["exclude"] == want, (n["named"], n["exclude"])
    assert len(slow) == 1 and slow[0]["evidence"].startswith(want + ":") and "GB/s" in slow[0]["evidence"], slow
else:
    assert n["named"] == [] and not slow, (n["named"], slow)
for h in d.get("hosts", []):
    mark = any(f["code"] == "NODE_SLOW" for f in h.get("findings", []))
    assert mark == (h["name"] == want) or not d.get("doctor"), (h["name"], mark)
others = [f["code"] for f in d["findings"] if f["code"].startswith("NODE_") and f["code"] not in ("NODE_SLOW", "NODE_SLOW_LINK")]
assert not others, others
PY
}

# slow_hosts_case CMD LAUNCHER: CMD (nodes or doctor) on every host count and kind; every run checked, a
# line of the table each, the case failed at the end if any run failed.
slow_hosts_case() {
  local cmd=$1 launcher=$2 n kind want failed=0 limit=0
  [[ $cmd == doctor ]] && limit=25
  for n in ${FB_HOSTS:-4 8 12}; do
    for kind in ${FB_KINDS:-healthy link cpu}; do
      want=""
      [[ $kind != healthy ]] && want=fbhost$(slow_index "$n")
      if [[ $cmd == nodes ]]; then
        slow_run "$cmd-$launcher" "$launcher" "$n" "$kind" "$bin" nodes --size 16M --json "$tmp/$cmd-$launcher-$n-$kind-res/result.json" \
          --exclude-file "$tmp/$cmd-$launcher-$n-$kind.exclude"
      else
        slow_run "$cmd-$launcher" "$launcher" "$n" "$kind" "$bin" doctor --quick --out "$tmp/$cmd-$launcher-$n-$kind-res" \
          --exclude-file "$tmp/$cmd-$launcher-$n-$kind.exclude"
      fi
      local excluded
      excluded=$(cat "$tmp/$run.exclude" 2> /dev/null)
      echo "$run: exit $rc in $launched s from the launcher's start ($took s with the namespaces); named '${excluded}'"
      grep -E "doctor \[|The cluster|cut |named|^nodes:" "$tmp/$run/host0.log" | cut -c1-220
      local ok=1
      check_named "$tmp/$run-res/result.json" "$want" || ok=0
      [[ $excluded == "$want" ]] || { echo "FAIL $run: exclude file '$excluded', expected '$want'"; ok=0; }
      if [[ $cmd == nodes ]]; then
        [[ $rc == $([[ -n $want ]] && echo 1 || echo 0) ]] || { echo "FAIL $run: exit $rc"; ok=0; }
      else
        [[ $rc == 0 || $rc == 1 ]] || { echo "FAIL $run: exit $rc ($(tail -3 "$tmp/$run/host0.log"))"; ok=0; }
        awk -v t="$launched" -v l="$limit" 'BEGIN { exit !(t <= l) }' ||
          { echo "FAIL $run: $launched s from the launcher's start, expected within $limit s"; ok=0; }
        [[ -z $want ]] || grep -q "$want (" "$tmp/$run-res/summary.md" || { echo "FAIL $run: summary.md does not name $want"; ok=0; }
      fi
      ((ok)) || failed=1
      [[ -n ${FB_TABLE:-} ]] && echo "$cmd-$launcher $n $kind ${excluded:-none} $launched/$took $rc $([[ $ok == 1 ]] && echo ok || echo FAIL)" >> "$FB_TABLE"
    done
  done
  ((failed == 0)) || fail "a run above failed"
}

# rank_exit LOG_DIR RC LAUNCHER: the exit code of the failed rank: torchrun exits 1 for any failed worker
# and logs the worker's own code ("exitcode  : 2 (pid: ...)"); mpirun passes the rank's code on.
rank_exit() {
  local code
  [[ $3 == torchrun && $2 == 1 ]] || { echo "$2"; return; }
  code=$(grep -ho "exitcode *: *[0-9]*" "$1"/host*.log | grep -o "[0-9]*$" | sort -n | tail -1)
  echo "${code:-$2}"
}

# preflight_case LAUNCHER: a host's own NCCL_PROTO stops the job before its first collective.
preflight_case() {
  local launcher=$1 start rc took
  start=$SECONDS
  HOST_ENV="1:NCCL_PROTO=LL" hosts refuse "$launcher" 2 "$bin" doctor --quick --out "$tmp/res" > /dev/null
  rc=$(rank_exit "$tmp/refuse" $? "$launcher")
  took=$((SECONDS - start))
  grep -E "disagree|HOST_MISMATCH" "$tmp/refuse/host0.log" | cut -c1-240
  echo "doctor refused: the rank's exit $rc, ${took} s from launch ($launcher's start included)"
  [[ $rc == 2 ]] || fail "doctor: exit $rc, expected 2 ($(tail -3 "$tmp/refuse/host0.log"))"
  python3 - "$tmp/res/result.json" << 'PY' || fail "doctor: the document"
import datetime, json, sys
d = json.load(open(sys.argv[1]))
env = [f for f in d["findings"] if f["code"] == "HOST_MISMATCH_ENV"]
at = lambda s: datetime.datetime.fromisoformat(s.replace("Z", "+00:00"))
own = (at(d["finished"]) - at(d["started"])).total_seconds()
print(d["status"], d["verdict"]["status"], d["verdict"]["action"], "| refused", round(own, 1), "s after its start |",
      env[0]["evidence"] if env else None)
assert own <= 15, f"refused {own} s after the doctor started, expected within 15 s"
assert d["status"] == "refused" and d["runs"] == [], (d["status"], len(d["runs"]))
assert env and env[0]["severity"] == "error" and "NCCL_PROTO" in env[0]["evidence"], env
assert "LL on fbhost1" in env[0]["evidence"], env[0]["evidence"]
assert d["verdict"]["action"] == "fix_configuration", d["verdict"]
assert [s["stage"] for s in d["doctor"]["stages"]] == ["preflight"], d["doctor"]["stages"]
codes = [f["code"] for f in d["findings"]]
assert "ONE_GPU" not in codes and "RUN_FAILED" not in codes, codes
assert not any("one node" in f["evidence"] for f in d["findings"]), codes
PY
  HOST_ENV="1:NCCL_PROTO=LL" hosts run "$launcher" 2 "$bin" run all_reduce --sizes 1M > /dev/null
  rc=$(rank_exit "$tmp/run" $? "$launcher")
  grep -q "NCCL_PROTO differs" "$tmp/run/host0.log" || fail "run: the refusal does not name NCCL_PROTO"
  [[ $rc == 2 ]] || fail "run: exit $rc, expected 2"
  HOST_ENV="1:NCCL_PROTO=LL" hosts nodes "$launcher" 2 "$bin" nodes --size 16M > /dev/null
  rc=$(rank_exit "$tmp/nodes" $? "$launcher")
  grep -q "NCCL_PROTO differs" "$tmp/nodes/host0.log" || fail "nodes: the refusal does not name NCCL_PROTO"
  [[ $rc == 2 ]] || fail "nodes: exit $rc, expected 2"
  echo "run and nodes refused: exit 2, NCCL_PROTO named"
  HOST_ENV="1:NCCL_P2P_NET_CHUNKSIZE=524288" hosts chunk "$launcher" 2 "$bin" doctor --quick --out "$tmp/chunk-res" > /dev/null
  rc=$(rank_exit "$tmp/chunk" $? "$launcher")
  grep -q "NCCL_P2P_NET_CHUNKSIZE differs" "$tmp/chunk/host0.log" || fail "chunk size: the refusal does not name it"
  [[ $rc == 2 ]] || fail "chunk size: exit $rc, expected 2"
  echo "NCCL_P2P_NET_CHUNKSIZE on fbhost1: refused, exit 2"
  HOST_ENV="1:NCCL_PROTO=LL" hosts allow "$launcher" 2 "$bin" doctor --quick --allow-mismatch --timeout 10 \
    --out "$tmp/allow" > /dev/null
  rc=$?
  echo "with --allow-mismatch: exit $rc"
  python3 - "$tmp/allow/result.json" << 'PY' || fail "--allow-mismatch: the document"
import json, sys
d = json.load(open(sys.argv[1]))
stages = [s["stage"] for s in d["doctor"]["stages"]]
env = [f for f in d["findings"] if f["code"] == "HOST_MISMATCH_ENV"]
print(d["status"], stages, "|", d.get("failure", "")[:120])
assert len(stages) > 2 and d["status"] != "refused", stages
assert env and env[0]["severity"] == "error", env
PY
}

# config_hang: hosts that differ in a setting that must agree, let through with --allow-mismatch: the
# collective that hangs is explained by the difference (fix_configuration), not blamed on a host (drain).
config_hang_case() {
  local start rc took
  start=$SECONDS
  HOST_ENV="1:NCCL_P2P_NET_CHUNKSIZE=524288" hosts hang torchrun 2 "$bin" doctor --quick --allow-mismatch --timeout 10 \
    --out "$tmp/hang-res" > /dev/null
  rc=$(rank_exit "$tmp/hang" $? torchrun)
  took=$((SECONDS - start))
  echo "doctor with NCCL_P2P_NET_CHUNKSIZE on fbhost1 only: exit $rc in $took s"
  grep -E "doctor \[|timed out|hang|likely" "$tmp/hang/host0.log" | cut -c1-240
  python3 - "$tmp/hang-res/result.json" << 'PY' || fail "the document"
import json, sys
d = json.load(open(sys.argv[1]))
v = d["verdict"]
print(d["status"], "|", d.get("failure", "")[:200], "|", v["status"], v["action"])
hang = [f for f in d["findings"] if "NCCL_P2P_NET_CHUNKSIZE" in f["evidence"] and "likely" in f["evidence"]]
print([f["code"] + ": " + f["evidence"][:200] for f in hang])
if d["status"] == "failed":
    assert v["action"] == "fix_configuration", v
    assert hang, "the difference is not named as the likely cause"
else:
    print("no collective hung on this NCCL: nothing to explain")
PY
}

case $case_name in
  nodes_torchrun) slow_hosts_case nodes torchrun ;;
  nodes_mpirun) slow_hosts_case nodes mpirun ;;
  doctor_hosts)
    hosts doc torchrun 2 "$bin" doctor --quick --out "$tmp/res" > /dev/null
    rc=$?
    [[ $rc == 0 || $rc == 1 ]] || fail "exit $rc ($(tail -5 "$tmp/doc/host0.log"))"
    python3 - "$tmp/res/result.json" << 'PY' || fail "the document"
import json, sys
d = json.load(open(sys.argv[1]))
codes = [f["code"] for f in d["findings"]]
print("hosts", [(h["name"], h["ranks"], h["verdict"]["status"]) for h in d["hosts"]], "codes", codes)
assert [h["name"] for h in d["hosts"]] == ["fbhost0", "fbhost1"]
assert "NET_SOCKET" in codes and "ONE_GPU" not in codes and "BUSBW_BELOW_CEILING" not in codes, codes
net = [f for f in d["findings"] if f["code"] == "NET_SOCKET"][0]
assert "fbhost[0-1]:0" in net["evidence"] and "Socket" in net["evidence"], net
assert any("no expectation: sockets have no rate" in f["evidence"] for f in d["findings"] if f["code"] == "NO_EXPECTATION"), codes
assert "NET" in str(d["runs"][0]["nccl_setup"]), d["runs"][0]["nccl_setup"]
PY
    grep -q "^## Hosts (2)" "$tmp/res/summary.md" || fail "summary.md has no Hosts section"
    ;;
  doctor_host_files)
    hosts files torchrun 2 "$bin" doctor --prolog --out "$tmp/res" --prometheus "$tmp/fb-%h.prom" > /dev/null
    rc=$?
    [[ $rc == 0 || $rc == 1 ]] || fail "exit $rc ($(tail -5 "$tmp/files/host0.log"))"
    for h in fbhost0 fbhost1; do
      f="$tmp/fb-$h.prom"
      [[ -f $f ]] || fail "no textfile for $h: $(ls "$tmp")"
      grep -q "^fabricbench_verdict{host=\"$h\"" "$f" || fail "$f: no verdict of $h"
      others=$(grep -v '^#' "$f" | grep -vc "{host=\"$h\"")
      [[ $others == 0 ]] || fail "$f holds $others series of another host"
      if command -v promtool > /dev/null; then
        out=$(promtool check metrics < "$f" 2>&1) && [[ -z $out ]] || fail "promtool on $f: $out"
      fi
      grep '^fabricbench_verdict{' "$f"
    done
    [[ $(grep -c '^fabricbench_verdict{' "$tmp/res/cluster.prom") == 2 ]] || fail "cluster.prom: $(cat "$tmp/res/cluster.prom")"
    ;;
  doctor_kill)
    hosts kill torchrun 2 "$bin" doctor --quick --timeout 20 --out "$tmp/res" --prometheus "$tmp/fb-%h.prom" > /dev/null &
    harness=$!
    # The stage's own line ("doctor [k/n] collectives"), not the note at the start that lists what the
    # doctor measures across hosts; then 2 s, past the stage's set-up, into its points.
    for _ in $(seq 1 150); do grep -qE "doctor \[[0-9]+/[0-9]+\] collectives" "$tmp/kill/host0.log" 2> /dev/null && break; sleep 0.2; done
    sleep 2
    victim=""
    for p in $(pgrep -f "fabricbench doctor"); do
      tr '\0' '\n' < "/proc/$p/environ" 2> /dev/null | grep -qx "RANK=1" && victim=$p
    done
    [[ -n $victim ]] || fail "no rank 1 to kill"
    start=$SECONDS
    kill -9 "$victim"
    wait "$harness"
    took=$((SECONDS - start))
    left=$(pgrep -fc "fabricbench doctor")
    echo "every rank ended ${took} s after the kill; left: $left"
    ((took <= 20)) || fail "ranks ended ${took} s after the kill (--timeout 20)"
    [[ $left == 0 ]] || fail "$left processes left"
    python3 - "$tmp/res/result.json" << 'PY' || fail "the document"
import json, sys
d = json.load(open(sys.argv[1]))
print(d["status"], "|", d["failure"][:160], "|", [(r["collective"], len(r["points"])) for r in d["runs"]])
assert d["status"] == "failed" and "rank 1 (fbhost1)" in d["failure"], d["failure"]
assert d["failure"].startswith("collectives stage: "), d["failure"]
assert sum(len(r["points"]) for r in d["runs"]) > 0, "no points kept"
codes = [f["code"] for f in d["findings"]]
assert "ONE_GPU" not in codes and not any("one node" in f["evidence"] for f in d["findings"]), codes
assert [h["name"] for h in d["hosts"]] == ["fbhost0", "fbhost1"] and all(h.get("verdict") for h in d["hosts"])
checks = [c["check"] for c in d["verdict"]["checks"]]
assert "host_consistency" in checks and "host" in checks, checks
print("judged:", d["verdict"]["status"], d["verdict"]["action"], codes)
PY
    grep -q '^fabricbench_verdict{host="fbhost1",status="CRITICAL",action="drain"} 1$' "$tmp/fb-fbhost1.prom" ||
      fail "fbhost1's textfile does not say CRITICAL: $(head -3 "$tmp/fb-fbhost1.prom" 2> /dev/null)"
    grep -q '^fabricbench_verdict{host="fbhost0",status="CRITICAL",action="drain"} 1$' "$tmp/fb-fbhost0.prom" ||
      fail "fbhost0's textfile does not say CRITICAL"
    ;;
  preflight_torchrun) preflight_case torchrun ;;
  preflight_mpirun) preflight_case mpirun ;;
  doctor_nodes_torchrun) slow_hosts_case doctor torchrun ;;
  doctor_nodes_mpirun) slow_hosts_case doctor mpirun ;;
  config_hang) config_hang_case ;;
  *) fail "unknown case $case_name" ;;
esac
echo "ok $case_name"
