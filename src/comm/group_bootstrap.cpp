#include "comm/group_bootstrap.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <sstream>

#include "comm/job_secret.hpp"
#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/text.hpp"

namespace fb {
namespace {

// An exchange inside a group waits as long as the slowest member measures: the job's step timeout
// (comm/job_session) is what ends a rank that never answers.
constexpr double kExchangeWaitS = 24 * 3600.0;

bool wanted_interface(const std::string& name, const std::string& ifname) {
  if (ifname.empty()) return true;
  const bool exclude = ifname[0] == '^';
  std::string list = exclude ? ifname.substr(1) : ifname;
  const bool exact = !list.empty() && list[0] == '=';
  if (exact) list = list.substr(1);
  bool match = false;
  for (const auto& item : split(list, ','))
    if (!item.empty() && (exact ? name == item : name.rfind(item, 0) == 0)) match = true;
  return exclude ? !match : match;
}

constexpr double kHelloLimitS = 10;

}  // namespace

GroupPlace place_in_groups(const RankGroups& groups, int rank) {
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (std::size_t i = 0; i < groups[g].size(); ++i)
      if (groups[g][i] == rank) return {static_cast<int>(g), static_cast<int>(i)};
  return {};
}

void check_groups(const RankGroups& groups, int size) {
  std::set<int> seen;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].empty()) FB_USAGE_ERROR(fmt::format("group {} of ranks is empty", g));
    for (const int r : groups[g]) {
      if (r < 0 || r >= size)
        FB_USAGE_ERROR(fmt::format("group {}: rank {} is not a rank of {}", g, r, size));
      if (!seen.insert(r).second) FB_USAGE_ERROR(fmt::format("rank {} is in two groups", r));
    }
  }
}

std::string reachable_address() {
  const char* set = std::getenv("NCCL_SOCKET_IFNAME");
  const std::string ifname = set != nullptr ? set : "";
  ifaddrs* all = nullptr;
  if (::getifaddrs(&all) != 0) return "127.0.0.1";
  std::string found;
  for (auto* a = all; a != nullptr && found.empty(); a = a->ifa_next) {
    if (a->ifa_addr == nullptr || a->ifa_addr->sa_family != AF_INET) continue;
    if ((a->ifa_flags & IFF_UP) == 0 || (a->ifa_flags & IFF_LOOPBACK) != 0) continue;
    if (!wanted_interface(a->ifa_name, ifname)) continue;
    char text[INET_ADDRSTRLEN] = {};
    const auto* in = reinterpret_cast<const sockaddr_in*>(a->ifa_addr);  // NOLINT: the sockets API
    if (::inet_ntop(AF_INET, &in->sin_addr, text, sizeof text) != nullptr) found = text;
  }
  ::freeifaddrs(all);
  return found.empty() ? "127.0.0.1" : found;
}

std::unique_ptr<GroupBootstrap> GroupBootstrap::join(Bootstrap& job, const RankGroups& groups,
                                                     double timeout_s) {
  check_groups(groups, job.size());
  const auto place = place_in_groups(groups, job.rank());
  const bool leads =
      place.group >= 0 && place.index == 0 && groups[static_cast<std::size_t>(place.group)].size() > 1;
  // The first rank listens at its address for the other members, who prove a key it drew: the job's
  // bootstrap (authenticated) hands both out, so no other process can join the group.
  const auto address = leads ? reachable_address() : std::string();
  const int listener = leads ? listen_on(address, 0) : -1;
  const auto key = leads ? new_job_secret() : std::string();
  const auto all =
      job.allgather(leads ? fmt::format("{} {} {}", address, listening_port(listener), key) : "");
  if (place.group < 0) return nullptr;
  const auto& members = groups[static_cast<std::size_t>(place.group)];
  std::unique_ptr<GroupBootstrap> g(new GroupBootstrap(place.group, place.index, members));
  const auto deadline = seconds_after(SteadyClock::now(), timeout_s > 0 ? timeout_s : 60.0);
  if (leads) {
    HelloDesk desk(listener, key, kHelloLimitS);
    g->accept_members(desk, deadline, timeout_s);
  } else if (members.size() > 1) {
    g->connect_to_first(all.at(static_cast<std::size_t>(members[0])), deadline, job.rank());
  }
  return g;
}

void GroupBootstrap::accept_members(HelloDesk& desk, SteadyClock::time_point deadline, double timeout_s) {
  links_.resize(members_.size() - 1);
  for (std::size_t joined = 1; joined < members_.size() && SteadyClock::now() < deadline;) {
    for (auto& j : desk.serve(deadline)) {
      const auto index = static_cast<std::size_t>(j.hello.rank);
      if (j.hello.size != size() || index < 1 || index >= members_.size() || links_[index - 1])
        throw Error(ExitCode::run_failed,
                    fmt::format("group of ranks {}: a member says it is member {} of {}",
                                join_ints(members_, ","), j.hello.rank, j.hello.size));
      links_[index - 1] = std::move(j.link);
      ++joined;
    }
  }
  for (std::size_t k = 1; k < members_.size(); ++k)
    if (!links_[k - 1])
      throw Error(ExitCode::run_failed,
                  fmt::format("group of ranks {}: rank {} did not connect to rank {} within {:.0f} s",
                              join_ints(members_, ","), members_[k], members_[0], timeout_s));
}

void GroupBootstrap::connect_to_first(const std::string& where, SteadyClock::time_point deadline,
                                      int job_rank) {
  std::istringstream in(where);
  std::string address;
  std::string key;
  int port = 0;
  in >> address >> port >> key;
  std::string why;
  try {
    const int fd = connect_until(address, port, deadline);
    if (auto link = join_root(fd, key, {index_, size(), -1, job_host_name(), ""}, deadline, why)) {
      links_.push_back(std::move(link));
      return;
    }
  } catch (const Error& e) {
    why = e.what();
  }
  throw Error(ExitCode::run_failed,
              fmt::format("group of ranks {}: rank {} cannot join rank {} at {}:{} ({})",
                          join_ints(members_, ","), job_rank, members_[0], address, port, why));
}

GroupBootstrap::~GroupBootstrap() = default;

std::string GroupBootstrap::receive_from(Link& link, int member) {
  const auto f = link.receive(seconds_after(SteadyClock::now(), kExchangeWaitS));
  if (!f || f->type != frame::data)
    throw Error(ExitCode::run_failed,
                fmt::format("group of ranks {}: lost the connection to rank {}{}", join_ints(members_, ","),
                            members_.at(static_cast<std::size_t>(member)),
                            link.broken().empty() ? "" : " (it sent " + link.broken() + ")"));
  return f->payload;
}

std::vector<std::string> GroupBootstrap::allgather(const std::string& mine) {
  if (members_.size() == 1) return {mine};
  if (index_ != 0) {
    if (!links_[0]->send(frame::data, mine))
      throw Error(ExitCode::run_failed, fmt::format("group of ranks {}: lost the connection to rank {}",
                                                    join_ints(members_, ","), members_[0]));
    auto all = decode_strings(receive_from(*links_[0], 0));
    if (!all || all->size() != members_.size())
      throw Error(ExitCode::run_failed, fmt::format("group of ranks {}: a malformed exchange from rank {}",
                                                    join_ints(members_, ","), members_[0]));
    return std::move(*all);
  }
  std::vector<std::string> all{mine};
  for (std::size_t k = 1; k < members_.size(); ++k)
    all.push_back(receive_from(*links_[k - 1], static_cast<int>(k)));
  const auto payload = encode_strings(all);
  for (auto& link : links_) link->send(frame::data, payload);
  return all;
}

}  // namespace fb
