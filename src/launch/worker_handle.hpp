#pragma once
// Starting workers: as child processes (the default launcher) or as a thread of this
// process (--launcher threads). Either way the launcher talks to a worker over a socket.
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

// Runs `body(fd)` on a detached thread; the worker closes its end when it returns. Its communicators'
// teardown may run in the background (comm/background_teardown.hpp).
WorkerHandle spawn_thread(int index, std::function<void(int fd)> body);

// Whether this process started an in-process worker: it then holds the GPUs' contexts, and NCCL's
// teardown may still be running when its command ends (app/main.cpp ends it as a worker process ends).
bool in_process_worker_started();

// Path of the running executable (for self-launching workers).
std::string self_executable();

}  // namespace fb
