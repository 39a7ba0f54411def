#pragma once
// The explorer's background jobs (a projection, a comparison): work that outlives its request, run on a thread of its
// own and kept under a key made of its parameters, so that the same request finds the same job (reloading the page
// does not start the work again) and the page can poll it by id. A bounded number is kept: when the cache is full
// the oldest finished job makes room, and with every kept job still running a new one is refused.
#include <atomic>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lumen::serve {

class JobCache {
 public:
  // The work: computes the result, setting `progress` (0 to 1) as it goes; a lumen::Error or std::exception it
  // throws becomes the job's error.
  using Work = std::function<nlohmann::json(std::atomic<double>& progress)>;

  explicit JobCache(std::size_t capacity = 16);
  ~JobCache();  // waits for every running job
  JobCache(const JobCache&) = delete;
  JobCache& operator=(const JobCache&) = delete;

  // Starts the job KEY on a thread of its own, or finds it, and answers with its state (as poll does).
  // ApiError 429 when every kept job is still running.
  nlohmann::json start(const std::string& key, Work work);

  // The state of job ID: {"job": id, "done": false, "progress": p} while it runs; {"job", "done": true,
  // "progress": 1, "result"} once done. ApiError 404 for an unknown id, 422 with the job's error if it failed.
  nlohmann::json poll(const std::string& id);

  // The id a job's key is polled by.
  static std::string job_id(const std::string& key);

  std::size_t size() const;

 private:
  struct Job;
  static nlohmann::json state(Job& job, const std::string& id);

  std::size_t capacity_;
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<Job>> jobs_;  // by key
  std::vector<std::string> order_;                    // keys, oldest first
};

}  // namespace lumen::serve
