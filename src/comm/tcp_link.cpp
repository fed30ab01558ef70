#include "comm/tcp_link.hpp"

#include <fmt/format.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <thread>

#include "comm/channel.hpp"
#include "core/error.hpp"

namespace fb {
namespace {

constexpr std::size_t kHeader = 5;
constexpr std::uint32_t kMaxFrame = 1U << 30U;

void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xffU);
}

std::uint32_t get_u32(const std::string& in, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i)
    v |= static_cast<std::uint32_t>(static_cast<unsigned char>(in[at + i])) << (8 * i);
  return v;
}

int ms_until(SteadyClock::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, 1000));
}

}  // namespace

Link::~Link() { close(); }

void Link::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

bool Link::send(char type, const std::string& payload) {
  std::string bytes(1, type);
  put_u32(bytes, static_cast<std::uint32_t>(payload.size()));
  bytes += payload;
  const std::lock_guard lock(send_mutex_);
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    if (fd_ < 0) return false;
    const auto n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

bool Link::pump() { return read_available(fd_, buffer_); }

std::optional<Frame> Link::next() {
  if (buffer_.size() < kHeader) return std::nullopt;
  const auto len = get_u32(buffer_, 1);
  if (len > kMaxFrame)
    throw Error(ExitCode::run_failed, "rendezvous: a frame larger than 1 GiB (not a fabricbench peer?)");
  if (buffer_.size() < kHeader + len) return std::nullopt;
  Frame f{buffer_[0], buffer_.substr(kHeader, len)};
  buffer_.erase(0, kHeader + len);
  return f;
}

std::optional<Frame> Link::receive(SteadyClock::time_point deadline) {
  for (;;) {
    if (auto f = next()) return f;
    if (SteadyClock::now() >= deadline) return std::nullopt;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, ms_until(deadline)) > 0 && !pump()) return std::nullopt;
  }
}

int listen_on(int port) {
  const int fd = ::socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    throw Error(ExitCode::environment, fmt::format("rendezvous: no socket: {}", std::strerror(errno)));
  const int on = 1;
  const int off = 0;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  ::setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof off);  // IPv4 peers too
  sockaddr_in6 addr{};
  addr.sin6_family = AF_INET6;
  addr.sin6_addr = in6addr_any;
  addr.sin6_port = htons(static_cast<std::uint16_t>(port));
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||  // NOLINT: the sockets API
      ::listen(fd, 1024) != 0) {
    const std::string why = std::strerror(errno);
    ::close(fd);
    throw Error(
        ExitCode::environment,
        fmt::format("rendezvous: rank 0 cannot listen on port {}: {} (set FABRICBENCH_RENDEZVOUS_PORT "
                    "to a free port, the same on every rank)",
                    port, why));
  }
  return fd;
}

int accept_until(int listener, SteadyClock::time_point deadline) {
  while (SteadyClock::now() < deadline) {
    pollfd p{listener, POLLIN, 0};
    if (::poll(&p, 1, ms_until(deadline)) <= 0) continue;
    const int fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd >= 0) {
      const int on = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
      return fd;
    }
  }
  return -1;
}

int connect_until(const std::string& host, int port, SteadyClock::time_point deadline) {
  std::string last = "no attempt";
  do {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    const int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found);
    if (rc != 0) last = ::gai_strerror(rc);
    for (auto* a = found; a != nullptr; a = a->ai_next) {
      const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
      if (fd < 0) continue;
      if (::connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
        ::freeaddrinfo(found);
        const int on = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
        return fd;
      }
      last = std::strerror(errno);
      ::close(fd);
    }
    if (found != nullptr) ::freeaddrinfo(found);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  } while (SteadyClock::now() < deadline);
  throw Error(
      ExitCode::environment,
      fmt::format("rendezvous: cannot reach rank 0 at {}:{} ({}); check MASTER_ADDR and that the port is "
                  "open between the hosts",
                  host, port, last));
}

std::string encode_strings(const std::vector<std::string>& values) {
  std::string out;
  put_u32(out, static_cast<std::uint32_t>(values.size()));
  for (const auto& v : values) {
    put_u32(out, static_cast<std::uint32_t>(v.size()));
    out += v;
  }
  return out;
}

std::vector<std::string> decode_strings(const std::string& payload) {
  const auto bad = [] {
    return Error(ExitCode::run_failed, "rendezvous: a malformed exchange from another rank");
  };
  if (payload.size() < 4) throw bad();
  const auto count = get_u32(payload, 0);
  std::vector<std::string> out;
  std::size_t at = 4;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (payload.size() < at + 4) throw bad();
    const auto len = get_u32(payload, at);
    at += 4;
    if (payload.size() < at + len) throw bad();
    out.push_back(payload.substr(at, len));
    at += len;
  }
  if (at != payload.size()) throw bad();
  return out;
}

}  // namespace fb
