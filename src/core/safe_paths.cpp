#include "core/safe_paths.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "core/error.hpp"
#include "core/text.hpp"

namespace fb {
namespace {

constexpr int kMaxLinks = 40;  // as the kernel's own limit on links in one path (ELOOP)

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
  FB_USAGE_ERROR(fmt::format("cannot write {}: {}", path, escape_control(why)));
}

[[noreturn]] void failed(const std::string& path, int err) {
  throw Error(ExitCode::run_failed, fmt::format("cannot write {}: {}", path, std::strerror(err)));
}

int open_start(bool absolute, const std::string& path) {
  const int fd = ::open(absolute ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) failed(path, errno);
  return fd;
}

std::string read_link(int dir, const std::string& name, const std::string& path) {
  std::array<char, 4096> buf{};
  const auto n = ::readlinkat(dir, name.c_str(), buf.data(), buf.size() - 1);
  if (n < 0) failed(path, errno);
  return {buf.data(), static_cast<std::size_t>(n)};
}

// Checks a symlink met on the way (or at the end) before it is followed.
void check_link(const struct stat& st, const std::string& name, const std::string& path) {
  if (!trusted_owner(st.st_uid))
    refuse(path, fmt::format("'{}' is a symlink owned by uid {}, not by this user (uid {}) or root: another "
                             "user's link is never followed",
                             name, st.st_uid, ::geteuid()));
}

class Walk {
 public:
  Walk(std::string path, bool create) : path_(std::move(path)), create_(create) {}

  // Opens `rel` (split at '/') starting from `start`, which it takes over.
  FolderFd from(FolderFd start, const std::string& rel) {
    FolderFd cur = std::move(start);
    for (const auto& name : split(rel, '/')) {
      if (name.empty() || name == ".") continue;
      cur = step(cur, name);
    }
    return cur;
  }

