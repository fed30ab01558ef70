#!/usr/bin/env bash
# Builds fabricbench if needed, then runs it on all local GPUs.
#   scripts/fabricbench.sh              the main job (see below)
#   scripts/fabricbench.sh ARGS...      any fabricbench command, e.g. run all_reduce -b 8 -e 8G
# The main job today is the collective sweep, with results in fabricbench-result.json;
# `fabricbench doctor` replaces it once it exists.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -x build/fabricbench ]]; then
  if ! command -v nvcc > /dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
    export PATH=/usr/local/cuda/bin:$PATH
  fi
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFABRICBENCH_BUILD_TESTS=OFF
  cmake --build build -j "$(nproc)" --target fabricbench
fi
if [[ $# -eq 0 ]]; then
  set -- run all_reduce all_gather reduce_scatter alltoall broadcast sendrecv -b 1M -e 4G -f 4 -c 1 \
    --json fabricbench-result.json --csv fabricbench-result.csv
fi
exec build/fabricbench "$@"
