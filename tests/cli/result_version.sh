#!/usr/bin/env bash
# The result document's version rule with the real binary (docs/result-schema.md, "Versions"): the
# 1.0 documents the landed build wrote ("fabricbench.result/1") read with their figures; the same
# document as a later minor with members this build does not know reads the same; another major or
# a malformed version is refused in one line (exit 2) that says what the file holds and what is read.
set -u
bin=$1
results=$2
fail=0
source "$(dirname "$0")/expect.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
one=$results/h200x1-doctor.json
two=$results/h200x2-doctor-quick.json

# The figures the binary must print, taken from the documents themselves; and the variants.
python3 - "$one" "$two" "$tmp" <<'PY' || { echo "FAIL: could not prepare the documents"; exit 1; }
import json, sys
one, two, tmp = sys.argv[1:]
docs = {name: json.load(open(path)) for name, path in (("one", one), ("two", two))}
for name, doc in docs.items():
    assert doc["schema"] == "fabricbench.result/1", f"{name}: the 1.0 fixture says {doc['schema']}"
h2d = next(m for m in docs["one"]["p2p"] if m["test"] == "h2d")
open(f"{tmp}/one-figure", "w").write(f"| h2d GPU{h2d['dst']} | {h2d['value']:.1f} GB/s |")
point = docs["two"]["runs"][0]["points"][-1]
open(f"{tmp}/two-figure", "w").write(f",{point['bytes']},{point['count']},")
open(f"{tmp}/two-busbw", "w").write(f",{point['busbw_gbps']:.3f},")
for name, doc in docs.items():
    later = json.loads(json.dumps(doc))
    later["schema"] = "fabricbench.result/1.7"
    later["added_in_1_7"] = {"anything": [1, 2]}
    later["host"]["added_in_1_7"] = "x"
    later["p2p"][0]["added_in_1_7"] = 1
    for run in later["runs"]:
        run["added_in_1_7"] = True
        for p in run["points"]:
            p["added_in_1_7"] = {"nested": None}
    json.dump(later, open(f"{tmp}/{name}-1.7.json", "w"))
    for version in ("2.0", "1.x"):
        json.dump(dict(doc, schema=f"fabricbench.result/{version}"), open(f"{tmp}/{name}-{version}.json", "w"))
PY

# The 1.0 documents read, with the figures they hold.
expect 0 "$(cat "$tmp/one-figure")" report "$one"
expect 0 "1 GPU · status complete" report "$one"
expect 0 "$(cat "$tmp/two-figure")" report "$two" --format csv
expect 0 "$(cat "$tmp/two-busbw")" report "$two" --format csv
expect 0 "ALGO_FORCED_FASTER" report "$two" --analyse

# A later minor reads as the document without what it added: the same output, byte for byte.
for name in one two; do
  src=$one
  [[ $name == two ]] && src=$two
  for format in md csv; do
    "$bin" report "$src" --format $format > "$tmp/$name.$format" 2>&1
    if "$bin" report "$tmp/$name-1.7.json" --format $format > "$tmp/$name-1.7.$format" 2>&1 &&
      cmp -s "$tmp/$name.$format" "$tmp/$name-1.7.$format"; then
      echo "ok: $name as 1.7 with unknown members: the same $format as the 1.0 document"
    else
      echo "FAIL: $name as 1.7: not the 1.0 document's $format:"; diff "$tmp/$name.$format" "$tmp/$name-1.7.$format" | head
      fail=1
    fi
  done
done
expect 0 "" compare "$two" "$tmp/two-1.7.json"

# Another major, a malformed version: one line each, naming both versions.
reads="this build reads fabricbench.result/1.x (any minor of version 1; it writes 1.6)"
expect_line 2 "\$.schema: unsupported result schema \"fabricbench.result/2.0\" (version 2.0): $reads" \
  report "$tmp/one-2.0.json"
expect_line 2 "\$.schema: unsupported result schema \"fabricbench.result/1.x\" (not fabricbench.result/MAJOR.MINOR): $reads" \
  report "$tmp/one-1.x.json"
expect_line 2 "one-2.0.json: \$.schema: unsupported result schema" compare "$two" "$tmp/one-2.0.json"
exit $fail