 private:
  FolderFd step(const FolderFd& cur, const std::string& name) {
    struct stat st {};
    if (::fstatat(cur.fd(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      if (errno != ENOENT || !create_ || name == "..") failed(path_, errno);
      if (::mkdirat(cur.fd(), name.c_str(), 0777) != 0 && errno != EEXIST) failed(path_, errno);
      if (::fstatat(cur.fd(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) failed(path_, errno);
    }
    if (S_ISLNK(st.st_mode)) {
      check_link(st, name, path_);
      if (++links_ > kMaxLinks) refuse(path_, "too many symlinks on the way");
      const auto target = read_link(cur.fd(), name, path_);
      const bool absolute = !target.empty() && target[0] == '/';
      const int start =
          absolute ? open_start(true, path_) : ::openat(cur.fd(), ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
      if (start < 0) failed(path_, errno);
      return from(FolderFd(start), target);
    }
    if (!S_ISDIR(st.st_mode)) refuse(path_, fmt::format("'{}' is not a folder", name));
    // O_NOFOLLOW: a folder swapped for a link since the check above is not followed.
    const int fd = ::openat(cur.fd(), name.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) failed(path_, errno);
    return FolderFd(fd);
  }

  std::string path_;
  bool create_;
  int links_ = 0;
};

// A folder every user may write in, owned by another user: what is written there is theirs to swap.
void check_folder_for_files(const FolderFd& folder, const std::string& shown) {
  struct stat st {};
  if (::fstat(folder.fd(), &st) != 0) failed(shown, errno);
  if ((st.st_mode & S_IWOTH) != 0 && (st.st_mode & S_ISVTX) == 0)
    refuse(shown,
           "its folder is writable by every user (and not sticky): another user could replace the file");
  if (!trusted_owner(st.st_uid))
    refuse(shown, fmt::format("its folder belongs to uid {}, not to this user (uid {}) or root", st.st_uid,
                              ::geteuid()));
}

void write_all(int fd, const std::string& shown, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) failed(shown, n < 0 ? errno : EIO);
    done += static_cast<std::size_t>(n);
  }
}

// A device or FIFO met at the name: written where it stands (a rename would replace the entry).
void write_through(const FolderFd& folder, const std::string& name, const std::string& shown,
                   const std::string& text) {
  // O_NONBLOCK: a FIFO without a reader is an error now, not a wait forever.
  const int fd = ::openat(folder.fd(), name.c_str(), O_WRONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) failed(shown, errno);
  const FolderFd closer(fd);
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  write_all(fd, shown, text);
}

// A temporary of an unpredictable name beside `name`, then a rename over it.
void write_by_rename(const FolderFd& folder, const std::string& name, const std::string& shown,
                     const std::string& text) {
  std::random_device random;
  std::string tmp;
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
    tmp = fmt::format(".{}.{:08x}{:08x}.tmp", name.substr(0, 200), random(), random());
    // 0666 less the umask; O_EXCL and O_NOFOLLOW: never an existing file, never through a link.
    fd = ::openat(folder.fd(), tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) failed(shown, errno);
  }
  if (fd < 0) failed(shown, EEXIST);
  try {
    write_all(fd, shown, text);
  } catch (...) {
    ::close(fd);
    ::unlinkat(folder.fd(), tmp.c_str(), 0);
    throw;
  }
  const bool closed = ::close(fd) == 0;  // where a full disk shows only at close (NFS)
  const int err = errno;
  if (!closed || ::renameat(folder.fd(), tmp.c_str(), folder.fd(), name.c_str()) != 0) {
    const int why = closed ? errno : err;
    ::unlinkat(folder.fd(), tmp.c_str(), 0);
    failed(shown, why);
  }
}

// A symlink at the name: followed only when it and the file it names belong to the writer (or root).
void write_through_own_link(const FolderFd& folder, const std::string& name, const std::string& shown,
                            const std::string& text, const struct stat& link) {
  if (!trusted_owner(link.st_uid))
    refuse(shown, fmt::format("it is a symlink owned by uid {}, not by the writer (uid {}) or root: another "
                              "user's link is never followed",
                              link.st_uid, ::geteuid()));
  const auto target = read_link(folder.fd(), name, shown);
  if (names_an_open_file(target)) return write_to_open_file(target, text);  // the writer's own descriptor
  auto [dir, last] = split_last_name(target);
  if (last.empty() || last == "." || last == "..") refuse(shown, "a symlink to a folder");
  FolderFd start(target[0] == '/' ? ::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)
                                  : ::openat(folder.fd(), ".", O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (start.fd() < 0) failed(shown, errno);
  const FolderFd there = Walk(shown, false).from(std::move(start), dir);
  struct stat st {};
  if (::fstatat(there.fd(), last.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
    refuse(shown, "a symlink to a file that does not exist");
  if (S_ISLNK(st.st_mode)) refuse(shown, "a symlink to another symlink");
  if (!trusted_owner(st.st_uid))
    refuse(shown, fmt::format("a symlink to a file owned by uid {}, not by the writer (uid {}) or root",
                              st.st_uid, ::geteuid()));
  write_in_folder(there, last, shown, text);
}

}  // namespace

FolderFd& FolderFd::operator=(FolderFd&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.release();
  }
  return *this;
}

FolderFd::~FolderFd() {
  if (fd_ >= 0) ::close(fd_);
}

bool trusted_owner(unsigned uid) { return uid == ::geteuid() || uid == 0; }

bool names_an_open_file(const std::string& path) {
  for (const char* prefix : {"/dev/stdout", "/dev/stderr", "/dev/fd/", "/proc/self/fd/"})
    if (path.rfind(prefix, 0) == 0) return true;
  return false;
}

void write_to_open_file(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) failed(path, errno);
  const FolderFd closer(fd);
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::ftruncate(fd, 0) != 0) failed(path, errno);
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  write_all(fd, path, text);
}

std::pair<std::string, std::string> split_last_name(const std::string& path) {
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  const auto slash = p.rfind('/');
  if (slash == std::string::npos) return {"", p};
  return {slash == 0 ? "/" : p.substr(0, slash), p.substr(slash + 1)};
}

FolderFd open_folder(const std::string& path, bool create, const std::string& shown) {
  const bool absolute = !path.empty() && path[0] == '/';
  const auto& named = shown.empty() ? path : shown;
  return Walk(named, create).from(FolderFd(open_start(absolute, named)), path);
}

FolderFd open_output_folder(const std::string& path) {
  auto folder = open_folder(path, true);
  struct stat st {};
  if (::fstat(folder.fd(), &st) != 0) failed(path, errno);
  if (!trusted_owner(st.st_uid))
    refuse(path, fmt::format("the folder belongs to uid {}, not to this user (uid {}) or root: another user "
                             "made it (remove it, or choose another --out)",
                             st.st_uid, ::geteuid()));
  if ((st.st_mode & S_IWOTH) != 0)
    refuse(path, "every user may write in this folder: choose a folder only its owner can write (chmod o-w)");
  return folder;
}

void write_in_folder(const FolderFd& folder, const std::string& name, const std::string& shown,
                     const std::string& text) {
  check_folder_for_files(folder, shown);
  struct stat st {};
  if (::fstatat(folder.fd(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno != ENOENT) failed(shown, errno);
    return write_by_rename(folder, name, shown, text);
  }
  if (S_ISLNK(st.st_mode)) return write_through_own_link(folder, name, shown, text, st);
  if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) return write_through(folder, name, shown, text);
  if (S_ISDIR(st.st_mode)) refuse(shown, "a directory");
  if (!S_ISREG(st.st_mode)) refuse(shown, "not a regular file");
  write_by_rename(folder, name, shown, text);
}

std::string make_private_temp_folder(std::string_view prefix) {
  const char* tmpdir = std::getenv("TMPDIR");
  std::string base = tmpdir != nullptr && tmpdir[0] == '/' ? tmpdir : "/tmp";
  std::string tmpl = fmt::format("{}/{}.XXXXXX", base, prefix);
  if (::mkdtemp(tmpl.data()) == nullptr)  // mode 0700, a name no other user can predict
    throw Error(ExitCode::environment,
                fmt::format("cannot make a private folder under {}: {}", base, std::strerror(errno)));
  return tmpl;
}

}  // namespace fb
