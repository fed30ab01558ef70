#pragma once
// Collectives over NCCL communicators, one per local GPU, created once per run and reused
// across every size and collective.
#include <memory>
#include <string>
#include <vector>

#include "comm/collectives.hpp"
#include "comm/nccl_library.hpp"

namespace fb {

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

}  // namespace fb
