// One schema per result: the CLI's --json (the built `lumen`, run as a user would) and the HTTP API's Api::handle
// answer the same request on the same table with the same JSON, for every result kind both give: neighbours,
// similarity, analogy, doesnt-match, projection (the toy's identity map included), a table's info, a tokenised text,
// a comparison of two tables (and of a model's two heads), a drift, a parameter count, and a job's result as the
// `job` route hands it over. Only "seconds" (time spent) may differ. The two routes whose answer no CLI command
// prints in its schema, `row` and `model`, are checked field by field against the command that gives the same
// figures (`onehot`, `params CKPT`), and `model`'s other fields against its library builder. Python's dicts are
// checked against the CLI's in python/tests/test_json_parity.py.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "cli/cli_run.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/model/checkpoint.hpp"
#include "lumen/model/embedding_table.hpp"
#include "lumen/model/model_json.hpp"
#include "lumen/model/model_tokenizer.hpp"
#include "lumen/serve/api.hpp"
#include "lumen/text/load_table.hpp"
#include "lumen/text/output_head.hpp"
#include "lumen/text/tokenizer_files.hpp"
#include "support/temp_dir.hpp"

using namespace lumen;
using nlohmann::json;

namespace test_json_parity {

// A small word table with a few clusters, written as text: both sides read the same file.
std::string write_table(const test::TempDir& dir, const std::string& name = "words.vec", std::uint64_t seed = 11) {
  const std::vector<std::string> named = {"king", "queen", "man",   "woman", "prince", "princess", "boy",  "girl",
                                          "cat",  "dog",   "mouse", "car",   "paris",  "france",   "rome", "italy"};
  const std::size_t V = 48, d = 8;
  Rng rng(seed);
  const std::string path = dir / name;
  std::ofstream out(path);
  out << V << ' ' << d << '\n';
  for (std::size_t i = 0; i < V; ++i) {
    out << (i < named.size() ? named[i] : fmt::format("w{}", i));
    for (std::size_t j = 0; j < d; ++j)
      out << ' ' << fmt::format("{:.6f}", rng.normal() + (i % 4 == j % 4 ? 2.0 : 0.0));
    out << '\n';
  }
  return path;
}

// Same keys, same types and strings, numbers equal but for the last float bits (two processes' BLAS may sum in
// another order). `where` names the place of a difference.
void expect_same(const json& cli, const json& api, const std::string& where) {
  if (cli.is_number() && api.is_number()) {
    const double a = cli.get<double>(), b = api.get<double>();
    EXPECT_LE(std::abs(a - b), 1e-5 * std::max(1.0, std::abs(a))) << where << ": CLI " << a << ", API " << b;
    return;
  }
  ASSERT_EQ(cli.type_name(), std::string(api.type_name())) << where << ": CLI " << cli.dump() << ", API " << api.dump();
  if (cli.is_object()) {
    for (const auto& [k, v] : cli.items())
      EXPECT_TRUE(api.contains(k)) << where << ": the CLI has \"" << k << "\", the API does not";
    for (const auto& [k, v] : api.items()) {
      if (!cli.contains(k)) {
        ADD_FAILURE() << where << ": the API has \"" << k << "\", the CLI does not";
        continue;
      }
      expect_same(cli[k], v, where + "." + k);
    }
  } else if (cli.is_array()) {
    ASSERT_EQ(cli.size(), api.size()) << where;
    for (std::size_t i = 0; i < cli.size(); ++i) expect_same(cli[i], api[i], fmt::format("{}[{}]", where, i));
  } else {
    EXPECT_EQ(cli, api) << where;
  }
}

class JsonParity : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new test::TempDir("lumen-parity");
    path_ = write_table(*dir_);
    text::TableRequest r;
    r.path = path_;
    io::LoadReport report;
    api_ = new serve::Api(text::load_table(r, report).table);
  }
  static void TearDownTestSuite() {
    delete api_;
    delete dir_;
  }

  // The one JSON line `lumen ARGS --json` prints.
  static json cli(const std::string& args) {
    const auto r = lumen_cli::run_cli(args + " --json");
    EXPECT_EQ(r.code, 0) << r.cmdline << "\n" << r.err;
    return json::parse(r.out);
  }
  static std::string table() { return lumen_cli::detail::quote(path_); }

  static json api(const std::string& route, const json& p) { return api_on(*api_, route, p); }
  // As the server sends it: dumped, then read back by the client; a job polled until it is done.
  static json api_on(serve::Api& server, const std::string& route, const json& p) {
    json j = json::parse(server.handle(route, p).dump());
    for (int i = 0; i < 1200 && j.contains("job") && !j["done"].get<bool>(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      j = json::parse(server.handle("job", {{"id", j["job"]}}).dump());
    }
    return j.contains("job") ? j["result"] : j;
  }
  static Table load(const std::string& path) {
    text::TableRequest r;
    r.path = path;
    io::LoadReport report;
    return text::load_table(r, report).table;
  }

  static test::TempDir* dir_;
  static std::string path_;
  static serve::Api* api_;
};

