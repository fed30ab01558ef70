#!/usr/bin/env bash
# GPU tests (label `gpu`): need 2 GPUs (progress_json, tail, threads_worker_process: 1) and NCCL. nccl_log
# needs 2: on one rank NCCL copies locally and run's logged pass does not run (docs/cli.md). Each case fails loudly; none skips.
set -u
case_name=$1
bin=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
need=2
[[ $case_name == progress_json || $case_name == tail || $case_name == threads_worker_process ]] && need=1
if [[ $ngpu -lt $need ]]; then
  echo "FAIL: this GPU test needs ${need} GPUs, found ${ngpu}"
  exit 1
fi

wrong_total() {  # sums the `wrong` field of every point in a result document
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(sum(p["wrong"] for run in r["runs"] for p in run["points"]))' "$1"
}
points_total() {
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(sum(len(run["points"]) for run in r["runs"]))' "$1"
}

check_all() {  # every collective x type x op, out-of-place and in-place, verified
  local launcher=$1
  "$bin" run all -d all -o all --sizes 1M,12345 --in-place both -c 1 -n 2 -w 1 --batches 1 \
    --target-ci 0 --gpus 2 --launcher "$launcher" -q --json "$tmp/r.json" > "$tmp/out.txt" 2>&1
  local rc=$?
  tail -3 "$tmp/out.txt"
  [[ $rc -eq 0 ]] || { echo "FAIL: exit $rc"; cat "$tmp/out.txt"; return 1; }
  local n wrong
  n=$(points_total "$tmp/r.json")
  wrong=$(wrong_total "$tmp/r.json")
  echo "$launcher: $n verified points, $wrong wrong elements"
  # 3 reducing collectives x 12 types x 5 ops + 6 others x 12 types = 252 runs; 2 sizes each,
  # in-place too except alltoall and sendrecv: (252 - 24) * 4 + 24 * 2 = 960 points.
  [[ $n -eq 960 ]] || { echo "FAIL: expected 960 points"; return 1; }
  [[ $wrong -eq 0 ]] || { echo "FAIL: wrong elements"; return 1; }
}

case $case_name in
  all_dtypes_ops_processes) check_all processes ;;
  all_dtypes_ops_threads) check_all threads ;;
  in_place)
    # in-place and out-of-place of every collective with a non-zero root and odd sizes
    "$bin" run all --sizes 4100,1M --in-place both -r 1 -c 1 --gpus 2 -q --json "$tmp/r.json" || exit 1
    [[ $(wrong_total "$tmp/r.json") -eq 0 ]] || { echo "FAIL: wrong elements"; exit 1; } ;;
  corruption)
    # One deliberately corrupted output element must be counted, and exit 1.
    for coll in all_reduce all_gather reduce broadcast sendrecv gather scatter; do
      "$bin" run $coll --sizes 1M -r 1 -c 1 --gpus 2 --debug-corrupt -q --json "$tmp/r.json" > "$tmp/out.txt" 2>&1
      rc=$?
      wrong=$(wrong_total "$tmp/r.json")
      echo "$coll: exit $rc, wrong $wrong"
      [[ $rc -eq 1 && $wrong -eq 1 ]] || { cat "$tmp/out.txt"; echo "FAIL: expected exit 1 and 1 wrong"; exit 1; }
      grep -q "DATA ERRORS" "$tmp/out.txt" || { echo "FAIL: no DATA ERRORS line"; exit 1; }
    done ;;
  too_large)
    out=$("$bin" run all_reduce --sizes 100G --gpus 2 2>&1); rc=$?
    echo "exit $rc: $out"
    [[ $rc -eq 2 && "$out" == *"needs 201 GiB per GPU"* ]] || { echo "FAIL"; exit 1; }
    out=$("$bin" run all_reduce --gpus 9 2>&1); rc=$?
    echo "exit $rc: $out"
    [[ $rc -eq 2 && "$out" == *"are visible"* ]] || { echo "FAIL"; exit 1; } ;;
  threads_vs_processes)
    # Both launchers measure the same link: large-size busbw within 3% of each other.
    for l in processes threads; do
      "$bin" run all_reduce --sizes 1G --gpus 2 --launcher $l -q --json "$tmp/$l.json" || exit 1
    done
    python3 - "$tmp/processes.json" "$tmp/threads.json" <<'PY' || exit 1
