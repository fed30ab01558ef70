#!/usr/bin/env bash
# Sets the build up on a fresh machine, builds once, then runs fabricbench on all local GPUs.
#   scripts/fabricbench.sh              the main job: `fabricbench doctor` on all local GPUs
#   scripts/fabricbench.sh ARGS...      any fabricbench command, e.g. run all_reduce -b 8 -e 8G
# Needs a GPU compiler (the CUDA toolkit's nvcc, or ROCm's HIP clang); installs the rest of what the
# build needs with scripts/deps.sh (Debian/Ubuntu packages: CMake, g++, CLI11, nlohmann_json, fmt, Open
# MPI). The build goes to build/ (its log to build/build.log) and is brought up to date on every call:
# build/fabricbench and, beside it, build/libfabricbench_mpi.so, the plugin `mpirun ... fabricbench` loads.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
  echo "fabricbench: error: $*" >&2
  exit 3
}

configure_args=(-DCMAKE_BUILD_TYPE=Release -DFABRICBENCH_BUILD_TESTS=OFF)
if ! command -v nvcc > /dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
if command -v nvcc > /dev/null; then
  # Only the local GPUs' architecture where a GPU answers (a smaller, faster build); else the defaults.
  if nvidia-smi -L 2> /dev/null | grep -q '^GPU '; then configure_args+=(-DCMAKE_CUDA_ARCHITECTURES=native); fi
elif [[ -x /opt/rocm/llvm/bin/clang++ ]]; then
  configure_args+=(-DFABRICBENCH_GPU=hip -DCMAKE_HIP_COMPILER=/opt/rocm/llvm/bin/clang++ -DCMAKE_PREFIX_PATH=/opt/rocm)
  archs=$(/opt/rocm/bin/rocm_agent_enumerator 2> /dev/null | grep -v '^gfx000$' | sort -u | paste -sd';' || true)
  [[ -z $archs ]] || configure_args+=("-DCMAKE_HIP_ARCHITECTURES=$archs")
elif command -v hipcc > /dev/null; then
  configure_args+=(-DFABRICBENCH_GPU=hip)  # Debian's ROCm (hipcc, libamdhip64-dev): cmake/gpu_backend.cmake
else
  fail "no GPU compiler found: install the CUDA toolkit (nvcc: https://developer.nvidia.com/cuda-downloads) for NVIDIA GPUs, or ROCm (hipcc) for AMD GPUs, then run this again"
fi

bash scripts/deps.sh build

mkdir -p build
log=build/build.log
# A build configured before Open MPI was installed has no plugin target: configure it again.
if [[ -f build/CMakeCache.txt ]] && command -v mpicc > /dev/null &&
  ! grep -qs fabricbench_mpi build/CMakeFiles/TargetDirectories.txt; then
  rm -f build/CMakeCache.txt
fi
if [[ ! -f build/CMakeCache.txt ]]; then
  echo "fabricbench: configuring the build (log: $log)" >&2
  cmake -S . -B build "${configure_args[@]}" > "$log" 2>&1 || { tail -30 "$log" >&2; fail "configuring failed (log: $log)"; }
fi
[[ -x build/fabricbench ]] || echo "fabricbench: building with $(nproc) jobs, a few minutes the first time (log: $log)" >&2
cmake --build build -j "$(nproc)" --target fabricbench >> "$log" 2>&1 ||
  { tail -30 "$log" >&2; fail "the build failed (log: $log)"; }
[[ -f build/libfabricbench_mpi.so ]] ||
  echo "fabricbench: no MPI plugin built (CMake found no MPI: build/build.log); runs under mpirun are refused" >&2
[[ $# -gt 0 ]] || set -- doctor
exec build/fabricbench "$@"
