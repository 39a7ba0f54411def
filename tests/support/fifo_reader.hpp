#pragma once
// A FIFO made for a test and read on a thread until its writers are done, for checking that what lumen writes to
// a FIFO goes through it (and the FIFO stays one). Standard C++ and POSIX only.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <string>
#include <thread>

namespace lumen::test {

class FifoReader {
 public:
  // Makes the FIFO at `path` and starts reading it. A read-write end is held open here so that neither this
  // side's nor the writer's open() blocks, and the read end is open before any writer can come and go (so no
  // data is dropped); the reader sees the end once the writers and finish() have closed theirs.
  explicit FifoReader(const std::string& path) {
    if (::mkfifo(path.c_str(), 0600) != 0) return;
    hold_ = ::open(path.c_str(), O_RDWR);
    rfd_ = ::open(path.c_str(), O_RDONLY);
    if (ok())
      reader_ = std::thread([this] {
        char buf[65536];
        for (ssize_t n; (n = ::read(rfd_, buf, sizeof buf)) > 0;) got_.append(buf, static_cast<std::size_t>(n));
      });
  }
  ~FifoReader() { finish(); }
  FifoReader(const FifoReader&) = delete;
  FifoReader& operator=(const FifoReader&) = delete;

  // Whether the FIFO was made and both ends opened.
  bool ok() const { return hold_ >= 0 && rfd_ >= 0; }

  // Closes the held end, waits for the reader, and returns all it read (call once the writer has finished).
  std::string finish() {
    close_fd(hold_);
    if (reader_.joinable()) reader_.join();
    close_fd(rfd_);
    return got_;
  }

 private:
  static void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  int hold_ = -1, rfd_ = -1;
  std::string got_;
  std::thread reader_;
};

}  // namespace lumen::test