import json, sys
a, b = (json.load(open(f))["runs"][0]["points"][0]["busbw_gbps"] for f in sys.argv[1:])
print(f"processes {a:.1f} GB/s, threads {b:.1f} GB/s")
sys.exit(0 if abs(a - b) / max(a, b) < 0.03 else 1)
PY
    ;;
  p2p_copies_verified)
    # Every copy of every p2p test delivers the pattern intact (small copies, all tests).
    "$bin" p2p --gpus 2 --size 64M --copies 4 --samples 2 -q --json "$tmp/p.json" > "$tmp/out.txt" 2>&1 ||
      { cat "$tmp/out.txt"; echo "FAIL: p2p exited non-zero"; exit 1; }
    python3 - "$tmp/p.json" <<'PY' || exit 1
import json, sys
ms = json.load(open(sys.argv[1]))["p2p"]
copies = [m for m in ms if m["unit"] == "GB/s"]
tests = sorted({m["test"] for m in copies})
print(f"{len(copies)} copy figures over tests {tests}; wrong words: {sum(m['wrong'] for m in copies)}")
expected = {"ce_read", "ce_write", "sm_read", "sm_write", "ce_bidir", "sm_bidir", "h2d", "d2h", "h2d_all", "d2h_all"}
ok = set(tests) == expected and all(m["wrong"] == 0 and m["value"] > 0 for m in copies)
lat = [m for m in ms if m["unit"] == "ns"]
ok = ok and len(lat) == 4 and all(100 < m["value"] < 100000 for m in lat)
sys.exit(0 if ok else 1)
PY
    ;;
  p2p_bad_input)
    out=$("$bin" p2p --gpus 2 --size 100G 2>&1); rc=$?
    echo "exit $rc: $out"
    [[ $rc -eq 2 && "$out" == *"lower --size"* ]] || { echo "FAIL: too large"; exit 1; }
    out=$("$bin" p2p --gpus 1 --no-host 2>&1); rc=$?
    echo "exit $rc: $out"
    [[ $rc -eq 2 && "$out" == *"host<->device only"* ]] || { echo "FAIL: single GPU"; exit 1; }
    out=$("$bin" p2p --gpus 1 --size 64M --copies 2 --samples 1 --no-latency -q 2>&1); rc=$?
    [[ $rc -eq 0 && "$out" == *"h2d"* ]] || { echo "$out"; echo "FAIL: single GPU host test"; exit 1; } ;;
  mpi_two_ranks)
    # Under mpirun: verified points, the same busbw as the processes launcher, per-rank GPUs
    # in the result, planted corruption counted, and a hang ended by --timeout (no stuck job).
    command -v mpirun > /dev/null || { echo "FAIL: mpirun is needed"; exit 1; }
    [[ $(id -u) -eq 0 ]] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    mpirun -np 2 "$bin" run all_reduce all_gather sendrecv --sizes 1M,1G -c 1 -q --json "$tmp/m.json" \
      > "$tmp/out.txt" 2>&1 || { cat "$tmp/out.txt"; echo "FAIL: mpirun run exited non-zero"; exit 1; }
    "$bin" run all_reduce all_gather sendrecv --sizes 1G --gpus 2 -q --json "$tmp/p.json" || exit 1
    python3 - "$tmp/m.json" "$tmp/p.json" <<'PY' || exit 1
