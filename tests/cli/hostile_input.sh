#!/usr/bin/env bash
# Hostile input to the real binary (issue 18): every case ends within 10 s, with no crash
# (exit >= 128) and the documented exit code: 2 for a malformed, non-regular or oversized input
# and a bad output path, 4 for an output that cannot be written. Needs no GPU: the usage checks
# come before any GPU probe.
set -u
bin=$1
fixtures=$2
fail=0
source "$(dirname "$0")/expect.sh"
run() {  # run ARGS... -> sets out, rc; `timeout` turns a hang into 124
  out=$(timeout -s KILL 10 "$bin" "$@" 2>&1)
  rc=$?
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
healthy=$fixtures/results/h200x2-run-6coll-1M-4G-procs.json
h200=$fixtures/topo/h200x2
mi300=$fixtures/topo/mi300x8

# --- crashes and hangs -------------------------------------------------------------------
# rocm-smi text that made std::regex recurse until the stack overflowed.
python3 - "$mi300/rocm-smi-showtopo.txt" "$tmp" <<'PY'
import sys
text = open(sys.argv[1]).read()
d = sys.argv[2]
open(f"{d}/escape.txt", "w").write(text + "\x1b[" + "1;" * 25000 + "m\n")
open(f"{d}/numa-digits.txt", "w").write(text.replace("Numa Node: 0", "Numa Node: " + "9" * 60000, 1))
open(f"{d}/spaces.txt", "w").write(text.replace("(Topology) Numa Node:", "(Topology)" + " " * 100000 + "Numa Node:", 1))
open(f"{d}/control.txt", "w").write(text.replace("GPU0   0            15", "GPU0   0            1\x1c5", 1))
at = text.index("\n", text.index("(Topology) Numa Node:")) + 1
open(f"{d}/huge-gpu.txt", "w").write(text[:at] + "GPU[2147483646] : (Topology) Numa Node: 0\n" + text[at:])
PY
expect 0 "" topo --no-runtime --sysfs-root "$mi300" --rocm-smi-file "$tmp/escape.txt"
expect 2 "unreadable NUMA line" topo --no-runtime --sysfs-root "$mi300" --rocm-smi-file "$tmp/numa-digits.txt"
expect 0 "" topo --no-runtime --sysfs-root "$mi300" --rocm-smi-file "$tmp/spaces.txt"
expect 2 "above the limit of 4095" topo --no-runtime --sysfs-root "$mi300" --rocm-smi-file "$tmp/huge-gpu.txt"
# A value echoed from a file cannot split or garble the one-line error: control characters are written out.
expect_line 2 "unreadable row 'GPU0   0            1\x1c5" topo --no-runtime --sysfs-root "$mi300" \
  --rocm-smi-file "$tmp/control.txt"

# A FIFO never ends: refused at once, never read (report, compare, --nvml-file, --rocm-smi-file).
mkfifo "$tmp/fifo"
expect 2 "a FIFO, not a regular file" report "$tmp/fifo"
expect 2 "a FIFO, not a regular file" compare "$healthy" "$tmp/fifo"
expect 2 "a FIFO, not a regular file" topo --no-runtime --sysfs-root "$h200" --nvml-file "$tmp/fifo"
expect 2 "a FIFO, not a regular file" topo --no-runtime --sysfs-root "$mi300" --rocm-smi-file "$tmp/fifo"
expect 2 "a directory, not a regular file" report "$tmp"
expect 2 "a character device, not a regular file" report /dev/zero
# ... and inside a sysfs tree.
cp -r "$h200" "$tmp/fifo-tree"
dev=$(ls -d "$tmp"/fifo-tree/sys/bus/pci/devices/* | head -1)
rm -f "$dev/numa_node"
mkfifo "$dev/numa_node"
expect 2 "a FIFO, not a regular file" topo --no-runtime --sysfs-root "$tmp/fifo-tree"
# An input over the size limit.
truncate -s 65M "$tmp/huge.json"
expect 2 "larger than the limit" report "$tmp/huge.json"

# --- exit codes: malformed documents are 2, naming the JSON path --------------------------
for doc in '[]' '42' '"s"' 'null'; do
  echo "$doc" > "$tmp/top.json"
  expect 2 "expected a result document (an object)" report "$tmp/top.json"
  expect 2 "expected a result document (an object)" compare "$tmp/top.json" "$healthy"
done
python3 - "$healthy" "$tmp" <<'PY'
import json, sys
d = sys.argv[2]
def variant(name, change):
    doc = json.load(open(sys.argv[1]))
    change(doc)
    open(f"{d}/{name}.json", "w").write(json.dumps(doc))
variant("schema-number", lambda doc: doc.__setitem__("schema", 7))
variant("bytes-1e23", lambda doc: doc["runs"][0]["points"][0].__setitem__("bytes", 1e23))
variant("wrong-1e300", lambda doc: doc["runs"][0]["points"][0].__setitem__("wrong", 1e300))
variant("numa-key", lambda doc: doc["topology"]["numa_cpulists"].__setitem__("x", "0-3"))
variant("gpu-id", lambda doc: doc["runs"][0].__setitem__("gpus", [0, 100000]))
text = open(sys.argv[1]).read()
assert '"wrong": null' in text
open(f"{d}/number-1e999.json", "w").write(text.replace('"wrong": null', '"wrong": 1e999', 1))
open(f"{d}/deep.json", "w").write('{"schema": "fabricbench.result/1", "a": ' + "[" * 100000 + "]" * 100000 + "}")
PY
expect 2 "\$.schema: unsupported result schema 7" report "$tmp/schema-number.json"
expect 2 "\$.runs[0].points[0].bytes: expected a whole number" report "$tmp/bytes-1e23.json" --analyse
expect 2 "\$.runs[0].points[0].wrong: expected a whole number" report "$tmp/wrong-1e300.json" --analyse
expect 2 "\$.topology.numa_cpulists: key 'x' is not a whole number" report "$tmp/numa-key.json"
expect 2 "\$.runs[0].gpus[1]: expected a whole number in [-1, 4095]" report "$tmp/gpu-id.json"
expect 2 "not a JSON document" compare "$healthy" "$tmp/number-1e999.json"
expect 2 "nested deeper than 64 levels" report "$tmp/deep.json"
# topo: a malformed --nvml-file of any kind is 2.
for doc in '[]' '42' 'null' '{"driver": 1, "gpus": {}, "p2p": []}' '{"driver": "x", "gpus": [], "p2p": 5}' \
  '{"driver": "x", "gpus": {}, "p2p": [{"a": 1e999}]}'; do
  echo "$doc" > "$tmp/nvml.json"
  expect 2 "not an NVML readout" topo --no-runtime --sysfs-root "$h200" --nvml-file "$tmp/nvml.json"
done
# A sysfs tree with a NUMA node number past int and invalid UTF-8: read, and written as JSON.
cp -r "$h200" "$tmp/odd-tree"
mkdir -p "$tmp/odd-tree/sys/devices/system/node/node99999999999"
echo "0-3" > "$tmp/odd-tree/sys/devices/system/node/node99999999999/cpulist"
dev=$(ls -d "$tmp"/odd-tree/sys/bus/pci/devices/* | head -1)
printf '\xff\xfe0x2335\n' > "$dev/device"
expect 0 "" topo --no-runtime --sysfs-root "$tmp/odd-tree" --nvml-file "$h200/nvml.json" --json "$tmp/odd.json"
python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/odd.json" || { echo "FAIL: odd.json is not JSON"; fail=1; }

# A failed write of standard output is 4 for every command, never silence.
if [[ -w /dev/full ]]; then
  for args in "report $healthy" "report $healthy --analyse" "compare $healthy $healthy" \
    "topo --no-runtime --sysfs-root $h200 --nvml-file $h200/nvml.json"; do
    # shellcheck disable=SC2086
    timeout -s KILL 10 "$bin" $args > /dev/full 2> "$tmp/err"
    rc=$?
    if [[ $rc -ne 4 ]] || ! grep -q "cannot write to standard output" "$tmp/err"; then
      echo "FAIL: fabricbench $args > /dev/full exited $rc: $(head -c 300 "$tmp/err")"; fail=1
    else
      echo "ok: fabricbench $args > /dev/full -> 4"
    fi
  done
  # Through a link of our own: a binary that renames over its output would replace only the link
  # (run as root, the old one replaced /dev/full itself).
  ln -s /dev/full "$tmp/full"
  expect 4 "cannot write $tmp/full: No space left on device" report "$healthy" -o "$tmp/full"
fi

# Usage checks before any GPU probe: 2 here whether or not the machine has a GPU.
expect 2 "'a' is not a whole number" run all_reduce --gpus a
expect 2 "--gpus names GPU 0 twice" run all_reduce --gpus 0,0
expect 2 "--gpus range '3-1' is backwards" run all_reduce --gpus 3-1
expect 2 "--gpus entry '99999999' is out of range" run all_reduce --gpus 0-99999999
expect 2 "--counts asks for 0 GPUs" scale all_reduce --counts 0
expect 2 "-r/--root must be >= 0" run broadcast -r -1
expect 2 "--timeout must be in" doctor --timeout nan
expect 2 "--timeout must be in" run all_reduce --timeout inf
expect 2 "--budget must be in" doctor --budget 0
expect 2 "--budget must be in" doctor --quick --budget nan
expect 2 "--budget must be in" doctor --budget -5
expect 2 "not flags of \`algos\`: only \`run\` verifies" algos all_reduce -c 1
expect 2 "not flags of \`scale\`: only \`run\` verifies" scale all_reduce --in-place on

# --- arithmetic ------------------------------------------------------------------------------
expect 2 "--latency-stride must be a multiple of 8" p2p --latency-stride 8388608T
expect 2 "-f/--stepfactor must be a finite number" run all_reduce -f inf
expect 2 "steps from 1 MiB past 1 GiB at once" run all_reduce -f 1e308

# --- output paths ------------------------------------------------------------------------------
mkdir "$tmp/outdir"
expect 2 "cannot write $tmp/outdir: a directory" report "$healthy" -o "$tmp/outdir"
[[ -z "$(ls -A "$tmp")" || ! -e "$tmp/outdir.tmp" ]] || { echo "FAIL: outdir.tmp left behind"; fail=1; }
[[ $(ls "$tmp" | grep -c '^outdir\.') -eq 0 ]] || { echo "FAIL: a temporary left beside outdir"; fail=1; }
cp "$healthy" "$tmp/in.json"
expect 2 "is the input" report "$tmp/in.json" -o "$tmp/in.json"
cmp -s "$healthy" "$tmp/in.json" || { echo "FAIL: the input was replaced"; fail=1; }
ln -s "$tmp/in.json" "$tmp/link.json"
expect 2 "is the input" report "$tmp/in.json" -o "$tmp/link.json"
echo old > "$tmp/target.md"
ln -s "$tmp/target.md" "$tmp/link.md"
expect 0 "" report "$healthy" -o "$tmp/link.md"
[[ -L "$tmp/link.md" ]] || { echo "FAIL: -o onto a symlink replaced the link"; fail=1; }
grep -q "all_reduce" "$tmp/target.md" || { echo "FAIL: -o onto a symlink did not write its target"; fail=1; }
# Devices and pipes are written through, never renamed over. Always through links in $tmp, so
# that a binary that renames (as the old one did, replacing /dev/null when run as root) damages
# nothing but the link.
ln -s /dev/null "$tmp/null"
expect 0 "" report "$healthy" -o "$tmp/null"
[[ -L "$tmp/null" ]] || { echo "FAIL: -o onto a link to /dev/null replaced it"; fail=1; }
ln -s /proc/self/fd/1 "$tmp/stdout"
out=$(timeout -s KILL 10 "$bin" report "$healthy" --format md -o "$tmp/stdout" | cat)
[[ "$out" == *"all_reduce"* ]] || { echo "FAIL: -o (standard output, a pipe) lost the report"; fail=1; }
[[ -L "$tmp/stdout" ]] || { echo "FAIL: -o onto a link to standard output replaced it"; fail=1; }
exit $fail
