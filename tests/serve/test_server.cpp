// The explorer's HTTP layer: routing, bounds, errors as 4xx JSON, the embedded front-end, and a bounded load test.
#include <gtest/gtest.h>
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <set>
#include <thread>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/core/table.hpp"
#include "lumen/project/toy.hpp"
#include "lumen/serve/server.hpp"

using namespace lumen;
using nlohmann::json;

namespace {

Table small_table() {
  Table t;
  t.source = "test";
  t.format = "memory";
  const char* words[] = {"the", "cat", "sat", "on", "mat", "dog", "king", "queen", "man", "woman"};
  t.E = Matrix(10, 4);
  for (std::size_t i = 0; i < 10; ++i) {
    t.vocab.add(words[i]);
    for (std::size_t j = 0; j < 4; ++j) t.E.set(i, j, static_cast<float>((i + 1) * (j + 2) % 7) - 3.0f);
  }
  return t;
}

class ServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    api = std::make_unique<serve::Api>(small_table());
    serve::ServerOptions o;
    o.port = 0;
    server = std::make_unique<serve::Server>(*api, o);
    port = server->start();
  }
  void TearDown() override { server->stop(); }
  httplib::Client client() const { return httplib::Client("127.0.0.1", port); }

  std::unique_ptr<serve::Api> api;
  std::unique_ptr<serve::Server> server;
  int port = 0;
};

}  // namespace

TEST_F(ServerTest, BindsLoopbackAndServesTheFrontEnd) {
  auto c = client();
  auto r = c.Get("/");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_NE(r->body.find("<title>lumen"), std::string::npos);
  EXPECT_NE(r->get_header_value("Content-Type").find("text/html"), std::string::npos);
  r = c.Get("/app.js");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  r = c.Get("/../../etc/passwd");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
}

TEST_F(ServerTest, InfoAndRow) {
  auto c = client();
  auto r = c.Get("/api/info");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200);
  auto j = json::parse(r->body);
  EXPECT_EQ(j["V"], 10);
  EXPECT_EQ(j["d"], 4);
  r = c.Post("/api/row", R"({"token":"cat","window":2})", "application/json");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200);
  j = json::parse(r->body);
  EXPECT_EQ(j["id"], 1);
  EXPECT_EQ(j["onehot"]["length"], 10);
  EXPECT_EQ(j["onehot"]["index"], 1);
  ASSERT_EQ(j["vector"].size(), 4u);
  EXPECT_FLOAT_EQ(j["vector"][2].get<float>(), api->table().E.at(1, 2));
  EXPECT_EQ(j["window"]["start"], 0);
  EXPECT_EQ(j["window"]["rows"].size(), 4u);  // ids 0..3
}

TEST_F(ServerTest, BadRequestsAre4xxWithAJsonError) {
  auto c = client();
  struct Case {
    const char* path;
    std::string body;
    int status;
  };
  const std::vector<Case> cases = {
      {"/api/row", "{not json", 400},
      {"/api/row", "[1,2]", 400},
      {"/api/row", R"({"id": 10})", 422},
      {"/api/row", R"({"id": -1})", 422},
      {"/api/row", R"({"id": "abc"})", 400},
      {"/api/row", R"({"token": "kat"})", 422},
      {"/api/row", R"({"id": 1, "window": 100000})", 422},
      {"/api/nothing", "{}", 404},
      {"/api/row", "{\"token\": \"\xff\xfe\"}", 400},  // invalid UTF-8 inside the JSON
  };
  for (const auto& k : cases) {
    SCOPED_TRACE(std::string(k.path) + " " + k.body);
    auto r = c.Post(k.path, k.body, "application/json");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, k.status);
    auto j = json::parse(r->body);
    EXPECT_TRUE(j.contains("error"));
  }
  // Unknown words come with suggestions.
  auto r = c.Post("/api/row", R"({"token": "kat"})", "application/json");
  EXPECT_NE(json::parse(r->body)["error"].get<std::string>().find("did you mean"), std::string::npos);
  // Bodies are bounded.
  r = c.Post("/api/row", std::string(200000, ' '), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
}