import json, sys
m, p = (json.load(open(f)) for f in sys.argv[1:])
ok = m["runs"][0]["launcher"] == "mpi" and [g["rank"] for g in m["gpus"]] == [0, 1]
ok = ok and all(g["host"] and g["pci_bus_id"] for g in m["gpus"]) and len({g["pci_bus_id"] for g in m["gpus"]}) == 2
wrong = sum(pt["wrong"] for r in m["runs"] for pt in r["points"])
print("gpus:", [(g["rank"], g["index"], g["pci_bus_id"], g["host"]) for g in m["gpus"]], "wrong:", wrong)
for rm, rp in zip(m["runs"], p["runs"]):
    a = [pt["busbw_gbps"] for pt in rm["points"] if pt["bytes"] >= 1 << 30][0]
    b = rp["points"][0]["busbw_gbps"]
    print(f"{rm['collective']} 1 GiB: mpirun {a:.1f} GB/s, processes {b:.1f} GB/s")
    ok = ok and abs(a - b) / b < 0.03
sys.exit(0 if ok and wrong == 0 else 1)
PY
    mpirun -np 2 "$bin" run all_reduce --sizes 1M -c 1 --debug-corrupt -q --json "$tmp/c.json" > "$tmp/out.txt" 2>&1
    rc=$?
    echo "corrupt: exit $rc, wrong $(wrong_total "$tmp/c.json")"
    [[ $rc -eq 1 && $(wrong_total "$tmp/c.json") -eq 1 ]] || { cat "$tmp/out.txt"; echo "FAIL: corruption"; exit 1; }
    start=$(date +%s)
    timeout 120 mpirun -np 2 "$bin" run all_reduce --sizes 1M,4G -n 400 --timeout 2 -q --json "$tmp/t.json" \
      > "$tmp/out.txt" 2>&1
    rc=$?
    secs=$(($(date +%s) - start))
    echo "timeout: exit $rc after ${secs} s; $(grep -m1 'error' "$tmp/out.txt")"
    [[ $rc -ne 0 && $rc -ne 124 && $secs -lt 60 ]] || { cat "$tmp/out.txt"; echo "FAIL: hang not ended"; exit 1; }
    [[ $(points_total "$tmp/t.json") -ge 1 ]] || { echo "FAIL: the 1M point measured before the hang was lost"; exit 1; } ;;
  interrupt)
    # Ctrl-C in the middle of each long command: run (workers), p2p (this process), algos and
    # scale (between and inside their sub-runs), doctor (inside a stage). Each ends within 1 s of
    # SIGINT with exit 4, and its JSON keeps what was measured before, status failed, "interrupted".
    interrupt_after() {  # interrupt_after PATTERN NAME JSON ARGS...: SIGINT once PATTERN is in its output
      local pattern=$1 name=$2 json=$3; shift 3
      "$bin" "$@" > "$tmp/$name.txt" 2>&1 &
      local pid=$!
      for _ in $(seq 600); do
        grep -q -E "$pattern" "$tmp/$name.txt" "$json" 2> /dev/null && break
        sleep 0.1
      done
      kill -INT "$pid"
      local sent rc end
      sent=$(date +%s%N)
      wait "$pid"; rc=$?
      end=$(date +%s%N)
      echo "$name: exit $rc, $(((end - sent) / 1000000)) ms after SIGINT; $(tail -1 "$tmp/$name.txt")"
      [[ $rc -eq 4 && $(((end - sent) / 1000000)) -lt 1000 ]] || { cat "$tmp/$name.txt"; echo "FAIL: $name"; return 1; }
    }
    # run: once the JSON (rewritten after every point) holds the 1 MiB point, during the 4 GiB
    # one (2000 operations per batch: ~25 s); p2p: once its second test began; algos: once its
    # second configuration began; scale: once the 2-GPU group began; doctor: once its third
    # stage began.
    interrupt_after '"bytes": ?1048576' run "$tmp/run.json" run all_reduce --sizes 1M,4G -n 2000 --gpus 2 \
      --json "$tmp/run.json" || exit 1
    interrupt_after 'measuring ce_write' p2p "$tmp/p2p.json" p2p --gpus 2 --size 256M --samples 400 \
      --json "$tmp/p2p.json" || exit 1
    interrupt_after 'sweeping .*\(2 of' algos /dev/null algos all_reduce --sizes 1M,1G -n 100 --algos Ring,Tree \
      --protos Simple --json "$tmp/algos.json" || exit 1
    interrupt_after 'on 2 GPUs' scale /dev/null scale all_reduce --size 1G -n 100 --counts 1,2 --placement best \
      --json "$tmp/scale.json" || exit 1
    interrupt_after 'doctor \[3/' doctor /dev/null doctor --quick --out "$tmp/doctor" || exit 1
    python3 - "$tmp" <<'PY' || exit 1
