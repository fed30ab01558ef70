#!/usr/bin/env bash
# Runs cases of tests/gpu/fake_hosts_tests.sh one after the other and prints one table at the end: a line
# per run of the slow-host cases (case, hosts, slow kind, named host, seconds, rc, ok) and a line per case
# (its seconds and exit code), for one call of the GPU machine.
#   tests/gpu/fake_hosts_matrix.sh FABRICBENCH_BINARY CASE...
# Each case's output goes to $FB_LOG_DIR/CASE.log (default: a temporary folder), the last 15 lines of a
# failed one to the console; FB_HOSTS, FB_KINDS and FB_KEEP_RESULTS pass through to the cases.
set -u
bin=${1:?usage: fake_hosts_matrix.sh FABRICBENCH_BINARY CASE...}
shift
here=$(cd "$(dirname "$0")" && pwd)
logs=${FB_LOG_DIR:-$(mktemp -d)}
mkdir -p "$logs"
FB_TABLE=$(mktemp)
export FB_TABLE
worst=0
for case_name in "$@"; do
  start=$SECONDS
  bash "$here/fake_hosts_tests.sh" "$case_name" "$bin" > "$logs/$case_name.log" 2>&1
  rc=$?
  took=$((SECONDS - start))
  echo "$case_name: exit $rc in $took s"
  ((rc == 0)) || tail -n 15 "$logs/$case_name.log"
  echo "$case_name - - - $took $rc $([[ $rc == 0 ]] && echo ok || echo FAIL)" >> "$FB_TABLE"
  ((rc > worst)) && worst=$rc
done
echo
{
  echo "case hosts slow_kind named seconds rc ok"
  cat "$FB_TABLE"
} | column -t
rm -f "$FB_TABLE"
exit $worst
