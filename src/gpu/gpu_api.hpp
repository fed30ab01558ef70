#pragma once
// The portability header: the one place that says which vendor runtime gpu/ (and its kernels)
// compile against. The code names the CUDA runtime; under FABRICBENCH_GPU_HIP (CMake
// -DFABRICBENCH_GPU=hip) each name used is mapped to its HIP equivalent, so nvcc and hipcc
// build the same files. Only names the code uses are listed: a new CUDA call that is missing
// here fails the HIP build ("undeclared identifier") rather than behaving differently.
// Vendor-only facts (version formats, architecture names, fp8 formats) are named functions in
// gpu/vendor.hpp, not macros.
#if defined(FABRICBENCH_GPU_HIP)

#include <hip/hip_runtime.h>

// Types and enums.
#define cudaError_t hipError_t
#define cudaStream_t hipStream_t
#define cudaEvent_t hipEvent_t
#define cudaGraph_t hipGraph_t
#define cudaGraphExec_t hipGraphExec_t
#define cudaDeviceProp hipDeviceProp_t
#define cudaDeviceAttr hipDeviceAttribute_t
#define cudaDevAttrMultiProcessorCount hipDeviceAttributeMultiprocessorCount
#define cudaDevAttrClockRate hipDeviceAttributeClockRate
#define cudaDevP2PAttrPerformanceRank hipDevP2PAttrPerformanceRank
#define cudaStreamNonBlocking hipStreamNonBlocking
#define cudaStreamCaptureModeThreadLocal hipStreamCaptureModeThreadLocal
#define cudaMemcpyDefault hipMemcpyDefault
#define cudaMemcpyDeviceToHost hipMemcpyDeviceToHost
#define cudaMemcpyHostToDevice hipMemcpyHostToDevice
#define cudaHostRegisterMapped hipHostRegisterMapped
#define cudaHostRegisterPortable hipHostRegisterPortable
#define cudaHostAllocMapped hipHostMallocMapped
#define cudaHostAllocPortable hipHostMallocPortable

// Error codes.
#define cudaSuccess hipSuccess
#define cudaErrorNotReady hipErrorNotReady
#define cudaErrorMemoryAllocation hipErrorOutOfMemory
#define cudaErrorNoDevice hipErrorNoDevice
#define cudaErrorInsufficientDriver hipErrorInsufficientDriver
// CUDA's "all devices busy or unavailable" (exclusive compute mode) is HIP's "already in use".
#define cudaErrorDevicesUnavailable hipErrorContextAlreadyInUse
#define cudaErrorNoKernelImageForDevice hipErrorNoBinaryForGpu
#define cudaErrorPeerAccessAlreadyEnabled hipErrorPeerAccessAlreadyEnabled
#define cudaErrorIllegalAddress hipErrorIllegalAddress
#define cudaErrorLaunchFailure hipErrorLaunchFailure
#define cudaErrorInvalidValue hipErrorInvalidValue

// Calls.
#define cudaGetErrorName hipGetErrorName
#define cudaGetErrorString hipGetErrorString
#define cudaGetLastError hipGetLastError
#define cudaGetDeviceCount hipGetDeviceCount
#define cudaGetDevice hipGetDevice
#define cudaSetDevice hipSetDevice
#define cudaGetDeviceProperties hipGetDeviceProperties
#define cudaDeviceGetAttribute hipDeviceGetAttribute
#define cudaDeviceGetPCIBusId hipDeviceGetPCIBusId
#define cudaDriverGetVersion hipDriverGetVersion
#define cudaRuntimeGetVersion hipRuntimeGetVersion
#define cudaDeviceCanAccessPeer hipDeviceCanAccessPeer
#define cudaDeviceEnablePeerAccess hipDeviceEnablePeerAccess
#define cudaDeviceGetP2PAttribute hipDeviceGetP2PAttribute
#define cudaMemGetInfo hipMemGetInfo
#define cudaMalloc hipMalloc
#define cudaFree hipFree
#define cudaHostAlloc hipHostMalloc
#define cudaFreeHost hipHostFree
#define cudaHostRegister hipHostRegister
#define cudaHostUnregister hipHostUnregister
#define cudaHostGetDevicePointer hipHostGetDevicePointer
#define cudaMemcpy hipMemcpy
#define cudaMemcpyAsync hipMemcpyAsync
#define cudaMemcpyPeerAsync hipMemcpyPeerAsync
#define cudaMemsetAsync hipMemsetAsync
#define cudaStreamCreateWithFlags hipStreamCreateWithFlags
#define cudaStreamDestroy hipStreamDestroy
#define cudaStreamSynchronize hipStreamSynchronize
#define cudaStreamQuery hipStreamQuery
#define cudaEventCreate hipEventCreate
#define cudaEventDestroy hipEventDestroy
#define cudaEventRecord hipEventRecord
#define cudaEventSynchronize hipEventSynchronize
#define cudaEventQuery hipEventQuery
#define cudaEventElapsedTime hipEventElapsedTime
#define cudaStreamBeginCapture hipStreamBeginCapture
#define cudaStreamEndCapture hipStreamEndCapture
// CUDA 12's (exec, graph, flags); HIP's hipGraphInstantiate keeps the CUDA 11 form.
#define cudaGraphInstantiate hipGraphInstantiateWithFlags
#define cudaGraphLaunch hipGraphLaunch
#define cudaGraphExecDestroy hipGraphExecDestroy
#define cudaGraphDestroy hipGraphDestroy

#else

#include <cuda_runtime.h>

#endif

namespace fb::gpu {
// The build's vendor where gpu/ needs it at compile time (its kernels' fp8 formats); elsewhere
// gpu::build_vendor() (gpu/vendor.hpp) answers at run time.
#if defined(FABRICBENCH_GPU_HIP)
inline constexpr bool kHipBuild = true;
#else
inline constexpr bool kHipBuild = false;
#endif
}  // namespace fb::gpu
