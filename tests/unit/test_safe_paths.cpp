// Writes that no planted link or folder can turn (core/safe_paths, docs/security.md "Writes as root"),
// as far as one user can show it: the umask's modes, writes relative to the opened folder, folders
// every user may write in, links on the way, a private temporary folder. Another user's links and
// folders, as root: tests/cli/safe_writes.sh.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/file_io.hpp"
#include "core/safe_paths.hpp"
#include "expect_error.hpp"

namespace {

namespace fs = std::filesystem;

struct Folder {
  fs::path path;
  Folder() {
    std::string tmpl = (fs::temp_directory_path() / "fb-safe-XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~Folder() { fs::remove_all(path); }
  [[nodiscard]] std::string operator/(const std::string& name) const { return (path / name).string(); }
};

unsigned mode_of(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? st.st_mode & 07777U : 0;
}

struct Umask {
  mode_t old;
  explicit Umask(mode_t m) : old(::umask(m)) {}
  ~Umask() { ::umask(old); }
};

TEST(SafePaths, FilesAreCreatedWithTheUmask) {
  const Folder dir;
  {
    const Umask u(077);
    fb::write_file_atomically(dir / "private", "x");
  }
  {
    const Umask u(022);
    fb::write_file_atomically(dir / "shared", "x");
  }
  EXPECT_EQ(mode_of(dir / "private"), 0600U);
  EXPECT_EQ(mode_of(dir / "shared"), 0644U);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()),
            2);  // no temporary left
}

// The folder is opened once; what is written goes there even when its path names another folder later.
TEST(SafePaths, WritesAreRelativeToTheOpenedFolder) {
  const Folder dir;
  fs::create_directory(dir.path / "results");
  const auto folder = fb::open_output_folder(dir / "results");
  fs::rename(dir.path / "results", dir.path / "moved");
  fs::create_directory(dir.path / "results");  // what a swap would leave at the old name
  fb::write_in_folder(folder, "result.json", dir / "results/result.json", "{}");
  EXPECT_TRUE(fs::exists(dir.path / "moved/result.json"));
  EXPECT_FALSE(fs::exists(dir.path / "results/result.json"));
}

TEST(SafePaths, FoldersEveryUserMayWriteIn) {
  const Folder dir;
  fs::create_directory(dir.path / "open");
  ::chmod((dir / "open").c_str(), 0777);
  expect_usage_error([&] { fb::write_file_atomically(dir / "open/r.md", "x"); }, "writable by every user");
  expect_usage_error([&] { fb::open_output_folder(dir / "open"); }, "every user may write in this folder");
  fs::create_directory(dir.path / "sticky");
  ::chmod((dir / "sticky").c_str(), 01777);  // as /tmp: a single file may go there, a results folder not
  EXPECT_NO_THROW(fb::write_file_atomically(dir / "sticky/r.md", "x"));
  expect_usage_error([&] { fb::open_output_folder(dir / "sticky"); }, "every user may write in this folder");
  EXPECT_TRUE(fs::is_empty(dir.path / "open"));
}

TEST(SafePaths, OutputFoldersAreMadeWhereMissing) {
  const Folder dir;
  const Umask u(022);
  const auto folder = fb::open_output_folder(dir / "a/b/c");
  EXPECT_GE(folder.fd(), 0);
  EXPECT_TRUE(fs::is_directory(dir.path / "a/b/c"));
  EXPECT_EQ(mode_of(dir / "a/b/c"), 0755U);
  std::ofstream(dir / "file") << "x";
  expect_usage_error([&] { fb::open_output_folder(dir / "file/x"); }, "'file' is not a folder");
}

// This user's links are followed as before, on the way and at the target; a link's target is replaced,
// the link kept.
TEST(SafePaths, ThisUsersLinksAreFollowed) {
  const Folder dir;
  fs::create_directory(dir.path / "real");
  fs::create_directory_symlink(dir.path / "real", dir.path / "via");
  fb::write_file_atomically(dir / "via/r.md", "one");
  EXPECT_EQ(fb::read_file(dir / "real/r.md"), "one");
  fs::create_symlink("r.md", dir.path / "real/alias.md");
  fb::write_file_atomically(dir / "via/alias.md", "two");
  EXPECT_TRUE(fs::is_symlink(dir.path / "real/alias.md"));
  EXPECT_EQ(fb::read_file(dir / "real/r.md"), "two");
  fs::create_symlink("alias.md", dir.path / "real/chain.md");
  expect_usage_error([&] { fb::write_file_atomically(dir / "real/chain.md", "x"); },
                     "a symlink to another symlink");
  fs::create_directory_symlink(dir.path / "real", dir.path / "dirlink");
  expect_usage_error([&] { fb::write_file_atomically(dir / "dirlink", "x"); }, "a directory");
  fs::create_symlink(dir.path / "loop", dir.path / "loop");
  expect_usage_error([&] { fb::write_file_atomically(dir / "loop/x", "x"); }, "too many symlinks");
}

TEST(SafePaths, APrivateTemporaryFolderNoOtherUserCanPredictOrRead) {
  const auto a = fb::make_private_temp_folder("fabricbench-nccl");
  const auto b = fb::make_private_temp_folder("fabricbench-nccl");
  EXPECT_NE(a, b);
  EXPECT_EQ(mode_of(a), 0700U);
  EXPECT_NE(a.find("/fabricbench-nccl."), std::string::npos);
  fs::remove(a);
  fs::remove(b);
}

TEST(SafePaths, SplitLastName) {
  EXPECT_EQ(fb::split_last_name("a/b/c"), (std::pair<std::string, std::string>{"a/b", "c"}));
  EXPECT_EQ(fb::split_last_name("c"), (std::pair<std::string, std::string>{"", "c"}));
  EXPECT_EQ(fb::split_last_name("/c"), (std::pair<std::string, std::string>{"/", "c"}));
  EXPECT_EQ(fb::split_last_name("a/b/"), (std::pair<std::string, std::string>{"a", "b"}));
}

}  // namespace
