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
#include <memory>

#include "core/error.hpp"

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

bool names_an_open_file(const std::string& path) {
  for (const char* prefix : {"/dev/stdout", "/dev/stderr", "/dev/fd/", "/proc/self/fd/"})
    if (path.rfind(prefix, 0) == 0) return true;
  return false;
}

[[noreturn]] void write_error(const std::string& path, int err) {
  throw Error(ExitCode::run_failed, fmt::format("cannot write {}: {}", path, std::strerror(err)));
}

void write_all(int fd, const std::string& path, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) write_error(path, n < 0 ? errno : EIO);
    done += static_cast<std::size_t>(n);
  }
}

// A device or pipe: written in place (a rename would replace the device entry).
void write_through(const std::string& path, const std::string& text) {
  // O_NONBLOCK: a FIFO without a reader is an error now, not a wait forever.
  const Fd f(::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC));
  if (f.fd < 0) write_error(path, errno);
  struct stat st {};
  if (::fstat(f.fd, &st) == 0 && S_ISREG(st.st_mode) && ::ftruncate(f.fd, 0) != 0) write_error(path, errno);
  ::fcntl(f.fd, F_SETFL, ::fcntl(f.fd, F_GETFL) & ~O_NONBLOCK);
  write_all(f.fd, path, text);
}

// A regular file: a temporary beside it, then a rename over it.
void write_by_rename(const std::string& target, const std::string& shown, const std::string& text) {
  std::string tmp = target + ".XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) write_error(shown, errno);
  ::fchmod(fd, 0644);  // mkstemp's 0600 would hide a report from the other users
  try {
    write_all(fd, shown, text);
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  if (::close(fd) != 0) {  // where a full disk shows only at close (NFS)
    const int err = errno;
    ::unlink(tmp.c_str());
    write_error(shown, err);
  }
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    write_error(shown, err);
  }
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
    write_through(path, text);
    return;
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    struct stat link {};
    if (::lstat(path.c_str(), &link) == 0)  // a dangling symlink: where it points is not ours to create
      FB_USAGE_ERROR(fmt::format("cannot write {}: a symlink to a file that does not exist", path));
    write_by_rename(path, path, text);
    return;
  }
  if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
    write_through(path, text);
    return;
  }
  if (!S_ISREG(st.st_mode)) FB_USAGE_ERROR(fmt::format("cannot write {}: {}", path, kind_of(st.st_mode)));
  // A symlink (or a path through one): the file it names is replaced, the link kept.
  const std::unique_ptr<char, decltype(&std::free)> real(::realpath(path.c_str(), nullptr), &std::free);
  if (!real) write_error(path, errno);
  write_by_rename(real.get(), path, text);
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
