// The HTTP API's scores for a row holding NaN: null in the JSON, as the CLI's --json writes them, never 0.
#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>

#include "lumen/core/table.hpp"
#include "lumen/serve/api.hpp"

using namespace lumen;

TEST(ApiNan, NanScoresAreNullNeverZero) {
  Table t;
  const float rows[4][3] = {{1, 0, 0}, {std::numeric_limits<float>::quiet_NaN(), 1, 0}, {0.9f, 0.1f, 0}, {-1, 0.2f, 0}};
  t.E = Matrix(4, 3);
  for (std::size_t r = 0; r < 4; ++r)
    for (std::size_t c = 0; c < 3; ++c) t.E.set(r, c, rows[r][c]);
  for (auto w : {"good", "bad", "near", "far"}) t.vocab.add(w);
  serve::Api api(std::move(t));
  // As the server sends it: dumped, then read back by the client.
  const auto sent = [&](const std::string& route, const nlohmann::json& p) {
    return nlohmann::json::parse(api.handle(route, p).dump());
  };
  const auto n = sent("neighbours", {{"word", "good"}, {"k", 3}})["neighbours"];
  ASSERT_EQ(n.size(), 3u);
  EXPECT_EQ(n[2]["token"], "bad");  // ranked last, not dropped
  EXPECT_TRUE(n[2]["score"].is_null()) << n.dump();
  EXPECT_TRUE(n[0]["score"].is_number());
  const auto s = sent("similarity", {{"w1", "good"}, {"w2", "bad"}});
  EXPECT_TRUE(s["cosine"].is_null()) << s.dump();
  const auto of_bad = sent("neighbours", {{"word", "bad"}, {"k", 3}});  // kept alive: the loop reads into it
  for (const auto& x : of_bad["neighbours"]) EXPECT_TRUE(x["score"].is_null()) << of_bad.dump();
}