import json, sys
d = sys.argv[1]
def doc(name):
    return json.load(open(f"{d}/{name}"))
def check(name, r, kept, what):
    print(f"{name}: status {r['status']}, failure '{r['failure']}', {kept} {what} kept")
    return r["status"] == "failed" and "interrupted" in r["failure"] and kept >= 1
points = lambda r: sum(len(x["points"]) for x in r["runs"])
ok = check("run", doc("run.json"), points(doc("run.json")), "point(s)")
ok &= check("p2p", doc("p2p.json"), len(doc("p2p.json")["p2p"]), "measurement(s)")
ok &= check("algos", doc("algos.json"), points(doc("algos.json")), "point(s)")
ok &= check("scale", doc("scale.json"), points(doc("scale.json")), "point(s)")
ok &= check("doctor", doc("doctor/result.json"), len(doc("doctor/result.json")["doctor"]["stages"]), "stage(s)")
sys.exit(0 if ok else 1)
PY
    ;;
  fill)
    # --fill zeros: the run completes with every point and says so per run; the default pattern
    # is not recorded. The busbw of both is printed (docs/metrics.md, "What the buffers hold").
    for f in zeros pattern; do
      "$bin" run all_gather reduce_scatter --sizes 64M,1G --fill $f --gpus 2 -q --json "$tmp/$f.json" \
        > "$tmp/$f.txt" 2>&1 || { cat "$tmp/$f.txt"; echo "FAIL: --fill $f exited non-zero"; exit 1; }
    done
    python3 - "$tmp" <<'PY' || exit 1
import json, sys
z, p = (json.load(open(f"{sys.argv[1]}/{f}.json")) for f in ("zeros", "pattern"))
for rz, rp in zip(z["runs"], p["runs"]):
    for a, b in zip(rz["points"], rp["points"]):
        print(f"{rz['collective']} {a['bytes'] >> 20} MiB: zeros {a['busbw_gbps']:.1f}, pattern {b['busbw_gbps']:.1f} GB/s")
ok = all(r.get("fill") == "zeros" and len(r["points"]) == 2 for r in z["runs"]) and len(z["runs"]) == 2
ok &= all("fill" not in r and len(r["points"]) == 2 for r in p["runs"]) and len(p["runs"]) == 2
print("fill recorded as zeros on every zero-filled run, absent for the pattern" if ok else "FAIL: fill records")
sys.exit(0 if ok else 1)
PY
    ;;
  progress_json)
    # --progress json: every stderr line of a run (a sweep of 73 sizes, long enough for progress
    # events every 3 s, and its -v start-up table) and of a quick doctor is one JSON event; run's
    # estimate, its progress against the points it recorded, the doctor's plan and each of its
    # stages numbered against the stages it recorded are among them.
    "$bin" run all_reduce -b 1M -e 1G -f 1.1 -v --progress json --gpus 1 \
      --json "$tmp/run.json" > /dev/null 2> "$tmp/run.err" || { cat "$tmp/run.err"; echo "FAIL: run"; exit 1; }
    "$bin" doctor --quick --progress json --gpus 1 --out "$tmp/doc" > /dev/null 2> "$tmp/doc.err"
    rc=$?
    [[ $rc -le 1 ]] || { cat "$tmp/doc.err"; echo "FAIL: doctor exit $rc"; exit 1; }
    python3 - "$tmp" <<'PY' || exit 1
