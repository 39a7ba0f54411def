// serve::JobCache: background jobs kept by key, polled by id, bounded, their errors reported as 422.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "lumen/core/error.hpp"
#include "lumen/serve/api.hpp"
#include "lumen/serve/job_cache.hpp"

using lumen::serve::ApiError;
using lumen::serve::JobCache;
using nlohmann::json;

namespace test_job_cache {

int status_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ApiError& e) {
    return e.status();
  }
  return 200;
}

json wait_done(JobCache& cache, const std::string& id) {
  json j = cache.poll(id);
  for (int i = 0; i < 2000 && !j["done"].get<bool>(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    j = cache.poll(id);
  }
  return j;
}

// A job that runs until `release` is set, reporting half its progress meanwhile.
JobCache::Work held(const std::atomic<bool>& release, int answer) {
  return [&release, answer](std::atomic<double>& progress) {
    progress = 0.5;
    while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return json{{"answer", answer}};
  };
}

TEST(JobCache, TheSameKeyFindsTheSameJobAndItsResult) {
  // declared before the cache: its destructor joins jobs that still read the flags
  std::atomic<bool> release{false};
  std::atomic<int> runs{0};
  JobCache cache;
  auto work = [&](std::atomic<double>& progress) {
    ++runs;
    progress = 0.5;
    while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return json{{"answer", 42}};
  };
  const json first = cache.start("k", work);
  EXPECT_EQ(first["job"], JobCache::job_id("k"));
  EXPECT_FALSE(first["done"].get<bool>());
  const json again = cache.start("k", work);  // found, not started again
  EXPECT_EQ(again["job"], first["job"]);
  release = true;
  const json done = wait_done(cache, first["job"]);
  ASSERT_TRUE(done["done"].get<bool>());
  EXPECT_EQ(done["progress"], 1.0);
  EXPECT_EQ(done["result"]["answer"], 42);
  EXPECT_EQ(cache.start("k", work)["result"]["answer"], 42);
  EXPECT_EQ(runs.load(), 1);
  EXPECT_EQ(cache.size(), 1u);
}

TEST(JobCache, RunningJobsReportProgress) {
  // declared before the cache: its destructor joins jobs that still read the flags
  std::atomic<bool> release{false};
  JobCache cache;
  const std::string id = cache.start("slow", held(release, 1))["job"];
  json j = cache.poll(id);
  for (int i = 0; i < 2000 && j["progress"].get<double>() < 0.5; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    j = cache.poll(id);
  }
  EXPECT_FALSE(j["done"].get<bool>());
  EXPECT_EQ(j["progress"], 0.5);
  release = true;
}

TEST(JobCache, UnknownIdsAre404AndFailedJobs422WithTheirMessage) {
  JobCache cache;
  EXPECT_EQ(status_of([&] { cache.poll("nope"); }), 404);
  try {  // one cache holds every kind of job: the message names no kind (it said "projection" for drift jobs)
    cache.poll("nope");
  } catch (const ApiError& e) {
    EXPECT_STREQ(e.what(), "no job 'nope': it was never started here, or 16 newer jobs have taken its place");
  }
  // A job that fails at once may have failed by the time start answers: then start says so (422) itself.
  const int started = status_of(
      [&] { cache.start("bad", [](std::atomic<double>&) -> json { throw lumen::InputError("no such row"); }); });
  EXPECT_TRUE(started == 200 || started == 422) << started;
  status_of(
      [&] { cache.start("worse", [](std::atomic<double>&) -> json { throw std::runtime_error("out of luck"); }); });
  const std::string lumen_id = JobCache::job_id("bad"), std_id = JobCache::job_id("worse");
  for (const auto& [id, text] : {std::pair{lumen_id, "no such row"}, std::pair{std_id, "out of luck"}}) {
    try {
      wait_done(cache, id);
      ADD_FAILURE() << "no error for " << text;
    } catch (const ApiError& e) {
      EXPECT_EQ(e.status(), 422);
      EXPECT_EQ(e.message(), text);
    }
  }
}

TEST(JobCache, TheOldestFinishedJobMakesRoomAndAFullCacheOfRunningJobsRefuses) {
  // declared before the cache: its destructor joins jobs that still read the flags
  std::atomic<bool> release{false}, never_mind{false};
  JobCache cache(2);
  const std::string a = cache.start("a", held(release, 1))["job"];
  const std::string b = cache.start("b", held(never_mind, 2))["job"];
  EXPECT_EQ(status_of([&] { cache.start("c", held(release, 3)); }), 429);  // both still running
  release = true;
  wait_done(cache, a);
  const std::string c = cache.start("c", held(release, 3))["job"];  // "a" (done) makes room
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(status_of([&] { cache.poll(a); }), 404);
  EXPECT_EQ(wait_done(cache, c)["result"]["answer"], 3);
  never_mind = true;
  EXPECT_EQ(wait_done(cache, b)["result"]["answer"], 2);
}

TEST(JobCache, DestroyingTheCacheWaitsForRunningJobs) {
  std::atomic<bool> finished{false};
  {
    JobCache cache;
    cache.start("slow", [&finished](std::atomic<double>&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      finished = true;
      return json{};
    });
  }
  EXPECT_TRUE(finished.load());
}

}  // namespace test_job_cache
