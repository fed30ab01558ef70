#include "comm/tcp_link.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
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
constexpr std::uint32_t kSmall = 4U << 10U;     // a hello, a step's label
constexpr std::uint32_t kControl = 64U << 10U;  // a failure's or an abort's text
constexpr std::uint32_t kLarge = 1U << 30U;     // what rank 0 hands every rank (all contributions)

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

void no_delay(int fd) {
  const int on = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

addrinfo* resolve(const std::string& host, int port, int flags, std::string& why) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = flags;
  addrinfo* found = nullptr;
  const int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found);
  if (rc != 0) why = ::gai_strerror(rc);
  return rc == 0 ? found : nullptr;
}

[[noreturn]] void cannot_listen(const std::string& where, int port, const std::string& why) {
  throw Error(
      ExitCode::environment,
      fmt::format("rendezvous: rank 0 cannot listen at {} port {}: {} (another process holds the port, "
                  "or the address is not this host's: set FABRICBENCH_RENDEZVOUS_PORT to a free port, "
                  "the same on every rank)",
                  where, port, why));
}

// A socket listening at `addr`; -1 with `err` set when it cannot bind.
int bind_listener(const sockaddr* addr, socklen_t len, int family, int& err) {
  // Non-blocking: accept_now takes what is waiting and never waits itself.
  const int fd = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) {
    err = errno;
    return -1;
  }
  const int on = 1;
  const int off = 0;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  if (family == AF_INET6) ::setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof off);  // IPv4 peers too
  if (::bind(fd, addr, len) != 0 || ::listen(fd, 1024) != 0) {
    err = errno;
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

std::optional<std::uint32_t> frame_cap(LinkRole role, char type) {
  switch (role) {
    case LinkRole::from_rank:
      if (type == frame::hello || type == frame::step) return kSmall;
      if (type == frame::proof) return 32;
      if (type == frame::data) return kMaxExchangeBytes;
      if (type == frame::fatal) return kControl;
      if (type == frame::end) return 0;
      return std::nullopt;
    case LinkRole::from_root:
      if (type == frame::challenge) return 64;
      if (type == frame::welcome || type == frame::data) return kLarge;
      if (type == frame::abort) return kControl;
      if (type == frame::end) return 0;
      return std::nullopt;
  }
  return std::nullopt;
}

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

bool Link::pump() { return broken_.empty() && read_available(fd_, buffer_); }

std::optional<Frame> Link::next() {
  if (!broken_.empty() || buffer_.size() < kHeader) return std::nullopt;
  const char type = buffer_[0];
  const auto len = get_u32(buffer_, 1);
  const auto cap = frame_cap(role_, type);
  if (!cap || len > *cap) {
    const auto u = static_cast<unsigned char>(type);
    broken_ = cap ? fmt::format("a frame '{}' of {} bytes, more than the {} it may carry", type, len, *cap)
              : u >= 0x21 && u < 0x7f ? fmt::format("a frame '{}', which this direction never carries", type)
                                      : fmt::format("a frame of unknown type 0x{:02x}", u);
    buffer_.clear();
    buffer_.shrink_to_fit();
    return std::nullopt;
  }
  if (buffer_.size() < kHeader + len) return std::nullopt;
  Frame f{type, buffer_.substr(kHeader, len)};
  buffer_.erase(0, kHeader + len);
  return f;
}

std::optional<Frame> Link::receive(SteadyClock::time_point deadline) {
  for (;;) {
    if (auto f = next()) return f;
    if (!broken_.empty() || SteadyClock::now() >= deadline) return std::nullopt;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, ms_until(deadline)) > 0 && !pump()) return next();
  }
}

