#pragma once
// The threads that serve the explorer's connections, one connection per thread while it lasts. httplib queues
// every accepted connection behind the busy ones, so a few slow clients made every other client wait; here a
// connection beyond the pool's size is answered 503 at once, and each connection's time is bounded (Connection).
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace lumen::serve {

class ConnectionPool {
 public:
  // SERVE runs on a pool thread and owns the socket it is given (closes it).
  ConnectionPool(std::size_t threads, std::function<void(int fd)> serve);
  ~ConnectionPool();
  ConnectionPool(const ConnectionPool&) = delete;
  ConnectionPool& operator=(const ConnectionPool&) = delete;

  // Hands FD to a free thread; false (FD untouched) when every thread has a connection.
  bool try_submit(int fd);
  // Closes connections not yet started and joins the threads; the running ones end at their next request.
  void shutdown();
  // Set by shutdown(): connections watch it to end a wait or a read early.
  const std::atomic<bool>& stopping() const { return stopping_; }

 private:
  void work();

  std::function<void(int)> serve_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<int> waiting_;  // guarded by mu_
  std::size_t busy_ = 0;     // guarded by mu_
  std::size_t size_;
  bool stop_ = false;  // guarded by mu_
  std::atomic<bool> stopping_{false};
  std::vector<std::thread> threads_;
};

}  // namespace lumen::serve
