#include "comm/nccl_collectives.hpp"

#include <fmt/format.h>

#include <cstring>

#include "comm/nccl_api_table.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/runtime.hpp"

namespace fb {
namespace {

ncclDataType_t to_nccl(DType t) {
  switch (t) {
    case DType::int8:
      return ncclInt8;
    case DType::uint8:
      return ncclUint8;
    case DType::int32:
      return ncclInt32;
    case DType::uint32:
      return ncclUint32;
    case DType::int64:
      return ncclInt64;
    case DType::uint64:
      return ncclUint64;
    case DType::float16:
      return ncclFloat16;
    case DType::bfloat16:
      return ncclBfloat16;
    case DType::float32:
      return ncclFloat32;
    case DType::float64:
      return ncclFloat64;
    case DType::fp8_e4m3:
      return ncclFloat8e4m3;
    case DType::fp8_e5m2:
      return ncclFloat8e5m2;
  }
  return ncclFloat32;
}

ncclRedOp_t to_nccl(RedOp op) {
  switch (op) {
    case RedOp::sum:
      return ncclSum;
    case RedOp::prod:
      return ncclProd;
    case RedOp::max:
      return ncclMax;
    case RedOp::min:
      return ncclMin;
    case RedOp::avg:
      return ncclAvg;
  }
  return ncclSum;
}

}  // namespace

// The communicators and the calls over them.
class NcclCollectives final : public Collectives {
 public:
  // A new unique id, serialised for the bootstrap (call on one process only).
  static std::string make_unique_id(const NcclLibrary& lib);

  // Creates communicators for `devices` (local GPU ordinals) as global `ranks` of `nranks`.
  NcclCollectives(std::shared_ptr<const NcclLibrary> lib, const std::vector<int>& devices,
                  const std::vector<int>& ranks, int nranks, const std::string& unique_id);
  ~NcclCollectives() override;
  NcclCollectives(const NcclCollectives&) = delete;
  NcclCollectives& operator=(const NcclCollectives&) = delete;

  void all_reduce(const CollectiveCall& c) override;
  void all_gather(const CollectiveCall& c) override;
  void reduce_scatter(const CollectiveCall& c) override;
  void broadcast(const CollectiveCall& c) override;
  void reduce(const CollectiveCall& c) override;
  void send(const CollectiveCall& c, int peer) override;
  void recv(const CollectiveCall& c, int peer) override;
  void group_start() override;
  void group_end() override;
  void check_errors() const override;
  void* mem_alloc(std::size_t bytes) override;
  void mem_free(void* ptr) noexcept override;

