#include "launch/hub_bootstrap.hpp"

#include "core/error.hpp"
#include "launch/protocol.hpp"

namespace fb {

std::vector<std::string> HubBootstrap::allgather(const std::string& mine) {
  channel_.send({{"t", msg::allgather}, {"d", mine}});
  const auto reply = channel_.receive();
  if (!reply || reply->at("t") != msg::allgather)
    throw Error(ExitCode::run_failed, "the launcher went away during a bootstrap exchange");
  return reply->at("all").get<std::vector<std::string>>();
}

}  // namespace fb
