#!/usr/bin/env bash
# The one list of what fabricbench needs from the distribution, and the one place that installs it
# (Debian/Ubuntu, apt-get; PyPI for the Python tools the tests use).
#   scripts/deps.sh build        what building the binary and its MPI plugin need (scripts/fabricbench.sh)
#   scripts/deps.sh test         that, and what the tests need: linters, browser, Slurm, the
#                                sanitizer and HIP toolchains, promtool, playwright, lizard, jsonschema and
#                                kubernetes-validate (scripts/test.sh)
#   scripts/deps.sh list SET     prints SET's Debian packages, one line
# Installs only what is missing; as root directly, else through sudo. Where it cannot (no apt-get,
# or neither root nor sudo), it names what to install and exits 3. The GPU compiler itself (the
# CUDA toolkit's nvcc, or ROCm) is not a Debian package here: scripts/fabricbench.sh checks it.
set -euo pipefail

# libssl-dev: OpenSSL's libcrypto (HMAC-SHA256 of the job's authenticated rendezvous, docs/security.md).
# Open MPI's headers and mpirun: the MPI plugin (libfabricbench_mpi.so, built beside the binary) that
# `mpirun ... fabricbench` loads; without them the build leaves the plugin out.
build_packages=(cmake make g++ libcli11-dev nlohmann-json3-dev libfmt-dev libssl-dev openmpi-bin libopenmpi-dev)
test_packages=("${build_packages[@]}" libgtest-dev python3 git
  clang-format                     # lint_clang_format (clang-tidy comes from PyPI, below)
  chromium                         # report_html_browser (through playwright)
  prometheus                       # prometheus_promtool: `promtool check metrics` on --prometheus files
  slurm-wlm munge                  # slurm_srun: a throw-away single-host Slurm (slurmctld, slurmd, srun)
  clang libclang-rt-14-dev         # the sanitizer build: clang and its libFuzzer/ASan/UBSan runtimes
  hipcc libamdhip64-dev)           # the HIP build: Debian's ROCm 5.2 compiler (clang-15) and runtime
# Python module:pip requirement. The browser test's driver; lint_function_and_file_size;
# lint_clang_tidy's clang-tidy, pinned (scripts/lint.sh checks the version); result_schema's
# JSON-Schema validator (draft 2020-12: jsonschema 4 or later); deploy_manifests' Kubernetes
# schemas, pinned (kubernetes-validate bundles them: no network when it runs).
test_python=(playwright:playwright lizard:lizard clang_tidy:clang-tidy==23.1.4 "jsonschema:jsonschema>=4"
  kubernetes_validate:kubernetes-validate==1.37.0)

fail() {
  echo "fabricbench: error: $*" >&2
  exit 3
}

# Whether what PACKAGE provides is here: the package itself, or the same thing installed
# another way (CMake from pip, headers from source; the GPU machines have both).
present() {
  dpkg -s "$1" > /dev/null 2>&1 && return 0
  case $1 in
    cmake) command -v cmake > /dev/null &&
      printf '3.24\n%s\n' "$(cmake --version | head -1 | grep -oE '[0-9]+\.[0-9]+(\.[0-9]+)?')" | sort -VC ;;
    make | g++ | git | python3) command -v "$1" > /dev/null ;;
    prometheus) command -v promtool > /dev/null ;;
    openmpi-bin) command -v mpirun > /dev/null ;;
    libopenmpi-dev) command -v mpicc > /dev/null ;;
    libcli11-dev) [[ -f /usr/include/CLI/CLI.hpp || -f /usr/local/include/CLI/CLI.hpp ]] ;;
    nlohmann-json3-dev) [[ -f /usr/include/nlohmann/json.hpp || -f /usr/local/include/nlohmann/json.hpp ]] ;;
    libfmt-dev) [[ -f /usr/include/fmt/format.h || -f /usr/local/include/fmt/format.h ]] ;;
    libssl-dev) [[ -f /usr/include/openssl/hmac.h || -f /usr/local/include/openssl/hmac.h ]] ;;
    *) return 1 ;;
  esac
}

install_debian() {
  local missing=() p
  for p in "$@"; do
    present "$p" || missing+=("$p")
  done
  [[ ${#missing[@]} -eq 0 ]] && return 0
  command -v apt-get > /dev/null ||
    fail "not a Debian/Ubuntu system (no apt-get): install your distribution's packages for: ${missing[*]}"
  local sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo > /dev/null ||
      fail "missing packages and neither root nor sudo to install them; ask an administrator to run: apt-get install -y ${missing[*]}"
    sudo_cmd=(sudo)
  fi
  echo "fabricbench: installing ${missing[*]}" >&2
  "${sudo_cmd[@]}" apt-get update -qq ||
    fail "apt-get update failed; install by hand: apt-get install -y ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" > /dev/null ||
    fail "apt-get install failed; install by hand: apt-get install -y ${missing[*]}"
}

# Whether MODULE imports and, for a pinned NAME==VERSION, is that version.
have_python() {
  python3 - "$1" "$2" 2> /dev/null <<'PY'
import importlib, importlib.metadata, sys
module, requirement = sys.argv[1], sys.argv[2]
importlib.import_module(module)
if "==" in requirement:
    name, version = requirement.split("==")
    sys.exit(0 if importlib.metadata.version(name) == version else 1)
PY
}

install_python() {  # MODULE:REQUIREMENT...
  local entry module requirement
  for entry in "$@"; do
    module=${entry%%:*}
    requirement=${entry#*:}
    have_python "$module" "$requirement" && continue
    echo "fabricbench: installing $requirement (pip)" >&2
    python3 -m pip install -q "$requirement" 2>&1 | grep -v 'Running pip as the .root. user' >&2 || true
    have_python "$module" "$requirement" ||
      fail "could not install the Python package $requirement: python3 -m pip install '$requirement'"
  done
}

case ${1:-} in
  build) install_debian "${build_packages[@]}" ;;
  test)
    install_debian "${test_packages[@]}"
    install_python "${test_python[@]}"
    ;;
  list)
    case ${2:-} in
      build) echo "${build_packages[*]}" ;;
      test) echo "${test_packages[*]}" ;;
      *) echo "usage: scripts/deps.sh list build|test" >&2; exit 2 ;;
    esac
    ;;
  *) echo "usage: scripts/deps.sh build | test | list build|test" >&2; exit 2 ;;
esac
