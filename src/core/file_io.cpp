#include "core/file_io.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "core/error.hpp"
#include "core/safe_paths.hpp"

namespace fb {
namespace {

// Closes the descriptor it owns.
struct Fd {
  int fd = -1;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

[[noreturn]] void read_error(const std::string& path, const std::string& why) {
  FB_USAGE_ERROR(fmt::format("cannot read {}: {}", path, why));
}

// Reads an open regular file to its end, refusing more than max_bytes (a file may grow).
std::optional<std::string> read_all(int fd, const std::string& path, std::uint64_t max_bytes) {
  std::string text;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) return text;
    if (text.size() + static_cast<std::size_t>(n) > max_bytes)
      read_error(path, fmt::format("larger than the limit of {} bytes", max_bytes));
    text.append(buf, static_cast<std::size_t>(n));
  }
}

// nullopt when it cannot be opened or read; Error(usage) when it is not a regular file or too large.
std::optional<std::string> read_checked(const std::string& path, std::uint64_t max_bytes, int& error) {
  // O_NONBLOCK: opening a FIFO without a writer must not wait; it is refused just below.
  const Fd f(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  error = errno;
  if (f.fd < 0) return std::nullopt;
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) return std::nullopt;
  if (!S_ISREG(st.st_mode)) read_error(path, fmt::format("{}, not a regular file", kind_of(st.st_mode)));
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes)
    read_error(path, fmt::format("{} bytes, larger than the limit of {} bytes", st.st_size, max_bytes));
  ::fcntl(f.fd, F_SETFL, ::fcntl(f.fd, F_GETFL) & ~O_NONBLOCK);
  auto text = read_all(f.fd, path, max_bytes);
  error = errno;
  return text;
}

}  // namespace

std::string read_file(const std::string& path, std::uint64_t max_bytes) {
  int error = 0;
  auto text = read_checked(path, max_bytes, error);
  if (!text) read_error(path, std::strerror(error));
  return std::move(*text);
}

std::optional<std::string> read_file_if_readable(const std::string& path, std::uint64_t max_bytes) {
  int error = 0;
  return read_checked(path, max_bytes, error);
}

void write_file_atomically(const std::string& path, const std::string& text) {
  // /dev/stdout, /dev/fd/N and the like name an open file: written where it stands, even when
  // it is a regular file (a shell's `> file`), never renamed over.
  if (names_an_open_file(path)) {
    write_to_open_file(path, text);
    return;
  }
  const auto [dir, name] = split_last_name(path);
  if (name.empty() || name == "." || name == ".." || name == "/")
    FB_USAGE_ERROR(fmt::format("cannot write {}: a directory", path));
  write_in_folder(open_folder(dir, false, path), name, path, text);
}

void check_output_is_not_an_input(const std::string& output, const std::vector<std::string>& inputs) {
  struct stat out {};
  if (output.empty() || ::stat(output.c_str(), &out) != 0 || !S_ISREG(out.st_mode)) return;
  for (const auto& input : inputs) {
    struct stat in {};
    if (!input.empty() && ::stat(input.c_str(), &in) == 0 && in.st_dev == out.st_dev &&
        in.st_ino == out.st_ino)
      FB_USAGE_ERROR(
          fmt::format("the output {} is the input {}: writing it would destroy the input", output, input));
  }
}

void flush_stdout() {
  std::cout.flush();
  const bool failed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout) != 0;
  if (failed)
    throw Error(ExitCode::run_failed,
                fmt::format("cannot write to standard output: {}", std::strerror(errno)));
}

}  // namespace fb
