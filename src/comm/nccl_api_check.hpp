#pragma once
// CUDA build only: the declarations of comm/nccl_api.hpp (namespace fb::nccl_decl), which the HIP
// build uses in place of nccl.h, checked against the real nccl.h: every enum value, the sizes of
// the types, and every function's type with our types replaced by NCCL's.
#include <nccl.h>

#include <type_traits>

namespace fb::nccl_decl::check {

// Our type -> NCCL's, through pointers and function pointer types.
template <typename T>
struct Real {
  using type = T;
};
template <>
struct Real<nccl_decl::ncclResult_t> {
  using type = ::ncclResult_t;
};
template <>
struct Real<nccl_decl::ncclRedOp_t> {
  using type = ::ncclRedOp_t;
};
template <>
struct Real<nccl_decl::ncclDataType_t> {
  using type = ::ncclDataType_t;
};
template <>
struct Real<nccl_decl::ncclUniqueId> {
  using type = ::ncclUniqueId;
};
template <>
struct Real<nccl_decl::ncclComm_t> {
  using type = ::ncclComm_t;
};
template <typename T>
struct Real<T*> {
  using type = Real<T>::type*;
};
template <typename R, typename... A>
struct Real<R (*)(A...)> {
  using type = Real<R>::type (*)(typename Real<A>::type...);
};
template <typename T>
using RealT = Real<T>::type;

#define FB_NCCL_SAME_FUNCTION(name)                                                   \
  static_assert(std::is_same_v<RealT<decltype(&nccl_decl::name)>, decltype(&::name)>, \
                "comm/nccl_api.hpp: " #name " differs from nccl.h")
FB_NCCL_SAME_FUNCTION(ncclGetVersion);
FB_NCCL_SAME_FUNCTION(ncclGetUniqueId);
FB_NCCL_SAME_FUNCTION(ncclCommInitRank);
FB_NCCL_SAME_FUNCTION(ncclCommDestroy);
FB_NCCL_SAME_FUNCTION(ncclCommAbort);
FB_NCCL_SAME_FUNCTION(ncclCommGetAsyncError);
FB_NCCL_SAME_FUNCTION(ncclGetErrorString);
FB_NCCL_SAME_FUNCTION(ncclGetLastError);
FB_NCCL_SAME_FUNCTION(ncclAllReduce);
FB_NCCL_SAME_FUNCTION(ncclAllGather);
FB_NCCL_SAME_FUNCTION(ncclReduceScatter);
FB_NCCL_SAME_FUNCTION(ncclBroadcast);
FB_NCCL_SAME_FUNCTION(ncclReduce);
FB_NCCL_SAME_FUNCTION(ncclSend);
FB_NCCL_SAME_FUNCTION(ncclRecv);
FB_NCCL_SAME_FUNCTION(ncclGroupStart);
FB_NCCL_SAME_FUNCTION(ncclGroupEnd);
FB_NCCL_SAME_FUNCTION(ncclMemAlloc);
FB_NCCL_SAME_FUNCTION(ncclMemFree);
#undef FB_NCCL_SAME_FUNCTION

#define FB_NCCL_SAME_VALUE(name)                                                           \
  static_assert(static_cast<long long>(nccl_decl::name) == static_cast<long long>(::name), \
                "comm/nccl_api.hpp: " #name " differs from nccl.h")
FB_NCCL_SAME_VALUE(ncclSuccess);
FB_NCCL_SAME_VALUE(ncclUnhandledCudaError);
FB_NCCL_SAME_VALUE(ncclSystemError);
FB_NCCL_SAME_VALUE(ncclInternalError);
FB_NCCL_SAME_VALUE(ncclInvalidArgument);
FB_NCCL_SAME_VALUE(ncclInvalidUsage);
FB_NCCL_SAME_VALUE(ncclRemoteError);
FB_NCCL_SAME_VALUE(ncclInProgress);
FB_NCCL_SAME_VALUE(ncclNumResults);
FB_NCCL_SAME_VALUE(ncclSum);
FB_NCCL_SAME_VALUE(ncclProd);
FB_NCCL_SAME_VALUE(ncclMax);
FB_NCCL_SAME_VALUE(ncclMin);
FB_NCCL_SAME_VALUE(ncclAvg);
FB_NCCL_SAME_VALUE(ncclNumOps);
FB_NCCL_SAME_VALUE(ncclMaxRedOp);
FB_NCCL_SAME_VALUE(ncclInt8);
FB_NCCL_SAME_VALUE(ncclUint8);
FB_NCCL_SAME_VALUE(ncclInt32);
FB_NCCL_SAME_VALUE(ncclUint32);
FB_NCCL_SAME_VALUE(ncclInt64);
FB_NCCL_SAME_VALUE(ncclUint64);
FB_NCCL_SAME_VALUE(ncclFloat16);
FB_NCCL_SAME_VALUE(ncclFloat32);
FB_NCCL_SAME_VALUE(ncclFloat64);
FB_NCCL_SAME_VALUE(ncclBfloat16);
FB_NCCL_SAME_VALUE(ncclFloat8e4m3);
FB_NCCL_SAME_VALUE(ncclFloat8e5m2);
#undef FB_NCCL_SAME_VALUE

static_assert(sizeof(nccl_decl::ncclUniqueId) == sizeof(::ncclUniqueId));
static_assert(sizeof(nccl_decl::ncclResult_t) == sizeof(::ncclResult_t));
static_assert(sizeof(nccl_decl::ncclRedOp_t) == sizeof(::ncclRedOp_t));
static_assert(sizeof(nccl_decl::ncclDataType_t) == sizeof(::ncclDataType_t));
static_assert(std::is_signed_v<std::underlying_type_t<nccl_decl::ncclRedOp_t>> ==
              std::is_signed_v<std::underlying_type_t<::ncclRedOp_t>>);

}  // namespace fb::nccl_decl::check
