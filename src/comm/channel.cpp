#include "comm/channel.hpp"

#include <fmt/format.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "core/error.hpp"
#include "core/json_text.hpp"

namespace fb {
namespace {

constexpr std::uint32_t kMaxChannelMessage = 1U << 30U;  // a plan, a point, a gather of every rank's GPUs
constexpr int kChannelDepth = 64;

}  // namespace

Channel::Channel(int fd) : fd_(fd) {}

Channel::~Channel() {
  if (fd_ >= 0) ::close(fd_);
}

void Channel::send(const nlohmann::json& message) {
  const std::string body = message.dump();
  const auto len = static_cast<std::uint32_t>(body.size());
  std::string frame(4, '\0');
  for (int i = 0; i < 4; ++i) frame[static_cast<size_t>(i)] = static_cast<char>((len >> (8 * i)) & 0xff);
  frame += body;
  std::size_t sent = 0;
  while (sent < frame.size()) {
    const auto n = ::send(fd_, frame.data() + sent, frame.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw Error(ExitCode::run_failed,
                  std::string("lost the launcher/worker channel: ") + std::strerror(errno));
    sent += static_cast<std::size_t>(n);
  }
}

bool read_available(int fd, std::string& buffer) {
  std::array<char, 65536> chunk{};
  for (;;) {
    const auto n = ::read(fd, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    buffer.append(chunk.data(), static_cast<std::size_t>(n));
    return true;
  }
}

bool Channel::pump() { return read_available(fd_, buffer_); }

std::optional<nlohmann::json> Channel::next() {
  if (buffer_.size() < 4) return std::nullopt;
  std::uint32_t len = 0;
  for (int i = 0; i < 4; ++i)
    len |= static_cast<std::uint32_t>(static_cast<unsigned char>(buffer_[static_cast<size_t>(i)])) << (8 * i);
  if (len > kMaxChannelMessage)
    throw Error(ExitCode::run_failed,
                fmt::format("the launcher/worker channel: a message of {} bytes, more than {}", len,
                            kMaxChannelMessage));
  if (buffer_.size() < 4 + static_cast<std::size_t>(len)) return std::nullopt;
  std::string why;
  auto message = parse_json_bounded(std::string_view(buffer_).substr(4, len), kChannelDepth, why);
  buffer_.erase(0, 4 + static_cast<std::size_t>(len));
  if (!message) throw Error(ExitCode::run_failed, "the launcher/worker channel: a malformed message: " + why);
  return message;
}

std::optional<nlohmann::json> Channel::receive() {
  for (;;) {
    if (auto m = next()) return m;
    if (!pump()) return std::nullopt;
  }
}

}  // namespace fb