int listen_on(const std::string& address, int port) {
  if (address.empty()) {
    sockaddr_in6 any{};
    any.sin6_family = AF_INET6;
    any.sin6_addr = in6addr_any;
    any.sin6_port = htons(static_cast<std::uint16_t>(port));
    int err = 0;
    const int fd = bind_listener(reinterpret_cast<sockaddr*>(&any), sizeof any, AF_INET6, err);  // NOLINT
    if (fd < 0) cannot_listen("every address", port, std::strerror(err));
    return fd;
  }
  std::string why;
  addrinfo* found = resolve(address, port, AI_NUMERICSERV, why);
  if (found == nullptr) cannot_listen(address, port, why);
  int err = EADDRNOTAVAIL;
  int fd = -1;
  for (auto* a = found; a != nullptr && fd < 0; a = a->ai_next)
    fd = bind_listener(a->ai_addr, a->ai_addrlen, a->ai_family, err);
  ::freeaddrinfo(found);
  if (fd < 0) cannot_listen(address, port, std::strerror(err));
  return fd;
}

int listening_port(int fd) {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0)  // NOLINT: the sockets API
    throw Error(ExitCode::environment, "rendezvous: cannot read the port a socket listens on");
  if (addr.ss_family == AF_INET) return ntohs(reinterpret_cast<sockaddr_in*>(&addr)->sin_port);  // NOLINT
  return ntohs(reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port);                               // NOLINT
}

int accept_now(int listener) {
  const int fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
  if (fd < 0) return -1;
  const int flags = ::fcntl(fd, F_GETFL);
  ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  no_delay(fd);
  return fd;
}

int accept_until(int listener, SteadyClock::time_point deadline) {
  while (SteadyClock::now() < deadline) {
    pollfd p{listener, POLLIN, 0};
    if (::poll(&p, 1, ms_until(deadline)) <= 0) continue;
    if (const int fd = accept_now(listener); fd >= 0) return fd;
  }
  return -1;
}

int connect_until(const std::string& host, int port, SteadyClock::time_point deadline) {
  std::string last = "no attempt";
  do {
    addrinfo* found = resolve(host, port, AI_NUMERICSERV, last);
    for (auto* a = found; a != nullptr; a = a->ai_next) {
      const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
      if (fd < 0) continue;
      if (::connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
        ::freeaddrinfo(found);
        no_delay(fd);
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

std::string peer_address(int fd) {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  if (::getpeername(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
    return "an unknown address";  // NOLINT
  std::array<char, INET6_ADDRSTRLEN> text{};
  if (addr.ss_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(&addr);  // NOLINT: the sockets API
    ::inet_ntop(AF_INET, &in->sin_addr, text.data(), text.size());
    return fmt::format("{}:{}", text.data(), ntohs(in->sin_port));
  }
  const auto* in6 = reinterpret_cast<const sockaddr_in6*>(&addr);  // NOLINT: the sockets API
  ::inet_ntop(AF_INET6, &in6->sin6_addr, text.data(), text.size());
  return fmt::format("[{}]:{}", text.data(), ntohs(in6->sin6_port));
}

bool names_loopback(const std::string& host) {
  std::string why;
  addrinfo* found = resolve(host, 0, 0, why);
  if (found == nullptr) return false;
  bool all = true;
  for (auto* a = found; a != nullptr; a = a->ai_next) {
    if (a->ai_family == AF_INET) {
      const auto* in = reinterpret_cast<const sockaddr_in*>(a->ai_addr);  // NOLINT: the sockets API
      all = all && (ntohl(in->sin_addr.s_addr) >> 24U) == 127U;
    } else if (a->ai_family == AF_INET6) {
      const auto* in6 = reinterpret_cast<const sockaddr_in6*>(a->ai_addr);  // NOLINT: the sockets API
      all = all && IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr);
    } else {
      all = false;
    }
  }
  ::freeaddrinfo(found);
  return all;
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

std::optional<std::vector<std::string>> decode_strings(const std::string& payload) {
  if (payload.size() < 4) return std::nullopt;
  const auto count = get_u32(payload, 0);
  if (count > payload.size() / 4) return std::nullopt;  // each item takes 4 bytes at least
  std::vector<std::string> out;
  out.reserve(count);
  std::size_t at = 4;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (payload.size() < at + 4) return std::nullopt;
    const auto len = get_u32(payload, at);
    at += 4;
    if (payload.size() - at < len) return std::nullopt;
    out.push_back(payload.substr(at, len));
    at += len;
  }
  if (at != payload.size()) return std::nullopt;
  return out;
}

}  // namespace fb
