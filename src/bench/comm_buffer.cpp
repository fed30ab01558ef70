#include "bench/comm_buffer.hpp"

#include <utility>

namespace fb {

CommBuffer::CommBuffer(Collectives& coll, std::size_t bytes, BufferAlloc how) {
  if (how == BufferAlloc::nccl && bytes > 0) library_ptr_ = coll.mem_alloc(bytes);
  if (library_ptr_ != nullptr)
    coll_ = &coll;
  else
    runtime_ = gpu::DeviceBuffer(bytes);
}

CommBuffer::~CommBuffer() { release(); }

CommBuffer::CommBuffer(CommBuffer&& o) noexcept
    : coll_(std::exchange(o.coll_, nullptr)),
      library_ptr_(std::exchange(o.library_ptr_, nullptr)),
      runtime_(std::move(o.runtime_)) {}

CommBuffer& CommBuffer::operator=(CommBuffer&& o) noexcept {
  if (this != &o) {
    release();
    coll_ = std::exchange(o.coll_, nullptr);
    library_ptr_ = std::exchange(o.library_ptr_, nullptr);
    runtime_ = std::move(o.runtime_);
  }
  return *this;
}

void CommBuffer::release() noexcept {
  if (library_ptr_ != nullptr && coll_ != nullptr) coll_->mem_free(library_ptr_);
  library_ptr_ = nullptr;
  coll_ = nullptr;
}

}  // namespace fb
