#include "lumen/serve/job_cache.hpp"

#include <fmt/format.h>
#include <thread>

#include "lumen/core/error.hpp"
#include "lumen/serve/api.hpp"

namespace lumen::serve {

// One job: its worker thread and what it leaves. The implicit destructor only frees memory (the cache joins the
// worker first; tidy cannot see that nlohmann::json's destructor does not throw).
struct JobCache::Job {  // NOLINT(bugprone-exception-escape)
  std::atomic<double> progress{0.0};
  std::atomic<bool> done{false};
  std::mutex mu;
  nlohmann::json result;  // guarded by mu
  std::string error;      // guarded by mu
  std::thread worker;
};

JobCache::JobCache(std::size_t capacity) : capacity_(capacity) {}

JobCache::~JobCache() {
  for (auto& [key, job] : jobs_)
    if (job->worker.joinable()) job->worker.join();
}

std::string JobCache::job_id(const std::string& key) { return std::to_string(std::hash<std::string>{}(key)); }

std::size_t JobCache::size() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return jobs_.size();
}

nlohmann::json JobCache::state(Job& job, const std::string& id) {
  if (!job.done) return {{"job", id}, {"done", false}, {"progress", job.progress.load()}};
  const std::lock_guard<std::mutex> g(job.mu);
  if (!job.error.empty()) throw ApiError(422, job.error);
  return {{"job", id}, {"done", true}, {"progress", 1.0}, {"result", job.result}};
}

nlohmann::json JobCache::start(const std::string& key, Work work) {
  const std::lock_guard<std::mutex> lock(mu_);
  auto it = jobs_.find(key);
  if (it == jobs_.end()) {
    if (order_.size() >= capacity_) {  // bound the cache: drop the oldest finished job
      for (auto o = order_.begin(); o != order_.end(); ++o) {
        auto& old = jobs_[*o];
        if (old->done) {
          if (old->worker.joinable()) old->worker.join();
          jobs_.erase(*o);
          order_.erase(o);
          break;
        }
      }
      if (order_.size() >= capacity_) throw ApiError(429, "too many jobs are running; try again soon");
    }
    auto job = std::make_shared<Job>();
    job->worker = std::thread([work = std::move(work), job] {
      nlohmann::json result;
      std::string error;
      try {
        result = work(job->progress);
      } catch (const lumen::Error& e) {
        error = e.message();
      } catch (const std::exception& e) {
        error = e.what();
      }
      const std::lock_guard<std::mutex> g(job->mu);
      job->result = std::move(result);
      job->error = std::move(error);
      job->progress = 1.0;
      job->done = true;
    });
    it = jobs_.emplace(key, job).first;
    order_.push_back(key);
  }
  return state(*it->second, job_id(key));
}

nlohmann::json JobCache::poll(const std::string& id) {
  const std::lock_guard<std::mutex> lock(mu_);
  for (auto& [key, job] : jobs_)
    if (job_id(key) == id) return state(*job, id);
  // One cache serves every kind of job (projection, comparison, drift): the message names none of them.
  throw ApiError(
      404, fmt::format("no job '{}': it was never started here, or {} newer jobs have taken its place", id, capacity_));
}

}  // namespace lumen::serve