TEST_F(ServerTest, LoadTestSixteenClientsTenThousandRequests) {
  constexpr int kClients = 16, kPerClient = 625;  // 10,000 requests in all
  std::atomic<int> errors{0};
  std::vector<std::vector<double>> lat(kClients);
  std::vector<std::thread> pool;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  for (int t = 0; t < kClients; ++t)
    pool.emplace_back([&, t] {
      httplib::Client c("127.0.0.1", port);
      c.set_keep_alive(true);
      c.set_connection_timeout(5);
      c.set_read_timeout(10);
      for (int i = 0; i < kPerClient && std::chrono::steady_clock::now() < deadline; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        auto r = (i % 2) ? c.Get("/api/info") : c.Get(("/api/row?id=" + std::to_string(i % 10)).c_str());
        lat[t].push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        if (!r || r->status != 200) ++errors;
      }
    });
  for (auto& th : pool) th.join();
  std::vector<double> all;
  for (auto& v : lat) all.insert(all.end(), v.begin(), v.end());
  ASSERT_EQ(all.size(), 10000u) << "the load test ran out of time";
  std::sort(all.begin(), all.end());
  std::printf("load test: %zu requests, %d errors, p50 %.3f ms, p99 %.3f ms\n", all.size(), errors.load(),
              all[all.size() / 2], all[all.size() * 99 / 100]);
  EXPECT_EQ(errors.load(), 0);
}

TEST(ApiTest, ChapterRoutesOnTheToyTable) {
  serve::Api api(toy_table());
  // king - man + woman: the analogy man : king :: woman : ?, inputs excluded, and where they rank without it.
  auto a = api.handle("analogy", {{"a", "man"}, {"b", "king"}, {"c", "woman"}});
  EXPECT_EQ(a["answers"][0]["token"], "queen");
  EXPECT_EQ(a["excluded"], true);
  for (const char* w : {"man", "king", "woman"}) EXPECT_TRUE(a["input_ranks"][w].is_number()) << w;
  auto raw = api.handle("analogy", {{"a", "man"}, {"b", "king"}, {"c", "woman"}, {"exclude", false}, {"k", 30}});
  std::set<std::string> tokens;
  for (auto& n : raw["answers"]) tokens.insert(n["token"].get<std::string>());
  EXPECT_TRUE(tokens.count("king"));  // without exclusion the inputs come back
  auto sim = api.handle("similarity", {{"w1", "cat"}, {"w2", "dog"}});
  EXPECT_NEAR(sim["cosine"].get<double>(),
              sim["dot"].get<double>() / (sim["norm1"].get<double>() * sim["norm2"].get<double>()), 1e-5);
  auto far = api.handle("similarity", {{"w1", "cat"}, {"w2", "parliament"}});
  EXPECT_GT(sim["cosine"].get<double>(), far["cosine"].get<double>());
  auto p = api.handle("params", {{"preset", "gpt2"}});
  EXPECT_EQ(p["total"], 124439808u);
  p = api.handle("params", {{"preset", "llama-3.2-1b"}});
  EXPECT_EQ(p["total"], 1235814400u);
  EXPECT_THROW(api.handle("params", {{"preset", "gpt5"}}), UsageError);
  // A projection is a job: poll until done.
  auto j = api.handle("projection", {{"method", "pca"}, {"top", 30}});
  for (int i = 0; i < 600 && !j["done"].get<bool>(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    j = api.handle("job", {{"id", j["job"]}});
  }
  ASSERT_TRUE(j["done"].get<bool>());
  EXPECT_EQ(j["result"]["points"].size(), 30u);
  EXPECT_FALSE(j["result"]["caption"].get<std::string>().empty());
  EXPECT_THROW(api.handle("projection", {{"method", "isomap"}}), UsageError);
  EXPECT_THROW(api.handle("job", {{"id", "nope"}}), serve::ApiError);
  // Every route answers unknown words with suggestions, never a crash.
  EXPECT_THROW(api.handle("neighbours", {{"word", "kinq"}}), UnknownTokenError);
  EXPECT_THROW(api.handle("neighbours", {{"word", "king"}, {"k", 0}}), serve::ApiError);
}

TEST(ApiTest, TSneProjectionReportsHonestyNumbers) {
  // A 3-D table (so it is projected, not shown as it is): t-SNE reports KL and neighbour preservation.
  Table t;
  t.E = Matrix(60, 3);
  Rng rng(3);
  for (std::size_t i = 0; i < 60; ++i) {
    t.vocab.add("w" + std::to_string(i));
    for (std::size_t j = 0; j < 3; ++j) t.E.set(i, j, static_cast<float>(rng.normal() + (i % 3 == j ? 5.0 : 0.0)));
  }
  serve::Api api(std::move(t));
  auto j = api.handle("projection", {{"method", "tsne"}, {"top", 60}, {"seed", 2}});
  for (int i = 0; i < 1200 && !j["done"].get<bool>(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    j = api.handle("job", {{"id", j["job"]}});
  }
  ASSERT_TRUE(j["done"].get<bool>());
  EXPECT_EQ(j["result"]["points"].size(), 60u);
  EXPECT_TRUE(j["result"].contains("kl"));
  EXPECT_GT(j["result"]["knn_preservation"].get<double>(), 0.3);
}
