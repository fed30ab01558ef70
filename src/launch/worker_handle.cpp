#include "launch/worker_handle.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <string>

#include "core/error.hpp"
#include "launch/protocol.hpp"

namespace fb {
namespace {

std::array<int, 2> make_socket_pair() {
  std::array<int, 2> fds{-1, -1};
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds.data()) != 0)
    throw Error(ExitCode::run_failed, std::string("socketpair failed: ") + std::strerror(errno));
  return fds;
}

}  // namespace

WorkerHandle spawn_process(int index, const std::vector<std::string>& argv) {
  auto fds = make_socket_pair();
  // Everything the child needs is prepared before fork: only async-signal-safe calls after.
  std::vector<char*> cargv;
  cargv.reserve(argv.size() + 1);
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  const std::string fd_value = std::to_string(fds[1]);

  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw Error(ExitCode::run_failed, std::string("fork failed: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::fcntl(fds[1], F_SETFD, 0);  // the worker's end survives exec
    ::setenv(msg::worker_fd_env, fd_value.c_str(), 1);
    ::execv(cargv[0], cargv.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  return {index, pid, std::make_unique<Channel>(fds[0])};
}

WorkerHandle spawn_thread(int index, std::function<void(int fd)> body) {
  auto fds = make_socket_pair();
  std::thread([fd = fds[1], body = std::move(body)] { body(fd); }).detach();
  return {index, -1, std::make_unique<Channel>(fds[0])};
}

std::string self_executable() {
  std::array<char, 4096> buf{};
  const auto n = ::readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n <= 0) throw Error(ExitCode::environment, "cannot find the running executable (/proc/self/exe)");
  return std::string(buf.data(), static_cast<std::size_t>(n));
}

}  // namespace fb
