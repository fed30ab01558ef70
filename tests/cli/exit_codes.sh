#!/usr/bin/env bash
# One case per exit code (docs/cli.md, "Exit codes"), with the real binary and no GPU:
# 0 healthy, 1 an error-level finding, 2 usage (bad flag, unreadable or malformed input),
# 4 an output that cannot be written. 3 (no GPU) is tests/cli/no_gpu.sh: it needs a machine
# without one.
set -u
bin=$1
fixtures=$2
fail=0
source "$(dirname "$0")/expect.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
healthy=$fixtures/h200x2-run-6coll-1M-4G-procs.json

# 0: a healthy document, rendered and analysed.
expect 0 "all_reduce" report "$healthy" --format md
expect 0 "" report "$healthy" --analyse
expect 0 "" report "$healthy" -o "$tmp/report.html"
[[ -s "$tmp/report.html" && ! -e "$tmp/report.html.tmp" ]] || { echo "FAIL: report.html not written whole"; fail=1; }

# 1: the same document with wrong elements in one point: DATA_WRONG is an error finding.
python3 - "$healthy" "$tmp/wrong.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["runs"][0]["points"][0]["wrong"] = 3
json.dump(doc, open(sys.argv[2], "w"))
PY
expect 1 "DATA_WRONG" report "$tmp/wrong.json" --analyse
# ... whatever the output format: the report is written and the exit code still says so.
expect 1 "DATA_WRONG" report "$tmp/wrong.json" --analyse --format md
expect 1 "" report "$tmp/wrong.json" --analyse -o "$tmp/wrong.html"
grep -q "DATA_WRONG" "$tmp/wrong.html" || { echo "FAIL: wrong.html lacks the finding"; fail=1; }
expect 0 "" report "$healthy" --analyse -o "$tmp/healthy.md"

# 2: a bad flag, an unreadable input, a malformed one.
expect 2 "--no-such-flag" report "$healthy" --no-such-flag
expect 2 "cannot read $tmp/missing.json" report "$tmp/missing.json"
echo '{"gpus": 3' > "$tmp/bad-nvml.json"
expect 2 "not an NVML readout" topo --no-runtime --nvml-file "$tmp/bad-nvml.json"
# A rocm-smi text of 4 GPUs for a machine of 8: its rows could only be guessed onto GPUs.
topo_fixtures=$fixtures/../topo
expect_line 2 "it lists 4 GPUs, sysfs 8 AMD GPUs" topo --no-runtime --sysfs-root "$topo_fixtures/mi300x8" \
  --rocm-smi-file "$topo_fixtures/rocm-smi/mi300x-4of8-showtopo.txt"

# --expectations FILE (docs/verdicts.md, "A site's baseline"): a bad file is exit 2 in one line naming the
# file, the row and what is wrong, before anything else; a good one judges and prints.
echo '{"schema": "fabricbench.expectations/1", "rows": [{"gpu": "H200", "figure": "all_reduce", "value": -3, "source": "s", "date": "2026-11-20"}]}' > "$tmp/bad-site.json"
expect_line 2 "$tmp/bad-site.json: rows[0].value: must be above 0, got -3" report "$healthy" --analyse --expectations "$tmp/bad-site.json"
expect_line 2 "$tmp/bad-site.json: rows[0].value" doctor --expectations "$tmp/bad-site.json"
expect_line 2 "cannot read $tmp/no-site.json" report "$healthy" --analyse --expectations "$tmp/no-site.json"
echo '{"schema": "fabricbench.expectations/1", "rows": [{"gpu": "H200", "gpus": 2, "figure": "all_reduce", "min_bytes": 1073741824, "value": 500, "kind": "acceptance", "source": "site", "date": "2026-11-20"}]}' > "$tmp/site.json"
# The site's acceptance line is its pass line: 325.7 GB/s below 500 is an error citing it (exit 1).
expect 1 "below the published drain/replace line 500.0 GB/s (site, 2026-11-20, an acceptance line)" report "$healthy" --analyse --expectations "$tmp/site.json"
expect 0 "| H200 | 2 | 1 | all_reduce | >= 1 GiB | any | 500 GB/s | acceptance | site | 2026-11-20 |" expectations --expectations "$tmp/site.json"
expect 0 "| MI300X | 8 | 1 | all_reduce |" expectations
expect 0 '"schema": "fabricbench.expectations/1"' expectations --from "$healthy"
# A baseline from a sick or failed run would judge every other node by it: refused unless --force.
expect_line 2 "its findings say the figures fall short (BUSBW_BELOW_CEILING, BUSBW_BELOW_EXPECTED, SIGNATURE_HOST_STAGED)" expectations --from "$fixtures/synthetic-mi300x8.json"
expect_line 2 "the run did not complete (status failed)" expectations --from "$fixtures/synthetic-failed.json"
expect 0 '"gpu": "MI300X"' expectations --from "$fixtures/synthetic-mi300x8.json" --force
# A run whose NCCL went over TCP sockets (NET_SOCKET) holds other nodes to a socket network's figures.
expect_line 2 "its network findings (NET_SOCKET) say the run did not cross the network" expectations --from "$fixtures/synthetic-2host-socket.json"
expect 0 '"hosts": 2' expectations --from "$fixtures/synthetic-2host-socket.json" --force
# --from reads what `report` reads: rccl-tests' output of 8 x MI300X, what was converted said (stderr).
rccl=$fixtures/../imports/rccl-tests-develop-448c4c7-mi300x8-rocm-blog.txt
expect 0 "Read from rccl-tests develop:448c4c7's output" expectations --from "$rccl" -o "$tmp/site-rccl.json"
python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["rows"][0]; assert (r["gpu"], r["gpus"], r["value"]) == ("MI300X", 8, 319.0), r; assert "rccl-tests" in r["source"], r' "$tmp/site-rccl.json" ||
  { echo "FAIL: the site file from rccl-tests' output"; fail=1; }
expect 0 "" report "$rccl" --analyse --expectations "$tmp/site-rccl.json"
expect_line 2 "describe the output given with --from" expectations --topo "$rccl"
expect_line 2 "describe another tool's output" expectations --from "$healthy" --gpu "8 x H100"

# 4: the output cannot be written (its folder does not exist); the input was fine.
expect 4 "cannot write $tmp/no-dir/report.html" report "$healthy" -o "$tmp/no-dir/report.html"
expect 4 "cannot write $tmp/no-dir/topo.json" topo --no-runtime --json "$tmp/no-dir/topo.json"
exit $fail
