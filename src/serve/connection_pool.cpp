#include "connection_pool.hpp"

#include <unistd.h>

namespace lumen::serve {

ConnectionPool::ConnectionPool(std::size_t threads, std::function<void(int fd)> serve)
    : serve_(std::move(serve)), size_(threads == 0 ? 1 : threads) {
  threads_.reserve(size_);
  for (std::size_t i = 0; i < size_; ++i) threads_.emplace_back([this] { work(); });
}

ConnectionPool::~ConnectionPool() { shutdown(); }

bool ConnectionPool::try_submit(int fd) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stop_ || busy_ + waiting_.size() >= size_) return false;
    waiting_.push_back(fd);
  }
  cv_.notify_one();
  return true;
}

void ConnectionPool::shutdown() {
  std::deque<int> left;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
    stopping_ = true;
    left.swap(waiting_);
  }
  cv_.notify_all();
  for (int fd : left) ::close(fd);
  for (auto& t : threads_)
    if (t.joinable() && t.get_id() != std::this_thread::get_id()) t.join();
}

void ConnectionPool::work() {
  for (;;) {
    int fd = -1;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return stop_ || !waiting_.empty(); });
      if (waiting_.empty()) return;  // stopping
      fd = waiting_.front();
      waiting_.pop_front();
      ++busy_;
    }
    serve_(fd);
    std::lock_guard<std::mutex> lock(mu_);
    --busy_;
  }
}

}  // namespace lumen::serve
