#pragma once
// A device buffer of the benchmark on the current GPU, from the collectives library's own
// allocator (ncclMemAlloc) or the runtime's (bench/plan.hpp, BufferAlloc). Which one matters
// for what is measured: nccl-tests 2.19+ allocates with ncclMemAlloc, and at GiB sizes the
// same collective runs a few percent apart on cudaMalloc'd memory.
#include <cstddef>

#include "bench/plan.hpp"
#include "comm/collectives.hpp"
#include "gpu/runtime.hpp"

namespace fb {

class CommBuffer {
 public:
  CommBuffer() = default;
  // The library's memory when `how` is nccl and it has an allocator, else the runtime's.
  CommBuffer(Collectives& coll, std::size_t bytes, BufferAlloc how);
  ~CommBuffer();
  CommBuffer(CommBuffer&& o) noexcept;
  CommBuffer& operator=(CommBuffer&& o) noexcept;
  CommBuffer(const CommBuffer&) = delete;
  CommBuffer& operator=(const CommBuffer&) = delete;

  [[nodiscard]] void* data() const { return library_ptr_ != nullptr ? library_ptr_ : runtime_.data(); }

 private:
  void release() noexcept;
  Collectives* coll_ = nullptr;
  void* library_ptr_ = nullptr;  // owned through coll_->mem_free
  gpu::DeviceBuffer runtime_;
};

}  // namespace fb
