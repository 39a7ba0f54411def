// A word on a GPT's own table: byte-level BPE spells a word inside a sentence with its space ("␣bank"), and the
// explorer's routes find that row for "bank" when "bank" is no token of its own, as they find "␣bank", " bank" and
// "Ġbank"; a word that is a token of its own stays itself, and a word in neither form is still a 422.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "lumen/model/embedding_table.hpp"
#include "lumen/serve/api.hpp"
#include "lumen/serve/served_model.hpp"
#include "lumen/serve/server.hpp"

using namespace lumen;
using nlohmann::json;

namespace test_word_lookup {

const std::string kGpt2 = std::string(LUMEN_SOURCE_DIR) + "/tests/data/model/gpt2";

std::unique_ptr<serve::Api> gpt_api() {
  const serve::ServedModel m = serve::load_served_model(kGpt2);
  return std::make_unique<serve::Api>(model::embedding_table(m.model, *m.tokenizer, m.source), m.tokenizer);
}

// The HTTP status the server answers ROUTE with (an unknown word is a lumen::Error that it answers 422).
int status_of(serve::Api& api, const std::string& route, const json& p) {
  return serve::answer(api, route, {}, p.dump()).status;
}

TEST(WordLookup, AWordFindsItsSpaceFormOnAGptTable) {
  auto api = gpt_api();
  const json spaced = api->handle("neighbours", {{"word", "\u2423bank"}, {"k", 3}});
  for (const char* spelling : {"bank", " bank", "\u0120bank"}) {
    const json n = api->handle("neighbours", {{"word", spelling}, {"k", 3}});
    EXPECT_EQ(n["id"], spaced["id"]) << spelling;
    EXPECT_EQ(n["neighbours"], spaced["neighbours"]) << spelling;
  }
  // Every route that takes words: similarity, analogy, doesnt-match, row.
  const json s = api->handle("similarity", {{"w1", "river"}, {"w2", "bank"}});
  EXPECT_EQ(s["id2"], spaced["id"]);
  EXPECT_EQ(api->handle("row", {{"token", "bank"}})["id"], spaced["id"]);
  EXPECT_EQ(status_of(*api, "analogy", {{"a", "river"}, {"b", "bank"}, {"c", "the"}}), 200);
  EXPECT_EQ(status_of(*api, "doesnt-match", {{"words", json::array({"river", "bank", "the"})}}), 200);
}

TEST(WordLookup, ATokenOfItsOwnStaysItselfAndAnUnknownWordIs422) {
  auto api = gpt_api();
  // "the" is a token of its own (id of "the", not of "␣the").
  const json bare = api->handle("row", {{"token", "the"}});
  const json spaced = api->handle("row", {{"token", "\u2423the"}});
  EXPECT_NE(bare["id"], spaced["id"]);
  EXPECT_EQ(bare["display"], "the");
  EXPECT_EQ(status_of(*api, "neighbours", {{"word", "xyzzyq"}}), 422);
}

}  // namespace test_word_lookup
