#!/usr/bin/env bash
# The verdict's Prometheus textfile checked by Debian's promtool (`promtool check metrics`: the text
# format and Prometheus' naming rules): the golden files of tests/golden and what
# `report --prometheus` writes for a healthy document and for one with an error-level finding (exit 1,
# CRITICAL, action drain). Without promtool this FAILS: scripts/deps.sh test installs it.
set -u
bin=$1
tests=$2
command -v promtool >/dev/null ||
  { echo "FAIL: promtool is missing (scripts/deps.sh test installs Debian's prometheus package)"; exit 1; }
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() {  # FILE: promtool accepts it, with no lint problem either
  local out
  if ! out=$(promtool check metrics <"$1" 2>&1) || [[ -n "$out" ]]; then
    echo "FAIL: promtool check metrics $1: $out"
    fail=1
  fi
}

for golden in "$tests"/golden/prometheus_*.prom; do check "$golden"; done

"$bin" report "$tests/fixtures/results/synthetic-2host-socket.json" --analyse --prometheus "$tmp/2host.prom" >/dev/null
rc=$?
# 2 x H200 on TCP sockets at 1.8 GB/s, below any datacenter network of the class: SIGNATURE_SOCKETS, exit 1.
[[ $rc == 1 ]] || { echo "FAIL: report --prometheus on the 2-host fixture exited $rc, want 1"; fail=1; }
check "$tmp/2host.prom"
cmp -s "$tmp/2host.prom" "$tests/golden/prometheus_2host.prom" ||
  { echo "FAIL: report --prometheus differs from tests/golden/prometheus_2host.prom"; fail=1; }

# One file per host (what each host of a job writes): the 2- and 4-host documents, each host's file
# accepted by promtool, equal to its golden file and holding only that host's series. The 4 hosts run
# as GH200 (as tests/unit/test_host_textfiles.cpp does): a class without a reference datacenter network,
# so their sockets stay a warning of the job and node-d's own error is what sets it apart.
python3 - "$tests/fixtures/results/synthetic-4host.json" "$tmp/synthetic-4host.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for g in doc["gpus"] + [g for s in doc.get("hosts", []) for g in s["gpus"]]:
    g["name"] = "NVIDIA GH200 480GB"
json.dump(doc, open(sys.argv[2], "w"))
PY
cp "$tests/fixtures/results/synthetic-2host-socket.json" "$tmp/"
for doc in 2host:synthetic-2host-socket 4host:synthetic-4host; do
  short=${doc%%:*}
  hosts=$(python3 -c 'import json,sys; print(" ".join(sorted({g["host"] for g in json.load(open(sys.argv[1]))["gpus"]})))' \
    "$tmp/${doc#*:}.json")
  for h in $hosts; do
    "$bin" report "$tmp/${doc#*:}.json" --analyse --prometheus "$tmp/$short-$h.prom" --host "$h" >/dev/null
    check "$tmp/$short-$h.prom"
    cmp -s "$tmp/$short-$h.prom" "$tests/golden/prometheus_${short}_$h.prom" ||
      { echo "FAIL: report --host $h differs from tests/golden/prometheus_${short}_$h.prom"; fail=1; }
    [[ $(grep -v '^#' "$tmp/$short-$h.prom" | grep -vc "{host=\"$h\"") == 0 ]] ||
      { echo "FAIL: $short $h: another host's series"; fail=1; }
  done
done

# An error-level finding: exit 1, and the textfile says CRITICAL with the action drain.
python3 - "$tests/fixtures/results/h200x2-doctor-quick.json" "$tmp/wrong.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["runs"][0]["points"][0]["wrong"] = 3
json.dump(doc, open(sys.argv[2], "w"))
PY
"$bin" report "$tmp/wrong.json" --analyse --prometheus "$tmp/wrong.prom" >/dev/null
rc=$?
[[ $rc == 1 ]] || { echo "FAIL: report --prometheus on wrong data exited $rc, want 1"; fail=1; }
check "$tmp/wrong.prom"
grep -q '^fabricbench_verdict{host="vm",status="CRITICAL",action="drain"} 1$' "$tmp/wrong.prom" ||
  { echo "FAIL: no CRITICAL/drain verdict in $(cat "$tmp/wrong.prom")"; fail=1; }
[[ $fail == 0 ]] && echo "prometheus_promtool: ok"
exit $fail
