#!/usr/bin/env bash
# The host checks with the real binary on the fixture trees (tests/fixtures/host/pcie-switch):
# `topo --sysfs-root` reads the tree's host facts into its document, prints them and judges them;
# `report --analyse` of the saved document judges the same facts the same way.
set -u
bin=$1
trees=$2
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() {  # check CODE NEEDLE ABSENT ARGS...: exit code, a text that must appear, one that must not
  local code=$1 needle=$2 absent=$3
  shift 3
  local out rc
  out=$("$bin" "$@" 2>&1)
  rc=$?
  if [[ $rc -ne $code ]]; then echo "FAIL: fabricbench $* exited $rc, expected $code: ${out:0:600}"; fail=1; return; fi
  if [[ "$out" != *"$needle"* ]]; then echo "FAIL: fabricbench $*: no '$needle' in: ${out:0:600}"; fail=1; return; fi
  if [[ -n $absent && "$out" == *"$absent"* ]]; then echo "FAIL: fabricbench $*: '$absent' in: ${out:0:600}"; fail=1; return; fi
  echo "ok: fabricbench $* -> $code"
}

check 0 "/proc/sys/kernel/numa_balancing" "HOST_ACS" topo --sysfs-root "$trees/healthy" --no-runtime \
  --json "$tmp/healthy.json"
check 0 "HOST_ACS_REDIRECT" "" topo --sysfs-root "$trees/acs-redirect" --no-runtime --json "$tmp/acs.json"
check 0 "ReqRedir+" "" report "$tmp/acs.json" --analyse
check 1 "HOST_XID" "" topo --sysfs-root "$trees/xid-79" --no-runtime --json "$tmp/xid.json"
check 1 "HOST_XID" "" report "$tmp/xid.json" --analyse
check 0 "not readable without root" "HOST_ACS_REDIRECT" topo --sysfs-root "$trees/acs-no-root" --no-runtime

# The facts are in the document, each with where it was read.
python3 - "$tmp/healthy.json" <<'PY' || fail=1
import json, sys
config = json.load(open(sys.argv[1]))["host"]["config"]
assert config["numa_balancing"] == {"value": "0", "source": "/proc/sys/kernel/numa_balancing", "note": ""}, config
assert [b["acs_control"]["value"] for b in config["bridges"]] == ["0x0000"] * 4, config["bridges"]
assert config["gpus"][0]["iommu_group_type"]["value"] == "identity", config["gpus"]
print("ok: host.config of the healthy tree")
PY
exit $fail