 private:
  void check(ncclResult_t r, const char* call) const;
  std::shared_ptr<const NcclLibrary> lib_;
  std::vector<ncclComm_t> comms_;
  bool failed_ = false;
};

std::string NcclCollectives::make_unique_id(const NcclLibrary& lib) {
  ncclUniqueId id{};
  const auto r = lib.api().GetUniqueId(&id);
  if (r != ncclSuccess) throw Error(ExitCode::run_failed, lib.describe(r, "ncclGetUniqueId"));
  // Hex, so that it travels through text bootstraps unchanged.
  std::string hex;
  for (const char c : id.internal) hex += fmt::format("{:02x}", static_cast<unsigned char>(c));
  return hex;
}

NcclCollectives::NcclCollectives(std::shared_ptr<const NcclLibrary> lib, const std::vector<int>& devices,
                                 const std::vector<int>& ranks, int nranks, const std::string& unique_id)
    : lib_(std::move(lib)), comms_(devices.size(), nullptr) {
  ncclUniqueId id{};
  if (unique_id.size() != 2 * sizeof id.internal)
    throw Error(ExitCode::run_failed, "bootstrap delivered a malformed NCCL unique id");
  for (std::size_t i = 0; i < sizeof id.internal; ++i)
    id.internal[i] = static_cast<char>(std::stoi(unique_id.substr(2 * i, 2), nullptr, 16));
  const auto& api = lib_->api();
  check(api.GroupStart(), "ncclGroupStart");
  for (std::size_t i = 0; i < devices.size(); ++i) {
    gpu::set_device(devices[i]);
    check(api.CommInitRank(&comms_[i], nranks, id, ranks[i]), "ncclCommInitRank");
  }
  check(api.GroupEnd(), "ncclCommInitRank (group)");
}

NcclCollectives::~NcclCollectives() {
  // After an error, destroy could wait on peers that are gone: abort instead, here and now.
  if (failed_) {
    for (auto* c : comms_)
      if (c != nullptr) lib_->api().CommAbort(c);
    return;
  }
  for (auto* c : comms_)
    if (c != nullptr) lib_->api().CommDestroy(c);
}

void NcclCollectives::check(ncclResult_t r, const char* call) const {
  if (r == ncclSuccess || r == ncclInProgress) return;
  const_cast<NcclCollectives*>(this)->failed_ = true;
  throw Error(ExitCode::run_failed, lib_->describe(r, call));
}

void NcclCollectives::check_errors() const {
  for (auto* c : comms_) {
    ncclResult_t async = ncclSuccess;
    check(lib_->api().CommGetAsyncError(c, &async), "ncclCommGetAsyncError");
    check(async, "asynchronous NCCL operation");
  }
}

void* NcclCollectives::mem_alloc(std::size_t bytes) {
  if (lib_->api().MemAlloc == nullptr) return nullptr;
  void* ptr = nullptr;
  const ncclResult_t r = lib_->api().MemAlloc(&ptr, bytes);
  if (r != ncclSuccess)
    throw Error(ExitCode::environment, fmt::format("{} of {} (the benchmark's buffers)",
                                                   lib_->describe(r, "ncclMemAlloc"), format_bytes(bytes)));
  return ptr;
}

void NcclCollectives::mem_free(void* ptr) noexcept {
  if (ptr != nullptr && lib_->api().MemFree != nullptr) lib_->api().MemFree(ptr);
}

void NcclCollectives::all_reduce(const CollectiveCall& c) {
  check(lib_->api().AllReduce(c.send, c.recv, c.count, to_nccl(c.dtype), to_nccl(c.op), comms_.at(c.local),
                              gpu::as_stream(c.stream)),
        "ncclAllReduce");
}
void NcclCollectives::all_gather(const CollectiveCall& c) {
  check(lib_->api().AllGather(c.send, c.recv, c.count, to_nccl(c.dtype), comms_.at(c.local),
                              gpu::as_stream(c.stream)),
        "ncclAllGather");
}
void NcclCollectives::reduce_scatter(const CollectiveCall& c) {
  check(lib_->api().ReduceScatter(c.send, c.recv, c.count, to_nccl(c.dtype), to_nccl(c.op),
                                  comms_.at(c.local), gpu::as_stream(c.stream)),
        "ncclReduceScatter");
}
void NcclCollectives::broadcast(const CollectiveCall& c) {
  check(lib_->api().Broadcast(c.send, c.recv, c.count, to_nccl(c.dtype), c.root, comms_.at(c.local),
                              gpu::as_stream(c.stream)),
        "ncclBroadcast");
}
void NcclCollectives::reduce(const CollectiveCall& c) {
  check(lib_->api().Reduce(c.send, c.recv, c.count, to_nccl(c.dtype), to_nccl(c.op), c.root,
                           comms_.at(c.local), gpu::as_stream(c.stream)),
        "ncclReduce");
}
void NcclCollectives::send(const CollectiveCall& c, int peer) {
  check(
      lib_->api().Send(c.send, c.count, to_nccl(c.dtype), peer, comms_.at(c.local), gpu::as_stream(c.stream)),
      "ncclSend");
}
void NcclCollectives::recv(const CollectiveCall& c, int peer) {
  check(
      lib_->api().Recv(c.recv, c.count, to_nccl(c.dtype), peer, comms_.at(c.local), gpu::as_stream(c.stream)),
      "ncclRecv");
}
void NcclCollectives::group_start() { check(lib_->api().GroupStart(), "ncclGroupStart"); }
void NcclCollectives::group_end() { check(lib_->api().GroupEnd(), "ncclGroupEnd"); }

std::string make_nccl_unique_id(const NcclLibrary& lib) { return NcclCollectives::make_unique_id(lib); }

std::unique_ptr<Collectives> make_nccl_collectives(std::shared_ptr<const NcclLibrary> lib,
                                                   const std::vector<int>& devices,
                                                   const std::vector<int>& ranks, int nranks,
                                                   const std::string& unique_id) {
  return std::make_unique<NcclCollectives>(std::move(lib), devices, ranks, nranks, unique_id);
}

}  // namespace fb