test::TempDir* JsonParity::dir_ = nullptr;
std::string JsonParity::path_;
serve::Api* JsonParity::api_ = nullptr;

TEST_F(JsonParity, Neighbours) {
  expect_same(cli("neighbours " + table() + " king -k 5"), api("neighbours", {{"word", "king"}, {"k", 5}}),
              "neighbours");
  expect_same(cli("neighbours " + table() + " cat --metric euclidean -k 3"),
              api("neighbours", {{"word", "cat"}, {"metric", "euclidean"}, {"k", 3}}), "neighbours euclidean");
  // More than the rows: both clamp k and say what was asked.
  const json all = api("neighbours", {{"word", "dog"}, {"k", 100}});
  EXPECT_EQ(all["k_requested"], 100);
  expect_same(cli("neighbours " + table() + " dog -k 100"), all, "neighbours k > V");
}

TEST_F(JsonParity, Similarity) {
  expect_same(cli("similarity " + table() + " king queen"), api("similarity", {{"w1", "king"}, {"w2", "queen"}}),
              "similarity");
  expect_same(cli("similarity " + table() + " cat car --metric dot"),
              api("similarity", {{"w1", "cat"}, {"w2", "car"}, {"metric", "dot"}}), "similarity dot");
}

TEST_F(JsonParity, Analogy) {
  expect_same(cli("analogy " + table() + " man king woman --expect queen -k 3"),
              api("analogy", {{"a", "man"}, {"b", "king"}, {"c", "woman"}, {"k", 3}, {"expect", "queen"}}), "analogy");
  expect_same(cli("analogy " + table() + " paris france rome --method mul --no-exclude"),
              api("analogy", {{"a", "paris"}, {"b", "france"}, {"c", "rome"}, {"method", "mul"}, {"exclude", false}}),
              "analogy mul");
}

TEST_F(JsonParity, DoesntMatch) {
  expect_same(cli("doesnt-match " + table() + " cat dog mouse car"),
              api("doesnt-match", {{"words", {"cat", "dog", "mouse", "car"}}}), "doesnt-match");
}

TEST_F(JsonParity, Projection) {
  for (const std::string method : {"pca", "tsne"}) {
    json c = cli("project " + table() + " --method " + method + " --top 40");
    json a = api("projection", {{"method", method}, {"top", 40}});
    ASSERT_TRUE(c.contains("seconds") && a.contains("seconds")) << method;
    c.erase("seconds");  // time spent: the one field that differs from run to run
    a.erase("seconds");
    expect_same(c, a, "projection " + method);
  }
}

// The chapter's toy table is two-dimensional: both show it as it is (project::Method::identity).
TEST_F(JsonParity, ToyIdentityMap) {
  json c = cli("project toy --method identity");
  json a = api("projection", {{"table", "toy"}, {"method", "pca"}});  // the server maps a 2-D table as it is
  EXPECT_EQ(a["method"], "identity");
  c.erase("seconds");
  a.erase("seconds");
  expect_same(c, a, "projection identity");
}

// Two tables over their shared words: eval::comparison_json on both sides, the server's second table loaded from
// its own file (the sources are the same paths).
TEST_F(JsonParity, Compare) {
  const std::string other = write_table(*dir_, "other.vec", 12);
  std::vector<serve::NamedTable> others;
  others.push_back({"other", load(other)});
  serve::Api two(load(path_), nullptr, std::move(others));
  json c = cli("compare " + table() + " " + lumen_cli::detail::quote(other) + " -k 5 --top 40 --moved 5");
  json a = api_on(two, "compare", {{"b", "other"}, {"k", 5}, {"top", 40}, {"moved", 5}});
  c.erase("seconds");
  a.erase("seconds");
  expect_same(c, a, "compare");
}

