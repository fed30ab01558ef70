#!/usr/bin/env bash
# The layers outside gpu/, comm/ and tp_step/ compile the same for every vendor (cmake/layers.cmake):
# none of their sources, nor the vendor-neutral unit tests, may include a header that names the
# vendor's runtime or NCCL's types. Read from the compiler's own dependency files of BUILD_DIR
# (so it costs no compile), for the objects its compile database lists.
#   tests/layers/check_vendor_neutral.sh BUILD_DIR
set -u
build=${1:?usage: check_vendor_neutral.sh BUILD_DIR}
python3 - "$build" <<'PY'
import json, os, re, shlex, sys
build = sys.argv[1]
vendor = re.compile(r"/gpu/gpu_api\.hpp|/gpu/cuda_check\.hpp|/gpu/kernels/|/comm/nccl_api\.hpp|"
                    r"/comm/nccl_api_table\.hpp|/cuda_runtime\.h|/nccl\.h|/hip/")
vendor_dirs = ("/fb_gpu.dir/", "/fb_comm.dir/", "/fb_tp_step.dir/", "/fabricbench_mpi.dir/", "/fb_pch.dir/")
checked, bad = 0, 0
for e in json.load(open(os.path.join(build, "compile_commands.json"))):
    args = shlex.split(e["command"])
    obj = os.path.join(e["directory"], args[args.index("-o") + 1])
    neutral = "/src/CMakeFiles/" in obj or "/fb_unit_tests.dir/" in obj
    if not neutral or any(d in obj for d in vendor_dirs):
        continue
    try:
        deps = open(obj + ".d").read()
    except OSError:
        print(f"FAIL: no dependency file {obj}.d: build {build} first"); sys.exit(1)
    checked += 1
    hits = sorted({h for h in deps.split() if vendor.search(h)})
    if hits:
        bad += 1
        print(f"FAIL: {os.path.relpath(e['file'])} includes a vendor header: {' '.join(hits[:3])}")
if checked < 100:
    print(f"FAIL: only {checked} vendor-neutral sources in {build}'s compile database"); sys.exit(1)
if not bad:
    print(f"ok: {checked} vendor-neutral sources include no vendor header")
sys.exit(1 if bad else 0)
PY
