// A map job's progress never runs backwards: t-SNE and UMAP with three seeds report each stage of each seed from 0,
// and the job's one number still only grows, seed k of K covering [(k-1)/K, k/K) (the explorer shows "seed k of K").
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "lumen/core/rng.hpp"
#include "lumen/core/table.hpp"
#include "lumen/serve/api.hpp"

using namespace lumen;
using nlohmann::json;

namespace test_map_progress {

Table clustered_table(std::size_t n) {
  Table t;
  t.E = Matrix(n, 6);
  Rng rng(5);
  for (std::size_t i = 0; i < n; ++i) {
    t.vocab.add("w" + std::to_string(i));
    for (std::size_t j = 0; j < 6; ++j) t.E.set(i, j, static_cast<float>(rng.normal() + (i % 6 == j ? 4.0 : 0.0)));
  }
  return t;
}

// Every progress value the job reports from its start until it is done, polled as often as the page could.
std::vector<double> progress_until_done(serve::Api& api, const json& request) {
  std::vector<double> seen;
  json j = api.handle("projection", request);
  seen.push_back(j["progress"].get<double>());
  for (int i = 0; i < 20000 && !j["done"].get<bool>(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    j = api.handle("job", {{"id", j["job"]}});
    seen.push_back(j["progress"].get<double>());
  }
  EXPECT_TRUE(j["done"].get<bool>());
  return seen;
}

void expect_monotone(const std::vector<double>& seen, const std::string& what) {
  ASSERT_GE(seen.size(), 2u) << what;
  for (std::size_t i = 1; i < seen.size(); ++i)
    ASSERT_GE(seen[i], seen[i - 1]) << what << ": progress ran backwards at poll " << i;
  EXPECT_EQ(seen.back(), 1.0) << what;
}

TEST(MapProgress, TsneWithThreeSeedsNeverRunsBackwards) {
  serve::Api api(clustered_table(400));
  const auto seen = progress_until_done(api, {{"method", "tsne"}, {"top", 400}, {"seeds", 3}});
  expect_monotone(seen, "t-SNE, 3 seeds");
  // Seen while the first seed ran: below a third (the third seed alone used to report 0.9 and then 0.1).
  bool first_seed_seen = false;
  for (double p : seen) first_seed_seen = first_seed_seen || (p > 0 && p < 1.0 / 3);
  EXPECT_TRUE(first_seed_seen);
}

TEST(MapProgress, UmapWithThreeSeedsNeverRunsBackwards) {
  serve::Api api(clustered_table(300));
  expect_monotone(progress_until_done(api, {{"method", "umap"}, {"top", 300}, {"seeds", 3}}), "UMAP, 3 seeds");
}

}  // namespace test_map_progress
