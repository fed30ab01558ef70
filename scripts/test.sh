#!/usr/bin/env bash
# Installs what the build and the tests need (scripts/deps.sh test), builds everything (CUDA code
# included; no GPU needed) and runs every test that needs no GPU: the unit, CLI, report and browser
# tests, the lint (clang-format, clang-tidy, function and file sizes), the HIP backend (AMD) built
# from the same source with Debian's ROCm and its tests, the sanitizer build's tests and every fuzz
# target. Prints how long each step took at the end (and when a step fails).
#   scripts/test.sh                 (build directories: build/, build-hip/, build-fuzz/)
#   scripts/test.sh --changed       the contributor's loop: build and run the unit and CLI tests, and
#                                   lint only the files changed against origin/main (or HEAD~1)
# CI runs exactly `scripts/test.sh` (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
[[ $mode == all || $mode == --changed ]] || { echo "usage: scripts/test.sh [--changed]" >&2; exit 2; }

names=()
seconds=()
started=$SECONDS
print_times() {
  echo
  printf '%-38s %8s\n' step seconds
  for i in "${!names[@]}"; do printf '%-38s %8d\n' "${names[i]}" "${seconds[i]}"; done
  printf '%-38s %8d\n' total $((SECONDS - started))
}
# step NAME COMMAND...: runs it, records its wall time; a failure prints the table and ends the run.
step() {
  local name=$1 t=$SECONDS rc=0
  shift
  echo "== $name"
  "$@" || rc=$?
  names+=("$name")
  seconds+=($((SECONDS - t)))
  if [[ $rc -ne 0 ]]; then
    print_times
    echo "FAILED: $name (exit $rc)"
    exit "$rc"
  fi
}

if ! command -v nvcc > /dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
jobs=$(nproc)

step "dependencies (apt-get, pip)" bash scripts/deps.sh test
command -v nvcc > /dev/null || { echo "fabricbench: error: nvcc (the CUDA toolkit) is needed to build"; exit 3; }
# One GPU architecture for the tests' build: every CUDA source still compiles (and for the
# architecture of the GPU machines), at half the device-code cost of the default 80;90.
step "CUDA build: configure" cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DFABRICBENCH_BUILD_TESTS=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90
step "CUDA build" cmake --build build -j "$jobs"

if [[ $mode == --changed ]]; then
  step "unit and CLI tests" bash -c "cd build && ctest -L '^(unit|nogpu)$' -E report_html_browser --output-on-failure"
  step "lint: changed files" bash scripts/lint.sh changed build
  print_times
  exit 0
fi

step "unit, CLI, report and browser tests" bash -c "cd build && ctest -LE '^(gpu|lint)$' --output-on-failure --no-tests=error"
step "lint: clang-format, clang-tidy, sizes" bash -c "cd build && ctest -L '^lint$' --output-on-failure --no-tests=error"

# The HIP backend (FABRICBENCH_GPU=hip, gfx90a with Debian's ROCm 5.2): only what differs from the
# CUDA build is compiled again, the vendor layers (gpu/, comm/, tp_step/), main() and the vendor's
# unit tests; the neutral layers and tests come from build/ (cmake/layers.cmake). Then the unit tests
# and the CLI tests that need no GPU, the no-GPU exit among them.
step "HIP build: configure" cmake -S . -B build-hip -DFABRICBENCH_GPU=hip -DCMAKE_BUILD_TYPE=Release \
  -DFABRICBENCH_NEUTRAL_LAYERS_FROM="$PWD/build"
step "HIP build" cmake --build build-hip -j "$jobs" --target fabricbench unit_tests
step "HIP tests" bash -c "cd build-hip && ctest -L '^(unit|nogpu)$' \
  -R '^(cli_no_gpu|cli_usage_errors|cli_exit_codes)$|[.]' --output-on-failure --no-tests=error"

# The sanitizer build (fuzz/CMakeLists.txt: clang, ASan + UBSan + float-cast-overflow; the parsers'
# host sources only): its unit tests, then every fuzz target, as many at a time as there are cores,
# for FABRICBENCH_FUZZ_SECONDS each (default: 15 s per core, at most 60: 30 s on 2 cores).
fuzz_seconds=${FABRICBENCH_FUZZ_SECONDS:-$((jobs * 15 < 60 ? jobs * 15 : 60))}
step "sanitizer build" bash -c "CXX=clang++ cmake -S fuzz -B build-fuzz > /dev/null && cmake --build build-fuzz -j $jobs"
step "sanitizer unit tests" build-fuzz/sanitized_unit_tests
step "fuzz targets (${fuzz_seconds} s each)" bash fuzz/run.sh build-fuzz "$fuzz_seconds"
print_times
