// The explorer's Drift view: /api/drift answers with `lumen drift --json`'s schema (one function makes both) on the
// model the server was given, as a cached job; /api/model says what that model is; and every request it should not
// serve is refused with its status: no model 409, a malformed body 400, a token not in a context or a context
// longer than the model's 422, a body or text too large 413, k beyond its cap 422, a GET that would start work 405.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "lumen/core/toy.hpp"
#include "lumen/model/checkpoint.hpp"
#include "lumen/model/drift.hpp"
#include "lumen/model/drift_json.hpp"
#include "lumen/model/embedding_table.hpp"
#include "lumen/model/model_tokenizer.hpp"
#include "lumen/serve/server.hpp"
#include "support/scaled_checkpoint.hpp"
#include "support/temp_dir.hpp"

using namespace lumen;
using nlohmann::json;

namespace test_api_drift {

const std::string kFixture = std::string(LUMEN_SOURCE_DIR) + "/tests/data/model/gpt2";
const std::vector<std::string> kContexts = {"the river bank was muddy", "the bank approved the loan"};

// The tiny GPT-2 fixture (or another checkpoint) served as `lumen serve --model` serves it: its E as the table,
// and the model.
std::unique_ptr<serve::Api> served_api(const std::string& dir = kFixture) {
  const serve::ServedModel m = serve::load_served_model(dir);
  auto api = std::make_unique<serve::Api>(model::embedding_table(m.model, *m.tokenizer, m.source), m.tokenizer);
  api->set_model(m);
  return api;
}

serve::ApiReply ask(serve::Api& api, const std::string& route, const json& body) {
  return serve::answer(api, route, {}, body.dump());
}

// Starts (or finds) a job and polls it until it is done; the last reply.
serve::ApiReply finish(serve::Api& api, const std::string& route, const json& body) {
  serve::ApiReply r = ask(api, route, body);
  for (int i = 0; i < 1200 && r.status == 200 && !r.body["done"].get<bool>(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
    r = ask(api, "job", {{"id", r.body["job"]}});
  }
  return r;
}

// Equal JSON, numbers within a relative 1e-9 (the same computation, perhaps on other BLAS threads).
bool same(const json& a, const json& b) {
  if (a.is_number() && b.is_number()) {
    const double x = a.get<double>(), y = b.get<double>();
    return std::abs(x - y) <= 1e-9 * std::max(1.0, std::max(std::abs(x), std::abs(y)));
  }
  if (a.type() != b.type() || a.size() != b.size()) return false;
  if (a.is_array()) {
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!same(a[i], b[i])) return false;
    return true;
  }
  if (a.is_object()) {
    for (const auto& [k, v] : a.items())
      if (!b.contains(k) || !same(v, b[k])) return false;
    return true;
  }
  return a == b;
}

TEST(ApiDrift, AnswersWithTheSchemaOfLumenDriftJson) {
  auto api = served_api();
  EXPECT_TRUE(serve::Api::starts_work("drift"));
  const json request = {{"token", "bank"}, {"contexts", kContexts}, {"k", 3}};
  const serve::ApiReply r = finish(*api, "drift", request);
  ASSERT_EQ(r.status, 200) << r.body.dump();
  ASSERT_TRUE(r.body["done"].get<bool>());
  // The library's drift through the CLI's JSON function.
  const auto m = model::load_checkpoint(kFixture);
  const auto tok = model::tokenizer_for(m, kFixture);
  const json want = model::drift_json(model::drift(m, *tok, "bank", kContexts, 3), *tok);
  EXPECT_TRUE(same(r.body["result"], want)) << r.body["result"].dump() << "\n" << want.dump();
  EXPECT_EQ(r.body["result"]["token"], "\u2423bank");
  EXPECT_EQ(r.body["result"]["layers"].size(), 3u);
  EXPECT_EQ(r.body["result"]["layers"][1]["contexts"][0]["nearest"].size(), 3u);
  EXPECT_EQ(r.body["result"]["pca_xy"][1].size(), 3u);
  // The same request is the same job, already done; another k is another job; k defaults to 5.
  const serve::ApiReply again = ask(*api, "drift", request);
  EXPECT_EQ(again.body["job"], r.body["job"]);
  EXPECT_TRUE(again.body["done"].get<bool>());
  const serve::ApiReply five = finish(*api, "drift", {{"token", "bank"}, {"contexts", kContexts}});
  ASSERT_EQ(five.status, 200);
  EXPECT_NE(five.body["job"], r.body["job"]);
  EXPECT_EQ(five.body["result"]["layers"][2]["contexts"][1]["lens"].size(), 5u);
}

TEST(ApiDrift, RefusesWhatItShouldNot) {
  auto api = served_api();
  std::string longer = "the bank";
  for (int i = 0; i < 40; ++i) longer += " the";  // past the fixture's context of 32 tokens
  struct Case {
    json body;
    int status;
    const char* says;
  };
  const std::vector<Case> cases = {
      {{{"contexts", kContexts}}, 400, "missing parameter 'token'"},
      {{{"token", "bank"}}, 400, "missing parameter 'contexts'"},
      {{{"token", "bank"}, {"contexts", "the bank, a bank"}}, 400, "list of two texts"},
      {{{"token", "bank"}, {"contexts", json::array({"the bank"})}}, 400, "got 1"},
      {{{"token", "bank"}, {"contexts", {"the bank", "a bank", "one bank"}}}, 400, "got 3"},
      {{{"token", "bank"}, {"contexts", {"the bank", 7}}}, 400, "strings"},
      {{{"token", 7}, {"contexts", kContexts}}, 400, "must be a string"},
      {{{"token", "money"}, {"contexts", kContexts}}, 422, "no token 'money'"},
      {{{"token", "bank"}, {"contexts", {"the bank", longer}}}, 422, "the model's context is 32"},
      {{{"token", "bank"}, {"contexts", {"the bank", ""}}}, 422, "encodes to no tokens"},
      {{{"token", "bank"}, {"contexts", {"the bank", std::string(20000, 'a')}}}, 413, "longer than 16384 bytes"},
      {{{"token", std::string(300, 'b')}, {"contexts", kContexts}}, 413, "longer than 256 bytes"},
      {{{"token", "bank"}, {"contexts", kContexts}, {"k", 0}}, 422, "outside [1, 50]"},
      {{{"token", "bank"}, {"contexts", kContexts}, {"k", 51}}, 422, "outside [1, 50]"},
      {{{"token", "bank"}, {"contexts", kContexts}, {"k", "five"}}, 400, "must be an integer"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.body.dump());
    const serve::ApiReply r = ask(*api, "drift", c.body);
    EXPECT_EQ(r.status, c.status);
    ASSERT_TRUE(r.body.contains("error"));
    EXPECT_NE(r.body["error"].get<std::string>().find(c.says), std::string::npos) << r.body["error"];
  }
  EXPECT_EQ(api->handle("info", json::object())["V"], 300);  // refusals start no job and leave the API serving
  // No model: 409 for both model routes, the table views still answer.
  serve::Api plain(toy_table());
  for (const char* route : {"drift", "model"}) {
    const serve::ApiReply r = ask(plain, route, {{"token", "bank"}, {"contexts", kContexts}});
    EXPECT_EQ(r.status, 409) << route;
    EXPECT_NE(r.body["error"].get<std::string>().find("no model"), std::string::npos) << r.body.dump();
  }
  EXPECT_EQ(ask(plain, "info", json::object()).status, 200);
  EXPECT_THROW(plain.set_model({}), UsageError);
}

TEST(ApiDrift, ModelRouteAndTheModelsEAsTheTable) {
  auto api = served_api();
  const serve::ApiReply r = ask(*api, "model", json::object());
  ASSERT_EQ(r.status, 200) << r.body.dump();
  EXPECT_EQ(r.body["source"], kFixture);
  EXPECT_EQ(r.body["model_type"], "gpt2");
  EXPECT_EQ(r.body["layers"], 2);
  EXPECT_EQ(r.body["d"], 32);
  EXPECT_TRUE(r.body["tied"].get<bool>());
  EXPECT_FALSE(r.body["tokenizer"].get<std::string>().empty());
  // The table views work on E, labelled by the tokenizer.
  const json info = api->handle("info", json::object());
  EXPECT_EQ(info["V"], 300);
  EXPECT_EQ(info["format"], "checkpoint");
  const json n = api->handle("neighbours", {{"word", " bank"}, {"k", 3}});
  EXPECT_EQ(n["neighbours"].size(), 3u);
  const json t = api->handle("tokenize", {{"text", "the bank"}});
  EXPECT_EQ(t["tokens"][1]["display"], "\u2423bank");
}

TEST(ApiDrift, OverHttpPostOnlyWithItsStatuses) {
  auto api = served_api();
  serve::ServerOptions o;
  o.port = 0;
  serve::Server server(*api, o);
  const int port = server.start();
  httplib::Client c("127.0.0.1", port);
  auto r = c.Get("/api/model");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(json::parse(r->body)["model_type"], "gpt2");
  r = c.Get("/api/drift?token=bank");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 405);  // starts work: POST only
  EXPECT_EQ(r->get_header_value("Allow"), "POST");
  const std::string body = json({{"token", "bank"}, {"contexts", kContexts}, {"k", 2}}).dump();
  r = c.Post("/api/drift", body, "application/json");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  json j = json::parse(r->body);
  for (int i = 0; i < 1200 && !j["done"].get<bool>(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
    r = c.Post("/api/job", json({{"id", j["job"]}}).dump(), "application/json");
    ASSERT_TRUE(r);
    j = json::parse(r->body);
  }
  ASSERT_TRUE(j["done"].get<bool>());
  EXPECT_EQ(j["result"]["layers"][0]["contexts"][0]["nearest"].size(), 2u);
  r = c.Post("/api/drift", "{\"token\": \"bank\", \"contexts\": [", "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  r = c.Post("/api/drift", json({{"token", "money"}, {"contexts", kContexts}}).dump(), "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 422);
  EXPECT_NE(json::parse(r->body)["error"].get<std::string>().find("no token 'money'"), std::string::npos);
  // A body over the server's bound (64 kB) is refused before it is read.
  r = c.Post("/api/drift", json({{"token", "bank"}, {"contexts", {std::string(70000, 'a'), "b"}}}).dump(),
             "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  server.stop();
}

// Weights that overflow (x 1e30) answer 422 naming the block, as the CLI exits 1; not 500, not NaN cosines.
TEST(ApiDrift, WeightsThatOverflowAre422NamingTheBlock) {
  const lumen::test::TempDir dir("lumen-api-overflow");
  lumen::test::copy_scaled_checkpoint(kFixture, dir / "m", 1e30f);
  auto api = served_api(dir / "m");
  const serve::ApiReply r = finish(*api, "drift", {{"token", "bank"}, {"contexts", kContexts}});
  EXPECT_EQ(r.status, 422) << r.body.dump();
  EXPECT_NE(r.body.dump().find("block 1 produced non-finite values"), std::string::npos) << r.body.dump();
}

}  // namespace test_api_drift
