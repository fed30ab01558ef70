// Stand-in worker for launcher tests: speaks the launcher protocol, then behaves as its start
// message says ("ok", "exit", "kill", "hang", "fatal", "silent-exit", "slow-exit", "linger").
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <string>
#include <thread>

#include "comm/channel.hpp"
#include "launch/hub_bootstrap.hpp"
#include "launch/protocol.hpp"

int main() {
  const char* fd = std::getenv(fb::msg::worker_fd_env);
  if (fd == nullptr) return 100;
  fb::Channel channel(std::atoi(fd));
  const auto start = channel.receive();
  if (!start) return 101;
  const int process = start->at("process").get<int>();
  const int nprocs = start->at("nprocs").get<int>();
  const auto mode = start->at("mode").get<std::string>();

  fb::HubBootstrap boot(channel, process, nprocs);
  const auto all = boot.allgather("w" + std::to_string(process));
  channel.send({{"t", "gathered"}, {"all", all}});
  channel.send({{"t", fb::msg::begin}, {"label", "step of " + mode}});
  if (mode == "exit") return 3;
  if (mode == "kill") ::raise(SIGKILL);
  if (mode == "hang") std::this_thread::sleep_for(std::chrono::hours(1));
  if (mode == "fatal") {
    channel.send({{"t", fb::msg::fatal}, {"code", 2}, {"text", "boom"}});
    return 2;
  }
  if (mode == "silent-exit") return 0;  // exits 0 without saying done
  boot.barrier();
  channel.send({{"t", fb::msg::done}});
  // As a GPU worker whose CUDA context takes a while to tear down, or one stuck in its exit.
  if (mode == "slow-exit") std::this_thread::sleep_for(std::chrono::milliseconds(2000));
  if (mode == "linger") std::this_thread::sleep_for(std::chrono::hours(1));
  return 0;
}