// An untied model's input table against its output head (TABLE.out beside it): `lumen compare --heads` and the
// server's "head" table, opened the one way both open it (text::load_output_head: its source is the head's file).
TEST_F(JsonParity, CompareHeads) {
  const std::string lm = write_table(*dir_, "lm.vec", 13);
  write_table(*dir_, "lm.vec.out", 14);
  text::TableRequest r;
  r.path = lm;
  io::LoadReport report;
  std::vector<serve::NamedTable> others;
  others.push_back({"head", text::load_output_head(r, "", report).table});
  EXPECT_EQ(others[0].table.source, lm + ".out");
  serve::Api heads(load(lm), nullptr, std::move(others));
  json c = cli("compare " + lumen_cli::detail::quote(lm) + " --heads -k 5 --top 40 --moved 5");
  json a = api_on(heads, "compare", {{"b", "head"}, {"k", 5}, {"top", 40}, {"moved", 5}});
  c.erase("seconds");
  a.erase("seconds");
  expect_same(c, a, "compare heads");
}

// The `job` route itself: a projection started, then polled by its id until done. Its envelope is the route's own
// ({"job", "done", "progress", "result"}: no CLI command prints one); the result is `lumen project --json`'s, and a
// poll after it finished hands over the same result again.
TEST_F(JsonParity, JobResult) {
  const json started = json::parse(api_->handle("projection", {{"method", "pca"}, {"top", 30}, {"seed", 3}}).dump());
  ASSERT_TRUE(started.contains("job")) << started.dump();
  json polled = started;
  for (int i = 0; i < 1200 && !polled["done"].get<bool>(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    polled = json::parse(api_->handle("job", {{"id", started["job"]}}).dump());
  }
  ASSERT_TRUE(polled["done"].get<bool>()) << polled.dump();
  EXPECT_EQ(polled["job"], started["job"]);
  EXPECT_EQ(polled["progress"], 1.0);
  const json again = json::parse(api_->handle("job", {{"id", started["job"]}}).dump());
  EXPECT_EQ(again["result"], polled["result"]);
  json a = polled["result"];
  json c = cli("project " + table() + " --method pca --top 30 --seed 3");
  c.erase("seconds");
  a.erase("seconds");
  expect_same(c, a, "job result");
}

// A row: no CLI command prints /api/row's schema. `lumen onehot --json` gives the same figures (the row of E, V, d
// and where the one-hot vector's 1 is) under its own names ("row" for "vector", "one_at" for "index"): each is
// checked against it. "display" and "window" are the explorer's own.
TEST_F(JsonParity, RowAgainstOnehot) {
  for (const std::string word : {"king", "w30"}) {
    const json c = cli("onehot " + table() + " " + word);
    const json a = api("row", {{"token", word}});
    ASSERT_EQ(c["tokens"].size(), 1u);
    const json& t = c["tokens"][0];
    expect_same(t["token"], a["token"], "row.token");
    expect_same(t["id"], a["id"], "row.id");
    expect_same(c["V"], a["V"], "row.V");
    expect_same(c["d"], a["d"], "row.d");
    expect_same(t["onehot"]["length"], a["onehot"]["length"], "row.onehot.length");
    expect_same(t["onehot"]["one_at"], a["onehot"]["index"], "row.onehot.index");
    expect_same(t["row"], a["vector"], "row.vector");
    // The window's own row for the word is the same vector again, by id.
    const json& w = a["window"];
    const auto at = a["id"].get<std::size_t>() - w["start"].get<std::size_t>();
    expect_same(t["row"], w["rows"][at]["values"], "row.window");
    EXPECT_EQ(a, api("row", {{"id", a["id"]}})) << word;  // by token or by id: one answer
  }
}

// The served model: `lumen params CKPT --json` counts the same checkpoint, so its shape and total are the route's
// V, d, ..., tied and parameters. The route's other fields (source, model_type, family) no CLI command prints as
// JSON: they are checked against the library builder, model::model_json, with the tokenizer the server names.
TEST_F(JsonParity, ModelAgainstParams) {
  for (const char* name : {"gpt2", "gpt2-untied-bf16", "llama-tied-f16"}) {
    const std::string dir = std::string(LUMEN_SOURCE_DIR) + "/tests/data/model/" + name;
    const serve::ServedModel m = serve::load_served_model(dir);
    serve::Api served(model::embedding_table(m.model, *m.tokenizer, m.source), m.tokenizer);
    served.set_model(m);
    const json a = api_on(served, "model", json::object());
    const json c = cli("params " + lumen_cli::detail::quote(dir));
    const json& shape = c["shape"];
    expect_same(shape["vocab"], a["V"], std::string(name) + ": V");
    expect_same(shape["d_model"], a["d"], std::string(name) + ": d");
    for (const char* key : {"layers", "heads", "kv_heads", "ffn", "context", "positional", "norm", "mlp", "tied"})
      expect_same(shape[key], a[key], std::string(name) + ": " + key);
    expect_same(c["total"], a["parameters"], std::string(name) + ": parameters");
    json built = model::model_json(*m.model, m.source);
    built["tokenizer"] = m.tokenizer->source;
    expect_same(built, a, std::string(name) + ": model_json");
  }
}

// Figure 3 on the tiny GPT-2 fixture: model::drift_json on both sides.
TEST_F(JsonParity, Drift) {
  const std::string dir = std::string(LUMEN_SOURCE_DIR) + "/tests/data/model/gpt2";
  const serve::ServedModel m = serve::load_served_model(dir);
  serve::Api served(model::embedding_table(m.model, *m.tokenizer, m.source), m.tokenizer);
  served.set_model(m);
  const json c = cli("drift " + lumen_cli::detail::quote(dir) + " 'the river bank' 'a bank loan' --token bank -k 3");
  const json a =
      api_on(served, "drift", {{"token", "bank"}, {"contexts", {"the river bank", "a bank loan"}}, {"k", 3}});
  expect_same(c, a, "drift");
}

// The calculator: nn::params_json on both sides, for a preset and for a shape given field by field.
TEST_F(JsonParity, Params) {
  expect_same(cli("params gpt2"), api("params", {{"preset", "gpt2"}}), "params gpt2");
  expect_same(
      cli("params --vocab 1000 --d-model 64 --layers 3 --heads 4 --context 128 --untied"),
      api("params", {{"vocab", 1000}, {"d_model", 64}, {"layers", 3}, {"heads", 4}, {"context", 128}, {"tied", false}}),
      "params custom");
}

// A table's description is io::table_json on both sides, the CLI's info adding the file's figures and the API's
// the tables and tokenizer it serves: the keys they share are spelled and valued alike (V and d, not rows/dim).
TEST_F(JsonParity, Info) {
  const json c = cli("info " + table()), a = api("info", json::object());
  for (const char* key : {"source", "format", "V", "d", "dtype"}) {
    ASSERT_TRUE(c.contains(key) && a.contains(key)) << key;
    expect_same(c[key], a[key], std::string("info.") + key);
  }
  EXPECT_EQ(a["table_info"][0]["V"], c["V"]);
  EXPECT_FALSE(c.contains("rows") || c.contains("dim"));
}

// A tokenised text is text::tokenized_json on both sides: `lumen tokenize --json`'s texts and /api/tokenize. The
// server's table here has 48 rows, so a token past them has "id" null there (no row to show); "ids" keeps it.
TEST_F(JsonParity, Tokenize) {
  if (text::default_gpt2_dir().empty()) GTEST_SKIP() << "GPT-2's tokenizer files are not installed";
  const std::shared_ptr<const text::Tokenizer> gpt2 = text::load_gpt2_tokenizer();
  text::TableRequest r;
  r.path = path_;
  io::LoadReport report;
  serve::Api with_tokenizer(text::load_table(r, report).table, gpt2);
  const json c = cli("tokenize 'The cat sat'");
  json a = json::parse(with_tokenizer.handle("tokenize", {{"text", "The cat sat"}}).dump());
  EXPECT_EQ(a["tokenizer"], c["tokenizer"]);
  a.erase("tokenizer");
  ASSERT_EQ(c["texts"].size(), 1u);
  json want = c["texts"][0];
  for (auto& tok : want["tokens"])
    if (tok["id"].get<std::size_t>() >= 48) tok["id"] = nullptr;
  expect_same(want, a, "tokenize");
}

}  // namespace test_json_parity
