#!/usr/bin/env bash
# Ctrl-C outside a worker run: `compare` of two large result documents (seconds of parsing) must
# end within a second of SIGINT, killed by the signal (the shell's 130), not run on to the end.
#   interrupt.sh FABRICBENCH FIXTURE_DIR
set -euo pipefail
bin=$1; fixtures=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# A real document with its runs repeated to ~60 MB: seconds to parse twice, within the 64 MiB
# input limit.
python3 - "$fixtures/results/h200x2-combined.json" "$tmp/big.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
one = len(json.dumps(doc["runs"]))
doc["runs"] = doc["runs"] * max(1, 60_000_000 // one)
json.dump(doc, open(sys.argv[2], "w"))
PY
start=$(date +%s%N)
"$bin" compare "$tmp/big.json" "$tmp/big.json" > /dev/null 2>&1 &
pid=$!
sleep 0.3
kill -INT "$pid"
sent=$(date +%s%N)
set +e
wait "$pid"
rc=$?
set -e
end=$(date +%s%N)
after_ms=$(((end - sent) / 1000000))
echo "compare: exit $rc, ended ${after_ms} ms after SIGINT ($(((sent - start) / 1000000)) ms after start)"
if [[ $rc -ne 130 ]]; then
  echo "FAIL: expected death by SIGINT (130), got $rc (finished before the signal? then the document is too small)"
  exit 1
fi
if [[ $after_ms -gt 1000 ]]; then
  echo "FAIL: took ${after_ms} ms after SIGINT (bound: 1000 ms)"
  exit 1
fi
echo "PASS"
