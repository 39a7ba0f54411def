// A FIFO, a directory or a device given as a table (or as its vocabulary file) is refused at once with an
// IoError naming it; opening a FIFO used to wait for a writer forever.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <fcntl.h>
#include <future>
#include <sys/stat.h>
#include <unistd.h>

#include "io_test_util.hpp"
#include "lumen/core/error.hpp"
#include "lumen/io/open.hpp"

namespace lumen::io {
namespace test_special_files {

using namespace lumen::io::test;
using ::testing::HasSubstr;

// Runs open_table(path, o) with a deadline; a hang fails the test (and the FIFO is then opened for writing, so
// the blocked reader wakes and the test ends). Returns the error message ("" if it opened).
std::string open_error_within_deadline(const std::string& path, const std::string& fifo, OpenOptions o = {}) {
  auto result = std::async(std::launch::async, [&]() -> std::string {
    try {
      open_table(path, o);
      return "";
    } catch (const IoError& e) {
      return e.what();
    } catch (const std::exception& e) {
      return std::string("not an IoError: ") + e.what();
    }
  });
  if (result.wait_for(std::chrono::seconds(5)) == std::future_status::timeout) {
    ADD_FAILURE() << "opening " << path << " hangs";
    const int fd = ::open(fifo.c_str(), O_WRONLY);  // wakes the reader blocked in open()
    if (fd >= 0) ::close(fd);
  }
  return result.get();
}

TEST(SpecialFiles, FifoIsRefusedAtOnce) {
  ScratchDir dir;
  const std::string fifo = dir.file("table.vec");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string err = open_error_within_deadline(fifo, fifo);
  EXPECT_THAT(err, HasSubstr(fifo));
  EXPECT_THAT(err, HasSubstr("a FIFO, not a regular file"));
}

TEST(SpecialFiles, FifoAsVocabularyFileIsRefusedAtOnce) {
  ScratchDir dir;
  const std::string npy =
      dir.write("e.npy", std::string("\x93NUMPY\x01\x00\x3c\x00", 10) +
                             "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1), }\n" + f32_bytes({1}));
  const std::string fifo = dir.file("words.txt");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  OpenOptions o;
  o.vocab_path = fifo;
  const std::string err = open_error_within_deadline(npy, fifo, o);
  EXPECT_THAT(err, HasSubstr(fifo));
  EXPECT_THAT(err, HasSubstr("a FIFO, not a regular file"));
}

TEST(SpecialFiles, DirectoryAndDeviceAreRefused) {
  ScratchDir dir;
  try {
    open_table(dir.path());
    FAIL() << "a directory opened as a table";
  } catch (const IoError& e) {
    EXPECT_THAT(e.what(), HasSubstr("is a directory, not a table file; name a table file"));
  }
  try {
    open_table("/dev/null");
    FAIL() << "/dev/null opened as a table";
  } catch (const IoError& e) {
    EXPECT_THAT(e.what(), HasSubstr("a character device, not a regular file"));
  }
}

}  // namespace test_special_files
}  // namespace lumen::io
