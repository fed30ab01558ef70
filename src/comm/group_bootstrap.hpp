#pragma once
// The bootstrap of one group of a job's ranks that measures on its own while the job's other
// groups measure theirs: the pairs of hosts of a `nodes` round, the GPUs of each host in the
// doctor. The job's bootstrap cannot serve them: its exchanges need every rank, and each group
// samples at its own pace. So each group exchanges over a TCP star at its first rank, whose
// address and key (drawn for the group) every rank learns through one exchange of the job's
// bootstrap; a member proves the key as a rank proves the job's secret (comm/hello_desk).
#include <memory>
#include <string>
#include <vector>

#include "comm/bootstrap.hpp"
#include "comm/hello_desk.hpp"
#include "comm/tcp_link.hpp"

namespace fb {

using RankGroups = std::vector<std::vector<int>>;  // the job's ranks of each group

// The index of the group holding `rank`, and its place there; group -1 when it is in none.
struct GroupPlace {
  int group = -1;
  int index = 0;
};
GroupPlace place_in_groups(const RankGroups& groups, int rank);

// Throws Error(usage) for a group that is empty, a rank outside 0..size-1 or in two groups.
void check_groups(const RankGroups& groups, int size);

// This host's address for the other hosts: the first IPv4 address of an interface NCCL would use
// (NCCL_SOCKET_IFNAME's prefixes; "^" excludes, "=" names it exactly), else of any interface that is
// up and not loopback, else 127.0.0.1.
std::string reachable_address();

class GroupBootstrap final : public Bootstrap {
 public:
  // Collective over the whole job (every rank calls it, with the same groups): the null pointer for
  // a rank in no group. Connections wait at most `timeout_s` (> 0; else 60 s). Throws Error.
  static std::unique_ptr<GroupBootstrap> join(Bootstrap& job, const RankGroups& groups, double timeout_s);

  GroupBootstrap(const GroupBootstrap&) = delete;
  GroupBootstrap& operator=(const GroupBootstrap&) = delete;
  ~GroupBootstrap() override;
  [[nodiscard]] int rank() const override { return index_; }
  [[nodiscard]] int size() const override { return static_cast<int>(members_.size()); }
  [[nodiscard]] int group() const { return group_; }
  [[nodiscard]] const std::vector<int>& members() const { return members_; }
  std::vector<std::string> allgather(const std::string& mine) override;

 private:
  GroupBootstrap(int group, int index, std::vector<int> members)
      : group_(group), index_(index), members_(std::move(members)) {}
  std::string receive_from(Link& link, int member);
  // The first rank: every other member connects, proves the group's key and says its place (within
  // `deadline`); others are dropped with a log line.
  void accept_members(HelloDesk& desk, SteadyClock::time_point deadline, double timeout_s);
  // Another member: to the first rank at "address port" (`where`, from the job's exchange).
  void connect_to_first(const std::string& where, SteadyClock::time_point deadline, int job_rank);

  int group_;
  int index_;
  std::vector<int> members_;
  std::vector<std::unique_ptr<Link>> links_;  // the first rank: one per other member; the others: one
};

}  // namespace fb
