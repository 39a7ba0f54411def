// The explorer's Compare view and the honesty numbers of its map: /api/compare answers with `lumen compare
// --json`'s schema (one function makes both), names only the tables the server loaded, and bounds its requests;
// /api/projection gives UMAP's and t-SNE's honesty numbers (neighbours kept, agreement across seeds) as numbers.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/core/table.hpp"
#include "lumen/eval/compare.hpp"
#include "lumen/eval/compare_json.hpp"
#include "lumen/serve/api.hpp"

using namespace lumen;
using nlohmann::json;

namespace test_api_compare {

// n words w0, w1, ... in d dimensions, clustered by i % 4; `noise` moves each row.
Table clustered(std::size_t n, std::size_t d, std::uint64_t seed, double noise, const std::string& prefix = "w") {
  Table t;
  t.source = prefix + "-" + std::to_string(seed);
  t.format = "memory";
  t.E = Matrix(n, d);
  Rng rng(seed);
  Rng base(7);  // the same clusters in every table
  for (std::size_t i = 0; i < n; ++i) {
    t.vocab.add(prefix + std::to_string(i));
    for (std::size_t j = 0; j < d; ++j)
      t.E.set(i, j, static_cast<float>((i % 4 == j % 4 ? 3.0 : 0.0) + base.normal() + noise * rng.normal()));
  }
  return t;
}

json wait(serve::Api& api, json j) {
  for (int i = 0; i < 1200 && !j["done"].get<bool>(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
    j = api.handle("job", {{"id", j["job"]}});
  }
  return j;
}

int status_of(serve::Api& api, const std::string& route, const json& p) {
  try {
    wait(api, api.handle(route, p));
  } catch (const serve::ApiError& e) {
    return e.status();
  }
  return 200;
}

serve::Api two_tables() {
  std::vector<serve::NamedTable> others;
  others.push_back({"table2", clustered(80, 6, 2, 0.8)});
  others.push_back({"wide", clustered(60, 9, 3, 0.5)});
  return serve::Api(clustered(80, 6, 1, 0.8), nullptr, std::move(others));
}

TEST(ApiCompare, InfoListsEveryTableServed) {
  serve::Api api = two_tables();
  const json info = api.handle("info", json::object());
  EXPECT_EQ(info["tables"], json({"main", "table2", "wide", "toy"}));
  ASSERT_EQ(info["table_info"].size(), 4u);
  EXPECT_EQ(info["table_info"][1]["source"], "w-2");
  EXPECT_EQ(info["table_info"][2]["d"], 9);
  // Every route may name a further table.
  const json n = api.handle("neighbours", {{"word", "w5"}, {"k", 3}, {"table", "wide"}});
  EXPECT_EQ(n["neighbours"].size(), 3u);
}

TEST(ApiCompare, AnswersWithTheSchemaOfLumenCompareJson) {
  serve::Api api = two_tables();
  EXPECT_TRUE(serve::Api::starts_work("compare"));
  const json j = wait(api, api.handle("compare", {{"a", "main"}, {"b", "table2"}, {"k", 5}, {"moved", 3}}));
  ASSERT_TRUE(j["done"].get<bool>());
  json got = j["result"];
  // The same numbers as the library's comparison through the CLI's JSON function.
  eval::CompareOptions o;
  o.k = 5;
  o.moved = 3;
  o.top = 10000;
  const eval::Comparison c = eval::compare_tables(clustered(80, 6, 1, 0.8), clustered(80, 6, 2, 0.8), o);
  json want = eval::comparison_json(c, "w-1", "w-2");
  got.erase("seconds");
  want.erase("seconds");
  EXPECT_EQ(got, want);
  EXPECT_EQ(got["moved"].size(), 3u);
  EXPECT_EQ(got["moved"][0]["a"].size(), 5u);
  EXPECT_LT(got["overlap"]["mean"].get<double>(), 1.0);
  // The same request is the same job.
  EXPECT_EQ(api.handle("compare", {{"a", "main"}, {"b", "table2"}, {"k", 5}, {"moved", 3}})["job"], j["job"]);
}

TEST(ApiCompare, DifferentDSkipsProcrustesButOverlapWorks) {
  serve::Api api = two_tables();
  const json j = wait(api, api.handle("compare", {{"b", "wide"}, {"k", 4}}));
  ASSERT_TRUE(j["done"].get<bool>());
  EXPECT_TRUE(j["result"]["procrustes"].is_null());
  EXPECT_NE(j["result"]["procrustes_skipped"].get<std::string>().find("equal d"), std::string::npos);
  EXPECT_EQ(j["result"]["n"], 60);
  EXPECT_GE(j["result"]["overlap"]["mean"].get<double>(), 0.0);
}

TEST(ApiCompare, RefusesWhatItShouldNot) {
  serve::Api api = two_tables();
  EXPECT_EQ(status_of(api, "compare", {{"b", "/etc/passwd"}}), 422);  // names a loaded table, never a file
  EXPECT_EQ(status_of(api, "compare", json::object()), 400);          // b is required
  EXPECT_EQ(status_of(api, "compare", {{"b", "table2"}, {"k", 0}}), 422);
  EXPECT_EQ(status_of(api, "compare", {{"b", "table2"}, {"k", 101}}), 422);
  EXPECT_EQ(status_of(api, "compare", {{"b", "table2"}, {"top", 60001}}), 422);
  EXPECT_EQ(status_of(api, "compare", {{"b", "table2"}, {"moved", 1000}}), 422);
  EXPECT_EQ(status_of(api, "compare", {{"b", "table2"}, {"k", "ten"}}), 400);
  // Work the library refuses comes back as a 422 with its reason when the job is polled.
  EXPECT_EQ(status_of(api, "compare", {{"b", "toy"}}), 422);  // no shared words
  try {
    wait(api, api.handle("compare", {{"b", "toy"}}));
  } catch (const serve::ApiError& e) {
    EXPECT_NE(e.message().find("share no words"), std::string::npos) << e.message();
  }
  EXPECT_EQ(status_of(api, "compare", {{"b", "table2"}, {"k", 90}}), 422);  // k + 1 > 80 shared words
  // Table names: no clash with main/toy, no odd characters.
  const auto with = [](const std::string& name) {
    std::vector<serve::NamedTable> others;
    others.push_back({name, clustered(10, 3, 2, 0)});
    return serve::Api(clustered(10, 3, 1, 0), nullptr, std::move(others));
  };
  EXPECT_THROW(with("toy"), UsageError);
  EXPECT_THROW(with("a/b"), UsageError);
  EXPECT_THROW(with(""), UsageError);
  EXPECT_NO_THROW(with("seed-2_b"));
}

TEST(ApiProjection, UmapAndTsneGiveTheirHonestyNumbers) {
  serve::Api api(clustered(120, 8, 1, 0.5));
  for (const char* method : {"umap", "tsne"}) {
    const json j = wait(api, api.handle("projection", {{"method", method}, {"top", 120}, {"seeds", 2}}));
    ASSERT_TRUE(j["done"].get<bool>()) << method;
    const json& r = j["result"];
    EXPECT_EQ(r["points"].size(), 120u) << method;
    EXPECT_EQ(r["knn_preservation"].size(), 2u) << method;  // one per seed
    EXPECT_GT(r["knn_preservation"][0].get<double>(), 0.2) << method;
    EXPECT_GT(r["agreement"].get<double>(), 0.0) << method;
    EXPECT_EQ(r["k"], 10) << method;
    EXPECT_NE(r["caption"].dump().find("agree"), std::string::npos) << method;
  }
  const json u = wait(api, api.handle("projection", {{"method", "umap"}, {"top", 120}}));
  EXPECT_EQ(u["result"]["neighbors"], 15);
  EXPECT_TRUE(u["result"]["agreement"].is_null());  // one seed: nothing to agree with
  EXPECT_EQ(status_of(api, "projection", {{"method", "umap"}, {"seeds", 6}}), 422);
}

}  // namespace test_api_compare
