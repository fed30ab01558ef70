#pragma once
// The sockets of the TCP rendezvous (comm/tcp_session): a listening socket on rank 0, a
// connection from every other rank to it, and typed frames on them: 1 type byte, a 4-byte
// little-endian length, the payload. Every frame is read against a cap of its type and of the
// link's direction (docs/security.md, "Bounded messages"): a header that names an unknown type or
// more bytes than its cap breaks the link at once, before any of its payload is kept.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace fb {

using SteadyClock = std::chrono::steady_clock;

// `seconds` after `from` (fractions of a second kept).
inline SteadyClock::time_point seconds_after(SteadyClock::time_point from, double seconds) {
  return from + std::chrono::duration_cast<SteadyClock::duration>(std::chrono::duration<double>(seconds));
}

// Frame types.
namespace frame {
inline constexpr char hello = 'H';      // rank r -> 0: {rank, size, host, local_rank, nonce}
inline constexpr char challenge = 'C';  // 0 -> r: rank 0's nonce and its proof of the job's secret
inline constexpr char proof = 'P';      // r -> 0: rank r's proof of the job's secret
inline constexpr char welcome = 'W';    // 0 -> r: {hosts, local_ranks}
inline constexpr char data = 'D';       // a bootstrap exchange (allgather)
inline constexpr char step = 'S';       // r -> 0: the step rank r begins
inline constexpr char fatal = 'F';      // r -> 0: {code, text, step}: rank r fails and ends
inline constexpr char abort = 'A';      // 0 -> r: {code, text}: end now
inline constexpr char end = 'E';        // either way: a normal end follows, EOF is not a failure
}  // namespace frame

// Which way a link's frames travel, and so which frames it takes and how large.
enum class LinkRole {
  from_rank,  // rank 0 reads what another rank sends (hello, proof, data, step, fatal, end)
  from_root,  // a rank reads what rank 0 sends (challenge, welcome, data, abort, end)
};

// The most a frame of `type` may carry on a link of `role`; nullopt for a type the role never takes.
std::optional<std::uint32_t> frame_cap(LinkRole role, char type);

// The most one rank's contribution to an exchange may weigh (a host's section, a plan's reply).
inline constexpr std::uint32_t kMaxExchangeBytes = 64U << 20U;

struct Frame {
  char type = 0;
  std::string payload;
};

// One connected socket; send() may be called from several threads.
class Link {
 public:
  Link(int fd, LinkRole role) : fd_(fd), role_(role) {}
  ~Link();
  Link(const Link&) = delete;
  Link& operator=(const Link&) = delete;
  [[nodiscard]] int fd() const { return fd_; }
  // False when the peer is gone.
  bool send(char type, const std::string& payload);
  // Reads what is available now (one read); false once the peer has closed the connection or the
  // link broke on a frame it does not take.
  bool pump();
  // The next whole frame; nullopt when none is complete yet or the link broke (broken() says).
  std::optional<Frame> next();
  // Waits for one whole frame until `deadline`; nullopt on timeout, a closed or broken connection.
  std::optional<Frame> receive(SteadyClock::time_point deadline);
  // Why the link broke ("" while it has not): a frame of a type or size its role does not take.
  [[nodiscard]] const std::string& broken() const { return broken_; }
  void close();

 private:
  int fd_;
  LinkRole role_;
  std::string buffer_;
  std::string broken_;
  std::mutex send_mutex_;
};

// Listens at `address` (a host name or address; "" every address) on `port` (0: a free one), with a
// non-blocking socket.
// Throws Error(environment) naming the address and port if it cannot (taken, not an address of
// this host).
int listen_on(const std::string& address, int port);
// The port a listening socket has.
int listening_port(int fd);
// Accepts one connection, waiting until `deadline`; -1 on timeout.
int accept_until(int listener, SteadyClock::time_point deadline);
// Accepts one connection that is waiting now; -1 when none is.
int accept_now(int listener);
// Connects to host:port, retrying (rank 0 may start later) until `deadline`. Throws
// Error(environment) with the last reason when it cannot.
int connect_until(const std::string& host, int port, SteadyClock::time_point deadline);
// "ADDRESS:PORT" of a connected socket's peer, for log lines.
std::string peer_address(int fd);
// Whether every address `host` names is a loopback one (127.0.0.0/8, ::1): a job whose ranks meet
// there is on one host.
bool names_loopback(const std::string& host);

// A list of byte strings as one payload, and back (nullopt when malformed).
std::string encode_strings(const std::vector<std::string>& values);
std::optional<std::vector<std::string>> decode_strings(const std::string& payload);

}  // namespace fb
