#pragma once
// The sockets of the TCP rendezvous (comm/tcp_session): a listening socket on rank 0, a
// connection from every other rank to it, and typed frames on them: 1 type byte, a 4-byte
// little-endian length, the payload (any bytes).
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
inline constexpr char hello = 'H';    // rank r -> 0: {rank, size, host, local_rank}
inline constexpr char welcome = 'W';  // 0 -> r: {hosts, local_ranks}
inline constexpr char data = 'D';     // a bootstrap exchange (allgather)
inline constexpr char step = 'S';     // r -> 0: the step rank r begins
inline constexpr char fatal = 'F';    // r -> 0: {code, text}: rank r fails and ends
inline constexpr char abort = 'A';    // 0 -> r: {code, text}: end now
inline constexpr char end = 'E';      // either way: a normal end follows, EOF is not a failure
}  // namespace frame

struct Frame {
  char type = 0;
  std::string payload;
};

// One connected socket; send() may be called from several threads.
class Link {
 public:
  explicit Link(int fd) : fd_(fd) {}
  ~Link();
  Link(const Link&) = delete;
  Link& operator=(const Link&) = delete;
  [[nodiscard]] int fd() const { return fd_; }
  // False when the peer is gone.
  bool send(char type, const std::string& payload);
  // Reads what is available now (one read); false once the peer has closed the connection.
  bool pump();
  std::optional<Frame> next();
  // Waits for one whole frame until `deadline`; nullopt on timeout or a closed connection.
  std::optional<Frame> receive(SteadyClock::time_point deadline);
  void close();

 private:
  int fd_;
  std::string buffer_;
  std::mutex send_mutex_;
};

// Listens on every address at `port`. Throws Error(environment) naming the port if it is taken.
int listen_on(int port);
// Accepts one connection, waiting until `deadline`; -1 on timeout.
int accept_until(int listener, SteadyClock::time_point deadline);
// Connects to host:port, retrying (rank 0 may start later) until `deadline`. Throws
// Error(environment) with the last reason when it cannot.
int connect_until(const std::string& host, int port, SteadyClock::time_point deadline);

// A list of byte strings as one payload, and back (throws Error(run_failed) when malformed).
std::string encode_strings(const std::vector<std::string>& values);
std::vector<std::string> decode_strings(const std::string& payload);

}  // namespace fb
