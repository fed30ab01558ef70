# The GPU backend chosen by FABRICBENCH_GPU (top-level CMakeLists.txt). Sets
#   FB_GPU_LANGUAGE      the language of the kernels' .cu files (CUDA or HIP)
#   FB_GPU_RUNTIME_LIBS  what fb_gpu links (the runtime)
#   FB_GPU_DEFINITIONS   what every layer above gpu/ is compiled with
#   NCCL_INCLUDE_DIR     nccl.h (CUDA only; where it is missing, and in the HIP build, comm/nccl_api.hpp
#                        declares the API itself and FB_NCCL_OWN_DECLARATIONS is set)

# Debian 12's ROCm 5.2 with its CMake 3.25: the HIP language needs the clang that ROCm was built
# for (clang-15; /usr/bin/clang++ is 14), told where ROCm and its device libraries are (as
# Debian's hipcc does: --rocm-path=/usr, the bitcode under lib/<multiarch>), and CMake looks for hip-lang only under <root>/lib/cmake
# while Debian installs it (and amd_comgr, hsa-runtime64, which hip-lang looks for in turn) under
# lib/<multiarch>/cmake. A root in the build tree whose lib/cmake/<package> link there satisfies
# CMake (hip-lang resolves its own real path to /usr).
function(fb_debian_rocm_workarounds)
  if(NOT DEFINED CMAKE_HIP_COMPILER AND NOT DEFINED ENV{HIPCXX} AND EXISTS /usr/lib/llvm-15/bin/clang++
     AND EXISTS /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake/hip-lang)
    set(CMAKE_HIP_COMPILER /usr/lib/llvm-15/bin/clang++ CACHE FILEPATH "HIP compiler (Debian's ROCm 5.2: clang-15)")
    set(bitcode /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/amdgcn/bitcode)
    if(NOT DEFINED CMAKE_HIP_FLAGS AND EXISTS ${bitcode})
      set(CMAKE_HIP_FLAGS "--rocm-path=/usr --hip-device-lib-path=${bitcode}" CACHE STRING "HIP compiler flags")
    endif()
  endif()
  set(multiarch /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake)
  if(NOT DEFINED CMAKE_HIP_COMPILER_ROCM_ROOT AND NOT EXISTS /usr/lib/cmake/hip-lang AND EXISTS ${multiarch}/hip-lang)
    set(root ${CMAKE_BINARY_DIR}/rocm-root)
    file(MAKE_DIRECTORY ${root}/lib/cmake)
    foreach(package hip-lang amd_comgr hsa-runtime64)
      file(CREATE_LINK ${multiarch}/${package} ${root}/lib/cmake/${package} SYMBOLIC)
    endforeach()
    set(CMAKE_HIP_COMPILER_ROCM_ROOT ${root} CACHE PATH "ROCm root for CMake's HIP language (Debian multiarch shim)")
  endif()
  # hip-lang's own find_dependency calls run in CMake's compiler checks too, which see the
  # environment but not this project's variables.
  if(CMAKE_HIP_COMPILER_ROCM_ROOT STREQUAL "${CMAKE_BINARY_DIR}/rocm-root")
    set(ENV{CMAKE_PREFIX_PATH} "${CMAKE_HIP_COMPILER_ROCM_ROOT}:$ENV{CMAKE_PREFIX_PATH}")
  endif()
endfunction()

if(FABRICBENCH_GPU STREQUAL "cuda")
  enable_language(CUDA)
  set(CMAKE_CUDA_STANDARD 20)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  set(CMAKE_CUDA_EXTENSIONS OFF)
  # Older CMake (Debian 12 ships 3.25) does not know nvcc's C++20 flag; nvcc 12+ accepts it.
  if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
  endif()
  find_package(CUDAToolkit REQUIRED)
  set(FB_GPU_LANGUAGE CUDA)
  set(FB_GPU_RUNTIME_LIBS CUDA::cudart_static)
  set(FB_GPU_DEFINITIONS)
  # NCCL is loaded at run time with dlopen; its header only checks our declarations of its API
  # (comm/nccl_api_check.hpp). A toolkit without it (NVIDIA's CUDA packages do not ship NCCL)
  # still builds, on those declarations alone; CI and the GPU machines have it.
  find_path(NCCL_INCLUDE_DIR nccl.h
    HINTS $ENV{NCCL_HOME}/include ${NCCL_HOME}/include ${CUDAToolkit_INCLUDE_DIRS})
  if(NCCL_INCLUDE_DIR)
    message(STATUS "nccl.h from ${NCCL_INCLUDE_DIR}")
    set(FB_NCCL_OWN_DECLARATIONS OFF)
  else()
    message(STATUS "nccl.h not found (NCCL_HOME=...): building on comm/nccl_api.hpp's declarations, unchecked")
    set(NCCL_INCLUDE_DIR)
    set(FB_NCCL_OWN_DECLARATIONS ON)
  endif()
elseif(FABRICBENCH_GPU STREQUAL "hip")
  # Debian 12's ROCm 5.2 (hipcc, libamdhip64-dev) compiles for gfx90a (MI200); MI300X (gfx942)
  # needs ROCm 6: -DCMAKE_HIP_ARCHITECTURES=gfx942 (README).
  if(NOT DEFINED CMAKE_HIP_ARCHITECTURES)
    set(CMAKE_HIP_ARCHITECTURES gfx90a)
  endif()
  fb_debian_rocm_workarounds()
  enable_language(HIP)
  set(CMAKE_HIP_STANDARD 20)
  set(CMAKE_HIP_STANDARD_REQUIRED ON)
  set(CMAKE_HIP_EXTENSIONS OFF)
  find_package(hip REQUIRED CONFIG)
  set(FB_GPU_LANGUAGE HIP)
  set(FB_GPU_RUNTIME_LIBS hip::host)
  set(FB_GPU_DEFINITIONS FABRICBENCH_GPU_HIP=1)
  set(NCCL_INCLUDE_DIR)
  set(FB_NCCL_OWN_DECLARATIONS ON)
else()
  message(FATAL_ERROR "FABRICBENCH_GPU must be cuda or hip, not '${FABRICBENCH_GPU}'")
endif()
