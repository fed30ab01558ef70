#!/usr/bin/env bash
# Installs what the build needs (Debian/Ubuntu packages, with apt-get, when missing), builds
# everything (CUDA code included; no GPU needed) and runs every test that needs no GPU; then builds
# the HIP backend (AMD) from the same source with Debian's ROCm and runs its tests that need no GPU.
#   scripts/test.sh            (build directories: build/, build-hip/, build-fuzz/)
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake make g++ libcli11-dev nlohmann-json3-dev libfmt-dev libgtest-dev python3 chromium openmpi-bin
  clang-format clang-tidy
  libopenmpi-dev
  clang libclang-rt-14-dev  # the sanitizer build: clang and its libFuzzer/ASan/UBSan runtimes
  hipcc libamdhip64-dev)    # the HIP build: Debian's ROCm 5.2 compiler (clang-15) and runtime
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" > /dev/null 2>&1 || missing+=("$p")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "installing: ${missing[*]}"
  sudo_cmd=""
  [[ $(id -u) -eq 0 ]] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" > /dev/null
fi
if ! command -v nvcc > /dev/null && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi
command -v nvcc > /dev/null || { echo "error: nvcc (the CUDA toolkit) is needed to build"; exit 3; }

# The HTML report's browser test drives Debian's chromium through playwright (from PyPI; no
# browser download: it launches /usr/bin/chromium).
python3 -c 'import playwright' 2> /dev/null || python3 -m pip install -q playwright

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
(cd build && ctest -LE '^gpu$' --output-on-failure)

# The HIP backend (FABRICBENCH_GPU=hip, gfx90a with Debian's ROCm 5.2): only the binary and the unit
# tests are built (no lint, no fuzz: the sources are the same), then the unit tests and the CLI
# tests that need no GPU, the no-GPU exit among them.
cmake -S . -B build-hip -DFABRICBENCH_GPU=hip -DCMAKE_BUILD_TYPE=Release
cmake --build build-hip -j "$(nproc)" --target fabricbench unit_tests
(cd build-hip && ctest -L '^(unit|nogpu)$' -R '^(cli_no_gpu|cli_usage_errors|cli_exit_codes)$|[.]' \
  --output-on-failure)

# The sanitizer build (fuzz/CMakeLists.txt: clang, ASan + UBSan + float-cast-overflow; the parsers'
# host sources only): its unit tests, then every fuzz target for 60 s, two at a time.
CXX=clang++ cmake -S fuzz -B build-fuzz
cmake --build build-fuzz -j "$(nproc)"
build-fuzz/sanitized_unit_tests
bash fuzz/run.sh build-fuzz "${FABRICBENCH_FUZZ_SECONDS:-60}"
