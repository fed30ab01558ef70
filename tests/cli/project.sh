#!/usr/bin/env bash
# `fabricbench project` run for real on a saved 2 x H200 result and on other tools' outputs (no GPU
# needed): bad input exits 2 with a clear message (a file it cannot use: one line saying why and what
# to pass), a good projection exits 0, writes a document that reloads and renders.
set -u
bin=$1
results=$2
imports=$results/../imports
fixture=$results/h200x2-run-6coll-1M-4G-procs.json
rccl=$imports/rccl-tests-develop-448c4c7-mi300x8-rocm-blog.txt
fail=0
source "$(dirname "$0")/expect.sh"
rates=(--gemm-tflops 700 --hbm-gbps 4000)
good=(--model llama-3-70b --batch 64 --tp 1,2 "${rates[@]}")
expect 0 "Examples" project --help
expect 0 "llama-3-70b" project --model list
expect 2 "--hidden must be a positive number (got 0)" project "$fixture" --model llama-3-70b --hidden 0 "${rates[@]}"
expect 2 "--ffn must be a positive number (got -5)" project "$fixture" --model llama-3-70b --ffn=-5 "${rates[@]}"
expect 2 "--batch" project "$fixture" --model llama-3-70b --batch 0 "${rates[@]}"
expect 2 "--batch" project "$fixture" --model llama-3-70b --batch=-8 "${rates[@]}"
expect 2 "attention heads do not divide by 3" project "$fixture" --model llama-3-70b --tp 3 "${rates[@]}"
expect 2 "unknown model 'gpt-9'" project "$fixture" --model gpt-9 "${rates[@]}"
expect 2 "give a model" project "$fixture" "${rates[@]}"
expect 2 "--gemm-tflops must be positive" project "$fixture" --model llama-3-70b --gemm-tflops=-1 --hbm-gbps 1
expect 2 "covers all_reduce on 2 GPUs only" project "$fixture" --model llama-3-70b --batch 64 --tp 8 "${rates[@]}"
expect 2 "measure it" project "$fixture" --model llama-3-70b --batch 1 --tp 2 "${rates[@]}"
# Without --gemm-tflops/--hbm-gbps the GEMMs are timed on GPU 0, but only once the curves can answer.
expect 2 "measure it" project "$fixture" --model llama-3-70b --batch 1 --tp 2
expect 2 "cannot read" project "$results/missing.json" "${good[@]}"
expect 0 "Cheapest that still pays: TP=2" project "$fixture" "${good[@]}"
# TP=8 on a host of 2 GPUs crosses hosts: no network figure in the document, so refused with the flag.
expect_line 2 "--net-busbw" project "$fixture" --model llama-3-70b --batch 64 --tp 8 --assume "${rates[@]}"
# With a figure given: the network's busbw, never the host's own NVLink curve (no latency across hosts).
expect 0 "assumed (40.0 GB/s busbw)" project "$fixture" --model llama-3-70b --batch 64 --tp 8 --assume \
  --net-busbw 40 "${rates[@]}"
expect_line 2 "--net-busbw assumes a figure: it needs --assume" project "$fixture" "${good[@]}" --net-busbw 40

