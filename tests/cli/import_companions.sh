#!/usr/bin/env bash
# A companion file must be of the output it comes with (issue 49): `report OUTPUT --nccl-log FILE` with
# a FILE that is no NCCL log at all, or the log of another run (other hosts, another library, version or
# communicator size), is refused in one line, exit 2, unless --force, which takes it and says so in the
# document. Real outputs and logs (tests/fixtures/imports/README.md, tests/fixtures/nccl/README.md).
set -u
bin=$1
fixtures=$2
fail=0
source "$(dirname "$0")/expect.sh"
imports=$fixtures/imports
logs=$fixtures/nccl
mi300x=$imports/rccl-tests-develop-448c4c7-mi300x8-rocm-blog.txt
mi250x=$logs/rccl-mi250x-2nodes-issue1026.log
lambda=$imports/nccl-tests-nccl2.26.2-h100x4-lambda-ib-disabled.txt

# A 2-host MI250X RCCL log under the blog's 8 x MI300X output of one host.
expect_line 2 "not this run's NCCL log: its lines are of hosts (g1064, g1072)" report "$mi300x" --nccl-log "$mi250x"
expect_line 2 "pass --force" report "$mi300x" --nccl-log "$mi250x" --analyse
# A README is no NCCL log.
expect_line 2 "it is no NCCL log" report "$lambda" --nccl-log "$imports/README.md"
# NCCL 2.19.3's log under an output of NCCL 2.26.2.
expect_line 2 "it is of NCCL 2.19.3, the output names NCCL 2.26.2" report "$lambda" \
  --nccl-log "$logs/nccl-2.19.3-2xH100-roce-nccl-tests-issue185.log"

# --force takes it, and the document says what it took against the output.
run report "$mi300x" --nccl-log "$mi250x" --force --format json
if [[ $rc -ne 0 && $rc -ne 1 ]]; then
  echo "FAIL: --force: exited $rc: ${out:0:300}"; fail=1
elif ! grep -q "taken with --force" <<< "$out"; then
  echo "FAIL: --force: the document does not say the log was forced: ${out:0:300}"; fail=1
else
  echo "ok: fabricbench report MI300X --nccl-log MI250X --force -> $rc, said in the document"
fi

# The run's own lines as its log: no conflict.
run report "$lambda" --nccl-log "$lambda" --format json
if [[ $rc -ne 0 && $rc -ne 1 ]]; then echo "FAIL: the run's own log refused ($rc): ${out:0:300}"; fail=1
else echo "ok: the run's own NCCL lines as --nccl-log -> $rc"; fi

exit $fail
