#!/usr/bin/env bash
# --progress json: stderr holds one JSON object per line, kind and text first (docs/cli.md).
# Without a GPU no command gets as far as a stage or progress event, so the events checked here
# are errors: a usage error said by main(), and a job's failed start-up said by the engine's
# job_main; both go through the same sink and renderer as every other event.
#   progress_json.sh FABRICBENCH_BINARY
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
cat > "$tmp/check.py" <<'PY'
import json, sys
kind, needle = sys.argv[1], sys.argv[2]
lines = sys.stdin.read().splitlines()
assert lines, "no output"
events = [json.loads(line) for line in lines]  # every line is one JSON object
for e in events:
    assert isinstance(e, dict) and list(e)[:2] == ["kind", "text"], e
assert events[-1]["kind"] == kind and needle in events[-1]["text"], events[-1]
PY

# json_lines KIND NEEDLE CODE ARGS...: ARGS exits CODE, its stderr JSON lines only, the last of
# kind KIND with NEEDLE in its text.
json_lines() {
  local kind=$1 needle=$2 code=$3 err rc
  shift 3
  err=$("$@" 2>&1 > /dev/null)
  rc=$?
  [[ $rc -eq $code ]] || { bad "$*: exit $rc, expected $code: $err"; return; }
  python3 "$tmp/check.py" "$kind" "$needle" <<< "$err" || { bad "$*: $err"; return; }
  echo "ok: $* -> $code: $err"
}

json_lines error "The following argument was not expected: --bogus" 2 "$bin" topo --progress json --bogus
json_lines error "unknown collective 'allreduce'" 2 "$bin" --progress=json run allreduce
json_lines error "--launcher torchrun: the variable MASTER_ADDR is not set" 2 \
  env -u MASTER_ADDR RANK=0 WORLD_SIZE=1 "$bin" topo --launcher torchrun --progress json

# The console's words are the default, and an unknown format is refused before anything runs.
out=$(env -u MASTER_ADDR RANK=0 WORLD_SIZE=1 "$bin" topo --launcher torchrun 2>&1)
[[ $out == "fabricbench: error: --launcher torchrun: the variable MASTER_ADDR is not set (the launcher sets it)" ]] ||
  bad "console form: $out"
out=$("$bin" topo --progress xml 2>&1)
rc=$?
[[ $rc -eq 2 && $out == "fabricbench: error: unknown --progress format 'xml'" ]] || bad "--progress xml: $rc $out"
[[ $fail -eq 0 ]] && echo "all --progress json checks passed"
exit $fail