import json, sys
t = sys.argv[1]
def events(name):
    lines = open(f"{t}/{name}").read().splitlines()
    out = [json.loads(line) for line in lines]  # every line one JSON object
    assert all(list(e)[:2] == ["kind", "text"] for e in out), out
    return out
run, doc = events("run.err"), events("doc.err")
for e in run + doc: print(json.dumps(e))
points = sum(len(r["points"]) for r in json.load(open(f"{t}/run.json"))["runs"])
assert any(e["kind"] == "stage" and e["text"].startswith(f"{points} points on 1 GPU, about") for e in run), points
prog = [e for e in run if e["kind"] == "progress"]
done = [e["done"] for e in prog]
assert prog and done == sorted(set(done)) and all(0 < d < points and e["total"] == points for d, e in zip(done, prog)), prog
assert any(e["kind"] == "detail" and "all workers ended" in e["text"] for e in run), "run -v table"
n = len(json.load(open(f"{t}/doc/result.json"))["doctor"]["stages"])
assert any(e["kind"] == "stage" and e["text"].startswith(f"{n} doctor stages, about") for e in doc), "plan"
stages = [e for e in doc if e["kind"] == "progress" and e["text"].startswith("doctor [")]
assert [e["done"] for e in stages] == list(range(n)) and all(e["total"] == n for e in stages), stages
print(f"run: {len(run)} events, {len(prog)} progress; doctor: {len(doc)} events, {n} stages")
PY
    ;;
  tail)
    # Single operations (docs/metrics.md, "The tail") on every GPU of the machine (1 or more): by
    # time at 1 MiB (events, 200: launch-bound operations) and at 1 GiB (events where an operation is
    # under 1 ms, else the one-operation batches); exactly N with --tail-iters; none with --tail-iters
    # 0 or -G. Each figure ordered p50 <= p99 <= max, as many samples as n, all positive; the p50 at
    # least 0.75x the batches' median, and at most 1.25x from 100 us (below, an event between every
    # launch makes single operations slower than a batch's mean: 5.7 against 4.8 us at 1 MiB on one H200).
    "$bin" run all_reduce --sizes 1M,1G -q --json "$tmp/d.json" > /dev/null || { echo "FAIL: run"; exit 1; }
    "$bin" run all_reduce --sizes 1M --tail-iters 37 -q --json "$tmp/n.json" > /dev/null || { echo "FAIL: run"; exit 1; }
    "$bin" run all_reduce --sizes 1M --tail-iters 0 -q --json "$tmp/off.json" > /dev/null || { echo "FAIL: run"; exit 1; }
    "$bin" run all_reduce --sizes 1M -G 2 -q --json "$tmp/g.json" > /dev/null || { echo "FAIL: run"; exit 1; }
    python3 - "$tmp" <<'PY' || exit 1
import json, sys
t = sys.argv[1]
def points(name): return [p for r in json.load(open(f"{t}/{name}"))["runs"] for p in r["points"]]
ok = True
for p in points("d.json") + points("n.json"):
    it = p["iterations"]
    good = (0 < it["p50_us"] <= it["p99_us"] <= it["max_us"] and len(it["samples_us"]) == it["n"]
            and min(it["samples_us"]) > 0 and it["p50_us"] >= 0.75 * p["time_us"]["median"]
            and (p["time_us"]["median"] < 100 or it["p50_us"] <= 1.25 * p["time_us"]["median"]))
    print(f"{p['bytes']} B: {it['source']} n {it['n']} p50 {it['p50_us']:.1f} p99 {it['p99_us']:.1f} "
          f"max {it['max_us']:.1f} us; batches' median {p['time_us']['median']:.1f} us" + ("" if good else "  FAIL"))
    ok &= good
