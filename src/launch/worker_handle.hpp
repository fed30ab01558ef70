#pragma once
// Starting workers: as child processes (both local launchers) or, for a job's rank 0, as a thread
// of this process. Either way the launcher talks to a worker over a socket.
#include <sys/types.h>

#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "comm/channel.hpp"

namespace fb {

struct WorkerHandle {
  int index = 0;
  pid_t pid = -1;  // -1 for an in-process worker
  std::unique_ptr<Channel> channel;
};

// Runs `argv` as a child process with the worker fd in its environment (msg::worker_fd_env).
WorkerHandle spawn_process(int index, const std::vector<std::string>& argv);

// Runs `body(fd)` on a detached thread; the worker closes its end when it returns (a job's rank 0,
// whose share runs in its own process as every other rank's does).
WorkerHandle spawn_thread(int index, std::function<void(int fd)> body);

// Path of the running executable (for self-launching workers).
std::string self_executable();

}  // namespace fb
