// AtomicFile and the paths around it: a temporary registered for signal handlers while it exists, symlinks
// written through, FIFOs written in place, directories refused; same_file() and check_outputs_apart() on
// symlinks, hard links and spellings of one path.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>

#include "lumen/core/atomic_file.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/file_identity.hpp"
#include "lumen/core/temp_files.hpp"
#include "support/fifo_reader.hpp"
#include "support/temp_dir.hpp"

namespace lumen {
namespace test_atomic_file {

namespace fs = std::filesystem;

using test::read_file;

struct Dir : test::TempDir {
  Dir() : TempDir("lumen-atomic") {}
};

TEST(AtomicFile, TemporaryIsRegisteredUntilCommitAndRemoveAllDeletesIt) {
  Dir d;
  const std::size_t before = temp_files::count();
  {
    AtomicFile f(d / "out.txt");
    f.write("abc");
    EXPECT_EQ(temp_files::count(), before + 1);
    EXPECT_EQ(d.count(), 1u);  // the temporary
    temp_files::remove_all();  // what the CLI's SIGINT/SIGTERM handler does
    EXPECT_EQ(d.count(), 0u);
  }
  EXPECT_EQ(temp_files::count(), before);  // released by the destructor
  {
    AtomicFile f(d / "out.txt");
    f.write("abc");
    f.commit();
    EXPECT_EQ(temp_files::count(), before);  // released once renamed into place
  }
  temp_files::remove_all();  // nothing registered: the committed file stays
  EXPECT_EQ(read_file(d / "out.txt"), "abc");
}

TEST(AtomicFile, RegistryIsBoundedAndSlotsAreReused) {
  std::vector<int> slots;
  for (std::size_t i = temp_files::count(); i < temp_files::kCapacity; ++i)
    slots.push_back(temp_files::add("/nonexistent-lumen-test/x"));
  EXPECT_THROW(temp_files::add("/nonexistent-lumen-test/x"), IoError);
  EXPECT_THROW(temp_files::add(std::string(5000, 'a').c_str()), IoError);
  for (int s : slots) temp_files::release(s);
  EXPECT_NO_THROW(temp_files::release(temp_files::add("/nonexistent-lumen-test/x")));
}

TEST(AtomicFile, SymlinksAreWrittenThrough) {
  Dir d;
  std::ofstream(d / "target") << "old";
  fs::create_symlink("target", d / "link");
  fs::create_symlink("missing", d / "dangling");
  fs::create_symlink("link", d / "chain");
  write_file_atomic(d / "link", "one");
  EXPECT_TRUE(fs::is_symlink(d / "link"));
  EXPECT_EQ(read_file(d / "target"), "one");
  write_file_atomic(d / "chain", "two");
  EXPECT_TRUE(fs::is_symlink(d / "chain"));
  EXPECT_EQ(read_file(d / "target"), "two");
  write_file_atomic(d / "dangling", "three");
  EXPECT_TRUE(fs::is_symlink(d / "dangling"));
  EXPECT_EQ(read_file(d / "missing"), "three");
  fs::create_symlink("loop2", d / "loop1");
  fs::create_symlink("loop1", d / "loop2");
  EXPECT_THROW(write_file_atomic(d / "loop1", "x"), IoError);
  EXPECT_EQ(d.count(), 7u);  // no temporary left
}

TEST(AtomicFile, FifoIsWrittenInPlaceAndADirectoryIsRefused) {
  Dir d;
  const std::string fifo = d / "fifo";
  test::FifoReader pipe(fifo);
  ASSERT_TRUE(pipe.ok());
  {
    AtomicFile f(fifo);
    EXPECT_TRUE(f.in_place());
    f.write("through the pipe");
    f.commit();
  }
  EXPECT_EQ(pipe.finish(), "through the pipe");
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_THROW(AtomicFile f(d.p.string()), IoError);
  EXPECT_EQ(d.count(), 1u);
}

TEST(FileIdentity, SameFileSeesThroughSpellingsAndLinks) {
  Dir d;
  std::ofstream(d / "a.vec") << "x";
  fs::create_symlink("a.vec", d / "link");
  fs::create_hard_link(d / "a.vec", d / "hard");
  fs::create_directory(d / "sub");
  EXPECT_TRUE(same_file(d / "a.vec", d / "./a.vec"));
  EXPECT_TRUE(same_file(d / "a.vec", d / "sub/../a.vec"));
  EXPECT_TRUE(same_file(d / "a.vec", d / "link"));
  EXPECT_TRUE(same_file(d / "hard", d / "a.vec"));
  EXPECT_FALSE(same_file(d / "a.vec", d / "b.vec"));
  // Neither exists yet: compared as resolved paths, a dangling link leading to the other included.
  EXPECT_TRUE(same_file(d / "new.tsv", d / "sub/../new.tsv"));
  const fs::path cwd = fs::current_path();
  fs::current_path(d.p);  // relative spellings of a path that does not exist yet
  EXPECT_TRUE(same_file("x.npy", "./x.npy"));
  EXPECT_TRUE(same_file("x.npy", d / "x.npy"));
  fs::current_path(cwd);
  fs::create_symlink("new.tsv", d / "to-new");
  EXPECT_TRUE(same_file(d / "to-new", d / "new.tsv"));
  EXPECT_FALSE(same_file(d / "new.tsv", d / "other.tsv"));
  EXPECT_EQ(resolve_symlinks(d / "to-new"), d / "new.tsv");
  EXPECT_EQ(resolve_symlinks(d / "a.vec"), d / "a.vec");
}

TEST(FileIdentity, CheckOutputsApartNamesBothPaths) {
  Dir d;
  std::ofstream(d / "in.vec") << "x";
  EXPECT_NO_THROW(check_outputs_apart({d / "in.vec"}, {d / "out.npy", d / "out.vocab.txt"}));
  try {
    check_outputs_apart({d / "in.vec"}, {d / "out.npy", d / "./in.vec"});
    FAIL() << "an output that is the input was accepted";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("in.vec"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("same file"), std::string::npos) << e.what();
  }
  EXPECT_THROW(check_outputs_apart({d / "in.vec"}, {d / "x.tsv", d / "x.tsv"}), UsageError);
}

}  // namespace test_atomic_file
}  // namespace lumen
