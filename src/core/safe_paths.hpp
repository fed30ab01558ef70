#pragma once
// Writing where another user may have planted something (docs/security.md, "Writes as root"):
// fabricbench runs as root in a Slurm prolog or a DaemonSet, and a link that another user planted
// at an output (or on the way to it) must not turn its write into one of that user's choosing.
// So a folder is opened one name at a time, each relative to the folder before it and without
// following a symlink by the kernel's rules; a symlink on the way is followed only when it belongs
// to the writer or root (who could write anywhere anyway). Files are then written relative to the
// opened folder (openat, renameat), created with the process's umask, never through another
// user's link. core/file_io's writer and the doctor's results folder go through here.
#include <string>
#include <string_view>

namespace fb {

// An open folder (O_PATH): the descriptor every write in it is made relative to.
class FolderFd {
 public:
  FolderFd() = default;
  explicit FolderFd(int fd) : fd_(fd) {}
  FolderFd(FolderFd&& other) noexcept : fd_(other.release()) {}
  FolderFd& operator=(FolderFd&& other) noexcept;
  FolderFd(const FolderFd&) = delete;
  FolderFd& operator=(const FolderFd&) = delete;
  ~FolderFd();
  [[nodiscard]] int fd() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_ = -1;
};

// Who may own a link that is followed, or a folder that is written in: this process's user, and
// root.
bool trusted_owner(unsigned uid);

// Opens the folder `path` ("" is the working folder) as above; with `create`, missing folders are
// made (mode 0777 less the umask). Throws Error(usage) naming `shown` (the file to be written there;
// `path` when empty) and why: another user's link on the way, a name that is not a folder, too many
// links; Error(run_failed) for a failed mkdir or open.
FolderFd open_folder(const std::string& path, bool create, const std::string& shown = "");

// An output folder fabricbench fills (the doctor's --out): created where missing; refused
// (Error(usage)) when it belongs to another user than the writer or root, or every user may write
// in it (the sticky /tmp included: its files would sit beside other users' names).
FolderFd open_output_folder(const std::string& path);

// Writes `text` as `name` in `folder` so that a reader never sees half a document: a temporary beside
// it (O_EXCL, the umask's mode), then a rename over it. An existing symlink at `name` is followed only
// when it and the file it names belong to the writer (or root); a FIFO or character device is written
// through; a folder is refused. `shown` is the path messages name.
void write_in_folder(const FolderFd& folder, const std::string& name, const std::string& shown,
                     const std::string& text);

// Whether `path` names a file this process has open (/dev/stdout, /dev/stderr, /dev/fd/N,
// /proc/self/fd/N: a shell's `> file` or pipe), and writing `text` through it, in place (a FIFO
// without a reader is an error now, not a wait). Error(run_failed) when the write fails.
bool names_an_open_file(const std::string& path);
void write_to_open_file(const std::string& path, const std::string& text);

// The folder part and the last name of `path` ("a/b/c" -> "a/b", "c"; "c" -> "", "c").
std::pair<std::string, std::string> split_last_name(const std::string& path);

// A new folder only this user can read, under $TMPDIR (else /tmp), named PREFIX.XXXXXX (mkdtemp):
// for files that no other user may predict, plant or read (NCCL's logs). Throws Error(environment).
std::string make_private_temp_folder(std::string_view prefix);

}  // namespace fb
