// lumen::read_file and require_regular_file: every input file lumen reads whole (config.json, tokenizer.json,
// benchmark files, corpora) goes through them, so a FIFO is refused before any read could block on it, and a
// directory, a missing file or a symlink loop is named for what it is.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <future>
#include <sys/stat.h>
#include <unistd.h>

#include "lumen/core/error.hpp"
#include "lumen/core/read_file.hpp"
#include "support/temp_dir.hpp"

namespace test_read_file {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

// The IoError's message, within a deadline: a hang fails the test (and a writer then unblocks the reader).
std::string error_of(const std::string& path, bool whole = true) {
  auto result = std::async(std::launch::async, [&]() -> std::string {
    try {
      if (whole) lumen::read_file(path);
      else lumen::require_regular_file(path);
      return "";
    } catch (const lumen::IoError& e) {
      return e.what();
    }
  });
  if (result.wait_for(std::chrono::seconds(5)) == std::future_status::timeout) {
    ADD_FAILURE() << path << " was waited on";
    const int fd = ::open(path.c_str(), O_WRONLY);
    if (fd >= 0) ::close(fd);
  }
  return result.get();
}

TEST(ReadFile, ReadsTheWholeFileAndAnEmptyOne) {
  lumen::test::TempDir d;
  std::string big(200000, 'x');
  big[123457] = '\0';
  std::ofstream(d / "big", std::ios::binary) << big;
  std::ofstream(d / "empty", std::ios::binary);
  EXPECT_EQ(lumen::read_file(d / "big"), big);
  EXPECT_EQ(lumen::read_file(d / "empty"), "");
  EXPECT_NO_THROW(lumen::require_regular_file(d / "big"));
  fs::create_symlink(d / "big", d / "link");
  EXPECT_EQ(lumen::read_file(d / "link"), big);  // symlinks are followed
}

TEST(ReadFile, AFifoIsRefusedAtOnce) {
  lumen::test::TempDir d;
  ASSERT_EQ(::mkfifo((d / "fifo").c_str(), 0600), 0);
  for (bool whole : {true, false}) {
    const std::string err = error_of(d / "fifo", whole);
    EXPECT_THAT(err, HasSubstr(d / "fifo"));
    EXPECT_THAT(err, HasSubstr("is a FIFO, not a regular file"));
  }
}

TEST(ReadFile, DirectoriesMissingFilesAndSymlinkLoopsAreNamed) {
  lumen::test::TempDir d;
  EXPECT_THAT(error_of(d.p.string()), HasSubstr("is a directory, not a regular file"));
  EXPECT_THAT(error_of(d / "none"), HasSubstr("no such file or directory"));
  fs::create_symlink(d / "b", d / "a");
  fs::create_symlink(d / "a", d / "b");
  EXPECT_THAT(error_of(d / "a", false), HasSubstr("a symlink loop"));
  EXPECT_THAT(error_of("/dev/null"), HasSubstr("is a character device, not a regular file"));
}

}  // namespace test_read_file
