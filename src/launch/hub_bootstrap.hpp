#pragma once
// Bootstrap through the launcher: every allgather goes to the launcher, which answers once
// all workers have contributed.
#include "comm/bootstrap.hpp"
#include "comm/channel.hpp"

namespace fb {

class HubBootstrap final : public Bootstrap {
 public:
  HubBootstrap(Channel& channel, int rank, int size) : channel_(channel), rank_(rank), size_(size) {}
  [[nodiscard]] int rank() const override { return rank_; }
  [[nodiscard]] int size() const override { return size_; }
  std::vector<std::string> allgather(const std::string& mine) override;

 private:
  Channel& channel_;
  int rank_;
  int size_;
};

}  // namespace fb
