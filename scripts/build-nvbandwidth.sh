#!/usr/bin/env bash
# Builds nvbandwidth (the same-call baseline of scripts/one-gpu-check.sh) from its public source on a
# machine without a GPU, so that the binary can be carried to the GPU machine (whose Ubuntu has
# Boost's headers but not its program_options library):
#   scripts/build-nvbandwidth.sh NVBANDWIDTH_SOURCE [BUILD_DIR]    (default build-nvbandwidth/obj)
# Boost's program_options comes from Debian (libboost-program-options-dev, linked statically, as
# nvbandwidth's CMakeLists asks); nvml.h from NVIDIA's PyPI package nvidia-nvml-dev-cu12; the NVML
# and CUDA driver libraries are linked against stand-ins (CUDA's libcuda stub, and a generated
# libnvidia-ml.so.1 with the five entry points nvbandwidth calls): the driver's own libraries load
# at run time on the GPU machine, by their SONAMEs. Nothing of nvbandwidth is kept in this repository.
set -euo pipefail
src=${1:?usage: build-nvbandwidth.sh NVBANDWIDTH_SOURCE [BUILD_DIR]}
out=${2:-build-nvbandwidth/obj}
[[ -f $src/nvbandwidth.cpp ]] || { echo "error: $src is not nvbandwidth's source" >&2; exit 2; }
dpkg -s libboost-program-options-dev > /dev/null 2>&1 ||
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libboost-program-options-dev > /dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m pip download -q --no-deps -d "$work" nvidia-nvml-dev-cu12
python3 -m zipfile -e "$work"/nvidia_nvml_dev_cu12-*.whl "$work/nvml"
include=$work/nvml/nvidia/nvml_dev/include
cat > "$work/nvml_stub.c" << 'EOF'
/* Link-time stand-in for the driver's libnvidia-ml.so.1; never run (the real one loads by SONAME). */
int nvmlInit_v2(void) { return 999; }
int nvmlErrorString(void) { return 0; }
int nvmlSystemGetDriverVersion(void) { return 999; }
int nvmlDeviceGetHandleByUUID(void) { return 999; }
int nvmlDeviceSetCpuAffinity(void) { return 999; }
EOF
mkdir -p "$work/lib"
gcc -shared -fPIC -Wl,-soname,libnvidia-ml.so.1 -o "$work/lib/libnvidia-ml.so" "$work/nvml_stub.c"
cuda=$(dirname "$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")")
cmake -S "$src" -B "$out" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCMAKE_CXX_FLAGS="-I$include" -DCMAKE_CUDA_FLAGS="-I$include" \
  -DCMAKE_EXE_LINKER_FLAGS="-L$work/lib -L$cuda/lib64/stubs" > /dev/null
cmake --build "$out" -j "$(nproc)" > /dev/null
echo "built $out/nvbandwidth"
