#pragma once
// One client's socket as cpp-httplib reads it. httplib alone waits up to its read timeout for every byte and keeps
// reading a request line, a header or a chunked body for as long as bytes come; here each request must arrive
// whole before a deadline and within byte budgets, so a client that is slow or endless is cut off instead of
// holding a thread or growing a buffer.
#include <httplib.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <string>

namespace lumen::serve {

struct ConnectionLimits {
  std::chrono::milliseconds idle{5000};      // waiting for a request to begin (also between keep-alive requests)
  std::chrono::milliseconds request{10000};  // from a request's first byte to the end of its body
  std::chrono::milliseconds write{10000};    // after the request's deadline, for its answer to be written
  std::size_t head_bytes = 32768;            // request line and headers
  std::size_t body_bytes = 1 << 16;          // the bound on a decoded body; raw bytes get room for chunk framing
  std::chrono::milliseconds linger{1000};    // after a refusal, reading what the client still sends before closing
};

class Connection final : public httplib::Stream {
 public:
  // STOP: set when the server stops; a read or wait in progress then ends within 100 ms.
  Connection(int fd, const ConnectionLimits& limits, const std::atomic<bool>& stop)
      : fd_(fd), limits_(limits), stop_(stop) {}

  // Waits up to limits.idle for the next request's first byte; false when none comes or the server stops.
  bool wait_for_request();
  void begin_request();                          // starts the deadline and the head's budget
  void head_done();                              // the head is read: the budget is now the body's
  bool timed_out() const { return timed_out_; }  // a read of this request waited past its deadline

  bool close_after = false;  // set when a request was refused before its body was read

  // Shuts and closes the socket. After a refusal the client may still be sending: close() with unread bytes
  // answers with a reset, which can destroy the refusal before the client reads it. So the write side is shut
  // first (the answer, then end of stream) and what the client still sends is read and dropped until it closes,
  // for at most limits.linger.
  void close();

  bool is_readable() const override;
  bool is_writable() const override;
  ssize_t read(char* ptr, std::size_t size) override;
  ssize_t write(const char* ptr, std::size_t size) override;
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  socket_t socket() const override { return fd_; }

 private:
  // Waits up to MS for EVENTS on the socket, in short slices so that stopping the server is seen.
  bool wait(short events, long long ms) const;
  // Until AFTER past the deadline, >= 0.
  long long remaining_ms(std::chrono::milliseconds after = std::chrono::milliseconds(0)) const;

  int fd_;
  ConnectionLimits limits_;
  const std::atomic<bool>& stop_;
  std::chrono::steady_clock::time_point deadline_{};
  std::size_t budget_ = 0;  // raw bytes this request may still read from the socket
  bool timed_out_ = false;
  std::array<char, 4096> buf_{};
  std::size_t pos_ = 0, end_ = 0;  // unread bytes in buf_
};

}  // namespace lumen::serve
