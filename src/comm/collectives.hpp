#pragma once
// `Collectives`: the vendor-neutral face of NCCL/RCCL used by the benchmark driver.
// Buffers and streams are opaque pointers here so that nothing above comm/ names a runtime.
#include <cstddef>

#include "core/dtypes.hpp"

namespace fb {

struct CollectiveCall {
  int local = 0;  // index of the local GPU/communicator issuing the call
  int rank = 0;   // global rank of that communicator
  int nranks = 1;
  const void* send = nullptr;
  void* recv = nullptr;
  std::size_t count = 0;  // NCCL's `count` argument (per peer for alltoall, per rank for gathers)
  DType dtype = DType::float32;
  RedOp op = RedOp::sum;
  int root = 0;
  void* stream = nullptr;  // cudaStream_t / hipStream_t
};

class Collectives {
 public:
  virtual ~Collectives() = default;
  virtual void all_reduce(const CollectiveCall& c) = 0;
  virtual void all_gather(const CollectiveCall& c) = 0;
  virtual void reduce_scatter(const CollectiveCall& c) = 0;
  virtual void broadcast(const CollectiveCall& c) = 0;
  virtual void reduce(const CollectiveCall& c) = 0;
  virtual void send(const CollectiveCall& c, int peer) = 0;
  virtual void recv(const CollectiveCall& c, int peer) = 0;
  virtual void group_start() = 0;
  virtual void group_end() = 0;
  // Throws if the library reports an asynchronous failure of earlier calls.
  virtual void check_errors() const {}
  // Device memory on the current GPU allocated by the library itself (ncclMemAlloc: memory
  // NCCL can map and register, what nccl-tests 2.19+ benchmarks); nullptr when the library
  // has no allocator, and the caller uses the runtime's. Throws when the allocation fails.
  virtual void* mem_alloc(std::size_t /*bytes*/) { return nullptr; }
  virtual void mem_free(void* /*ptr*/) noexcept {}
};

}  // namespace fb
