#include "connection.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace lumen::serve {

namespace {

// poll() for EVENTS up to MS milliseconds; true when the socket is ready (or has an error or EOF to report).
bool ready(int fd, short events, int ms) {
  pollfd p{fd, events, 0};
  for (;;) {
    const int r = ::poll(&p, 1, ms);
    if (r < 0 && errno == EINTR) continue;
    return r > 0;
  }
}

void address_of(int fd, bool peer, std::string& ip, int& port) {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  auto* sa = reinterpret_cast<sockaddr*>(&addr);
  if ((peer ? ::getpeername(fd, sa, &len) : ::getsockname(fd, sa, &len)) != 0) return;
  std::array<char, NI_MAXHOST> host{};
  std::array<char, NI_MAXSERV> serv{};
  if (::getnameinfo(sa, len, host.data(), host.size(), serv.data(), serv.size(), NI_NUMERICHOST | NI_NUMERICSERV) ==
      0) {
    ip = host.data();
    std::from_chars(serv.data(), serv.data() + std::strlen(serv.data()), port);
  }
}

}  // namespace

bool Connection::wait(short events, long long ms) const {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
    if (ready(fd_, events, static_cast<int>(std::clamp<long long>(left.count(), 0, 100)))) return true;
    if (stop_.load() || left.count() <= 100) return false;
  }
}

bool Connection::wait_for_request() {
  return pos_ < end_ || wait(POLLIN, limits_.idle.count());  // buffered: a pipelined request is already here
}

void Connection::begin_request() {
  deadline_ = std::chrono::steady_clock::now() + limits_.request;
  budget_ = limits_.head_bytes;
  timed_out_ = false;
}

// Chunk sizes and line ends are framing: a body sent in chunks of 1 kB or more needs a few percent more raw
// bytes than it holds. Twice the bound (plus a little) leaves room for any sensible chunking.
void Connection::head_done() { budget_ = 2 * limits_.body_bytes + 4096; }

long long Connection::remaining_ms(std::chrono::milliseconds after) const {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ + after - std::chrono::steady_clock::now())
          .count();
  return std::max<long long>(left, 0);
}

bool Connection::is_readable() const { return pos_ < end_ || wait(POLLIN, remaining_ms()); }

// A client that reads its answer slowly is cut off too: the answer must be written by limits.write after the
// request's deadline.
bool Connection::is_writable() const { return wait(POLLOUT, remaining_ms(limits_.write)); }

ssize_t Connection::read(char* ptr, std::size_t size) {
  if (pos_ == end_) {
    // Past the deadline or the budget the request is cut off: httplib sees a failed read.
    if (budget_ == 0) return -1;
    if (remaining_ms() == 0 || !wait(POLLIN, remaining_ms())) {
      timed_out_ = true;
      return -1;
    }
    ssize_t n = 0;
    do {
      n = ::recv(fd_, buf_.data(), std::min(buf_.size(), budget_), 0);
    } while (n < 0 && errno == EINTR);
    if (n <= 0) return n < 0 ? -1 : 0;
    budget_ -= static_cast<std::size_t>(n);
    pos_ = 0;
    end_ = static_cast<std::size_t>(n);
  }
  const std::size_t n = std::min(size, end_ - pos_);
  std::memcpy(ptr, buf_.data() + pos_, n);
  pos_ += n;
  return static_cast<ssize_t>(n);
}

ssize_t Connection::write(const char* ptr, std::size_t size) {
  if (!is_writable()) return -1;
  ssize_t n = 0;
  do {
    n = ::send(fd_, ptr, size, MSG_NOSIGNAL);
  } while (n < 0 && errno == EINTR);
  return n;
}

void Connection::close() {
  ::shutdown(fd_, SHUT_WR);
  char sink[4096];
  const bool unread = close_after || ::recv(fd_, sink, 1, MSG_PEEK | MSG_DONTWAIT) > 0;
  const auto until = std::chrono::steady_clock::now() + limits_.linger;
  while (unread) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
    if (left.count() <= 0 || !wait(POLLIN, left.count())) break;
    const ssize_t n = ::recv(fd_, sink, sizeof(sink), MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) break;  // the client closed, or the link is gone
  }
  ::close(fd_);
}

void Connection::get_remote_ip_and_port(std::string& ip, int& port) const { address_of(fd_, true, ip, port); }

void Connection::get_local_ip_and_port(std::string& ip, int& port) const { address_of(fd_, false, ip, port); }

}  // namespace lumen::serve