small, large = points("d.json")
ok &= small["iterations"]["source"] == "events" and small["iterations"]["n"] == 200
ok &= large["iterations"]["n"] >= 100 if large["iterations"]["source"] == "events" else large["iterations"]["n"] == large["time_us"]["n"]
ok &= points("n.json")[0]["iterations"]["n"] == 37
ok &= "iterations" not in points("off.json")[0] and "iterations" not in points("g.json")[0]
print("tail: by time, exactly N, off and with graphs as documented" if ok else "FAIL: tail")
sys.exit(0 if ok else 1)
PY
    ;;
  nccl_log)
    # run records what NCCL chose (docs/cli.md, --no-nccl-log), with either local launcher: the logged
    # pass after the sweep fills each run's nccl_setup from NCCL's log (its channel counts: NCCL logs
    # at least one of each), and --no-nccl-log leaves them "not in NCCL's log" (0); the figures are
    # the timed sweep's either way.
    "$bin" run all_reduce --sizes 1M,1G -q --json "$tmp/on.json" > /dev/null || { echo "FAIL: run"; exit 1; }
    "$bin" run all_reduce --sizes 1M,1G -q --no-nccl-log --json "$tmp/off.json" > /dev/null || { echo "FAIL: run"; exit 1; }
    # The threads launcher's one worker process logs for every rank: read the same way.
    "$bin" run all_reduce --sizes 1M,1G -q --launcher threads --json "$tmp/threads.json" > /dev/null ||
      { echo "FAIL: run --launcher threads"; exit 1; }
    python3 - "$tmp" <<'PY' || exit 1
import json, sys
t = sys.argv[1]
on, off, threads = (json.load(open(f"{t}/{n}.json"))["runs"][0] for n in ("on", "off", "threads"))
print("with the log:", json.dumps(on["nccl_setup"]), [p.get("nccl") for p in on["points"]])
print("without:", json.dumps(off["nccl_setup"]))
ok = on["nccl_setup"]["coll_channels"] > 0 and on["nccl_setup"]["p2p_channels"] > 0
ok &= off["nccl_setup"]["coll_channels"] == 0 and off["points"][0].get("nccl") is None
ok &= [p["bytes"] for p in on["points"]] == [p["bytes"] for p in off["points"]]
print("threads:", json.dumps(threads["nccl_setup"]))
ok &= threads["nccl_setup"]["coll_channels"] > 0 and threads["nccl_setup"]["p2p_channels"] > 0
print("nccl_log: recorded with the logged pass, absent without" if ok else "FAIL: nccl_log")
sys.exit(0 if ok else 1)
PY
    ;;
  threads_worker_process)
    # --launcher threads drives the GPUs from one worker process of its own (docs/cli.md): a child of
    # fabricbench's process appears while it runs, and the data it moves is verified.
    "$bin" run all_reduce --sizes 1M,64M -c 1 --launcher threads -q --json "$tmp/t.json" > "$tmp/t.txt" 2>&1 &
    pid=$!
    kids=""
    while kill -0 "$pid" 2> /dev/null; do
      kids+=" $(pgrep -P "$pid" | tr '\n' ' ')"
      sleep 0.01
    done
    wait "$pid"
    rc=$?
    [[ $rc -eq 0 ]] || { echo "FAIL: exit $rc"; cat "$tmp/t.txt"; exit 1; }
    kids=$(tr ' ' '\n' <<< "$kids" | grep . | sort -u | paste -sd' ')
    [[ -n $kids ]] || { echo "FAIL: no worker process was started"; exit 1; }
    wrong=$(wrong_total "$tmp/t.json")
    [[ $wrong -eq 0 && $(points_total "$tmp/t.json") -eq 2 ]] || { echo "FAIL: $wrong wrong or points missing"; exit 1; }
    echo "threads_worker_process: worker process $kids, 2 points, 0 wrong"
    ;;
  *) echo "unknown case $case_name"; exit 2 ;;
esac