# Files it cannot use: one line, why and what to pass, exit 2.
expect_line 2 "no all_reduce measured on 2 or more GPUs" project "$results/synthetic-pcie-nominal.json" "${good[@]}"
expect_line 2 "all_reduce on 1 GPU" project "$results/synthetic-1gpu.json" "${good[@]}"
expect_line 2 "describe another tool's output" project "$fixture" "${good[@]}" --topo "$rccl"
# Another tool's output, read as `report` reads it: what was converted first, p99 not measured.
expect 0 "Read from rccl-tests" project "$rccl" --model llama-3-70b --batch 1 --tp 8 "${rates[@]}"
expect 0 "not measured" project "$rccl" --model llama-3-70b --batch 1 --tp 8 "${rates[@]}"
expect_line 2 "--assume" project "$rccl" --model llama-3-70b --tp 2,4,8 "${rates[@]}"
expect 0 "bounded (48.0 GB/s busbw)" project "$rccl" --model llama-3-70b --tp 2,4,8 --assume "${rates[@]}"
expect_line 2 "--net-busbw" project "$rccl" --model llama-3-70b --tp 16 --assume "${rates[@]}"
# A scale result with whole 2-, 4- and 8-GPU curves: each TP its own curve, no flag needed.
scale_curves=(project "$results/synthetic-scale-curves.json" --model llama-3-70b --tp 2,4,8 --batch 8 "${rates[@]}")
for n in 2 4 8; do expect 0 "measured ($n-GPU curve)" "${scale_curves[@]}"; done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'hello\nnot a result\n' > "$tmp/junk.txt"
expect_line 2 "junk.txt: not a JSON document, nor an output fabricbench reads (nccl-tests" \
  project "$tmp/junk.txt" "${good[@]}"
: > "$tmp/empty.txt"
expect_line 2 "empty.txt: not a JSON document, nor an output fabricbench reads" project "$tmp/empty.txt" "${good[@]}"
printf '[1, 2\n' > "$tmp/broken.json"
expect_line 2 "broken.json: not a JSON document: " project "$tmp/broken.json" "${good[@]}"
expect_line 2 "nor an output fabricbench reads (nccl-tests" project "$tmp/broken.json" "${good[@]}"
printf '{"a": 1}\n' > "$tmp/other.json"
expect_line 2 "this build reads fabricbench.result/1.x" project "$tmp/other.json" "${good[@]}"
expect_line 2 "it holds sendrecv on 8 GPUs): pass the result of \`fabricbench run all_reduce" \
  project "$imports/nccl-tests-sendrecv-a100x8-nvlink-li-plus.txt" "${good[@]}"
# A --nccl-log that is not the output's run: refused naming --force, which project takes as report does.
printf 'not NCCL\n' > "$tmp/readme.txt"
expect_line 2 "pass --force to use it anyway" project "$rccl" --model llama-3-70b --tp 8 "${rates[@]}" \
  --nccl-log "$tmp/readme.txt"
expect 0 "taken with --force" project "$rccl" --model llama-3-70b --tp 8 "${rates[@]}" --nccl-log "$tmp/readme.txt" \
  --force
expect_line 2 "--force requires --nccl-log" project "$rccl" --model llama-3-70b --tp 8 "${rates[@]}" --force
printf '{"hidden": 4096, "layers": 2, "heads": 32, "kv_heads": 8, "ffn": 14336}\n' > "$tmp/shape.json"
expect 0 "Model: custom" project "$fixture" --shape "$tmp/shape.json" --batch 256 --tp 2 "${rates[@]}"
printf '{"hidden": 1e300, "layers": 2, "heads": 32, "kv_heads": 8, "ffn": 14336}\n' > "$tmp/huge.json"
expect 2 "expected a whole number" project "$fixture" --shape "$tmp/huge.json" "${rates[@]}"
expect 0 "prefill" "${scale_curves[@]}" --json "$tmp/scale.json"
python3 - "$tmp/scale.json" <<'PY' || fail=1
import json, sys
for ph in json.load(open(sys.argv[1]))["projection"]["phases"]:
    for r in ph["rows"][1:]:
        assert (r["comm_basis"], r["curve_gpus"], r["tail"]) == ("measured", r["tp"], "measured"), r
print("ok: each TP of the scale result took its own curve")
PY
expect 0 "prefill" project "$fixture" "${good[@]}" --json "$tmp/p.json"
expect 0 "" report "$tmp/p.json" -o "$tmp/p.html"
grep -q 'data-chart="projection-speedup"' "$tmp/p.html" || { echo "FAIL: no projection chart in the report"; fail=1; }
python3 - "$tmp/p.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["projection"]["phases"][1]["rows"]
assert [r["tp"] for r in rows] == [1, 2], rows
assert rows[1]["allreduce_bytes"] == 1 << 20, rows[1]
print("ok: the document holds the projection")
PY
exit $fail
