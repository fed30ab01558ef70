#pragma once
// A message channel over a stream socket: each message is a JSON document framed by its
// 4-byte little-endian length (at most 1 GiB, nested at most 64 deep: Error(run_failed) past
// either). Used between the launcher and its workers (its own children, over a socket pair).
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace fb {

class Channel {
 public:
  explicit Channel(int fd);  // takes ownership of fd
  ~Channel();
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  [[nodiscard]] int fd() const { return fd_; }

  // Throws Error(run_failed) if the peer is gone.
  void send(const nlohmann::json& message);

  // Blocks until a whole message arrives; nullopt when the peer closed the channel.
  std::optional<nlohmann::json> receive();

  // For poll()-driven readers: reads what is available now (one read call). Returns false
  // once the peer has closed the channel. Complete messages are then taken with next().
  bool pump();
  std::optional<nlohmann::json> next();

 private:
  int fd_;
  std::string buffer_;
};

// One read() of what `fd` has now (at most 64 KiB), appended to `buffer`, retried on EINTR.
// False once the peer has closed it (or the read failed). Shared by Channel and the TCP Link.
bool read_available(int fd, std::string& buffer);

}  // namespace fb
