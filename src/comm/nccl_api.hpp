#pragma once
// The part of the NCCL C API that fabricbench calls, declared here for the HIP build, which has
// no nccl.h (RCCL keeps NCCL's API and ABI: the same names, enum values and signatures), and for a
// CUDA toolkit without nccl.h (FABRICBENCH_NCCL_OWN_DECLARATIONS, cmake/gpu_backend.cmake). Where
// the CUDA build finds nccl.h it includes it and checks these declarations against it at compile
// time (comm/nccl_api_check.hpp), so a mismatch fails the NVIDIA build, which CI and the GPU check run.
// Nothing here is linked: the library is loaded with dlopen and only the types are used.
#include <cstddef>

#include "gpu/gpu_api.hpp"  // cudaStream_t (hipStream_t in the HIP build)

#if defined(FABRICBENCH_NCCL_OWN_DECLARATIONS)
#define FB_NCCL_DECLARATIONS_BEGIN extern "C" {
#define FB_NCCL_DECLARATIONS_END }
#else
#include <nccl.h>
#define FB_NCCL_DECLARATIONS_BEGIN namespace fb::nccl_decl {
#define FB_NCCL_DECLARATIONS_END }
#endif

// NOLINTBEGIN(modernize-use-using,readability-identifier-naming): C declarations, as the library spells them
FB_NCCL_DECLARATIONS_BEGIN

typedef struct ncclComm* ncclComm_t;

typedef struct {
  char internal[128];
} ncclUniqueId;

typedef enum {
  ncclSuccess = 0,
  ncclUnhandledCudaError = 1,
  ncclSystemError = 2,
  ncclInternalError = 3,
  ncclInvalidArgument = 4,
  ncclInvalidUsage = 5,
  ncclRemoteError = 6,
  ncclInProgress = 7,
  ncclNumResults = 8
} ncclResult_t;

typedef enum {
  ncclSum = 0,
  ncclProd = 1,
  ncclMax = 2,
  ncclMin = 3,
  ncclAvg = 4,
  ncclNumOps = 5,
  ncclMaxRedOp = 0x7fffffff
} ncclRedOp_t;

// RCCL before ROCm 6.3 names the fp8 types ncclFp8E4M3/ncclFp8E5M2, with the same values.
typedef enum {
  ncclInt8 = 0,
  ncclUint8 = 1,
  ncclInt32 = 2,
  ncclUint32 = 3,
  ncclInt64 = 4,
  ncclUint64 = 5,
  ncclFloat16 = 6,
  ncclFloat32 = 7,
  ncclFloat64 = 8,
  ncclBfloat16 = 9,
  ncclFloat8e4m3 = 10,
  ncclFloat8e5m2 = 11
} ncclDataType_t;

ncclResult_t ncclGetVersion(int* version);
ncclResult_t ncclGetUniqueId(ncclUniqueId* unique_id);
ncclResult_t ncclCommInitRank(ncclComm_t* comm, int nranks, ncclUniqueId comm_id, int rank);
ncclResult_t ncclCommDestroy(ncclComm_t comm);
ncclResult_t ncclCommAbort(ncclComm_t comm);
ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t* async_error);
const char* ncclGetErrorString(ncclResult_t result);
const char* ncclGetLastError(ncclComm_t comm);
ncclResult_t ncclAllReduce(const void* sendbuff, void* recvbuff, size_t count, ncclDataType_t datatype,
                           ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream);
ncclResult_t ncclAllGather(const void* sendbuff, void* recvbuff, size_t sendcount, ncclDataType_t datatype,
                           ncclComm_t comm, cudaStream_t stream);
ncclResult_t ncclReduceScatter(const void* sendbuff, void* recvbuff, size_t recvcount,
                               ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream);
ncclResult_t ncclBroadcast(const void* sendbuff, void* recvbuff, size_t count, ncclDataType_t datatype,
                           int root, ncclComm_t comm, cudaStream_t stream);
ncclResult_t ncclReduce(const void* sendbuff, void* recvbuff, size_t count, ncclDataType_t datatype,
                        ncclRedOp_t op, int root, ncclComm_t comm, cudaStream_t stream);
ncclResult_t ncclSend(const void* sendbuff, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
                      cudaStream_t stream);
ncclResult_t ncclRecv(void* recvbuff, size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
                      cudaStream_t stream);
ncclResult_t ncclGroupStart();
ncclResult_t ncclGroupEnd();
// Optional at run time (NCCL >= 2.19): looked up, not required.
ncclResult_t ncclMemAlloc(void** ptr, size_t size);
ncclResult_t ncclMemFree(void* ptr);

FB_NCCL_DECLARATIONS_END
// NOLINTEND(modernize-use-using,readability-identifier-naming)

#undef FB_NCCL_DECLARATIONS_BEGIN
#undef FB_NCCL_DECLARATIONS_END

#if !defined(FABRICBENCH_NCCL_OWN_DECLARATIONS)
#include "comm/nccl_api_check.hpp"
#endif
