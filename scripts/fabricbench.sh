#!/usr/bin/env bash
# Builds fabricbench if needed, then runs it on all local GPUs.
#   scripts/fabricbench.sh              the main job: `fabricbench doctor` on all local GPUs
#   scripts/fabricbench.sh ARGS...      any fabricbench command, e.g. run all_reduce -b 8 -e 8G
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -x build/fabricbench ]]; then
  if ! command -v nvcc > /dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
    export PATH=/usr/local/cuda/bin:$PATH
  fi
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFABRICBENCH_BUILD_TESTS=OFF
  cmake --build build -j "$(nproc)" --target fabricbench
fi
[[ $# -gt 0 ]] || set -- doctor
exec build/fabricbench "$@"
