// Next-token tables, sampling (deterministic for a seed), perplexity with and without a sliding window.
#include <gtest/gtest.h>

#include <cmath>

#include "checkpoint_edit.hpp"
#include "lumen/core/error.hpp"
#include "lumen/model/checkpoint.hpp"
#include "lumen/model/generate.hpp"

using namespace lumen;
using lumen::model::testing::fixture_dir;

TEST(ModelGenerate, TopTokensAreSortedProbabilities) {
  const std::vector<float> logits = {1, 3, 2, 3};
  const auto top = model::top_tokens(logits.data(), 4, 10);
  ASSERT_EQ(top.size(), 4u);
  EXPECT_EQ(top[0].id, 1);  // tie with 3: lower id first
  EXPECT_EQ(top[1].id, 3);
  EXPECT_EQ(top[3].id, 0);
  double sum = 0;
  for (const auto& t : top) sum += t.prob;
  EXPECT_NEAR(sum, 1.0, 1e-12);
  EXPECT_NEAR(top[0].prob, std::exp(3.0) / (std::exp(1.0) + 2 * std::exp(3.0) + std::exp(2.0)), 1e-12);
}

TEST(ModelGenerate, SameSeedSameTokensGreedyIsArgmax) {
  const auto m = model::load_checkpoint(fixture_dir("llama-tied-f16"));
  model::SampleOptions o;
  o.tokens = 40;  // runs past the context of 32: the window slides
  o.seed = 7;
  o.top_k = 50;
  const auto a = model::generate(m, {1, 2, 3}, o);
  const auto b = model::generate(m, {1, 2, 3}, o);
  EXPECT_EQ(a, b);
  ASSERT_EQ(a.size(), 40u);
  o.seed = 8;
  EXPECT_NE(model::generate(m, {1, 2, 3}, o), a);
  o.temperature = 0;
  const auto g = model::generate(m, {1, 2, 3}, o);
  model::ForwardOptions fo;
  fo.last_only = true;
  const auto r = m.forward({1, 2, 3}, fo);
  EXPECT_EQ(g[0], model::top_tokens(r.logits.data(), m.shape().V, 1)[0].id);
  o.top_k = 1;
  o.temperature = 1;
  EXPECT_EQ(model::generate(m, {1, 2, 3}, o), g);  // top-k 1 is greedy whatever the seed
  EXPECT_THROW(model::generate(m, {}, o), InputError);
}

// A stop (Ctrl-C) ends generation before the next token and keeps what was made: the same tokens as a run
// asked for that many.
TEST(ModelGenerate, AStopKeepsTheTokensMadeSoFar) {
  const auto m = model::load_checkpoint(fixture_dir("llama-tied-f16"));
  model::SampleOptions o;
  o.tokens = 1000000;
  o.seed = 3;
  std::atomic<bool> stop{false};
  o.stop = &stop;
  const auto made = model::generate(m, {1, 2, 3}, o, [&](const std::string&, std::uint64_t done, std::uint64_t) {
    if (done == 5) stop = true;
  });
  ASSERT_EQ(made.size(), 5u);
  o.tokens = 5;
  o.stop = nullptr;
  EXPECT_EQ(model::generate(m, {1, 2, 3}, o), made);
}

TEST(ModelGenerate, PerplexityWindows) {
  const auto m = model::load_checkpoint(fixture_dir("gpt2"));
  std::vector<std::int32_t> ids;
  for (int i = 0; i < 20; ++i) ids.push_back((i * 37) % 300);
  // One window: the mean NLL computed by hand from the full logits.
  const auto full = m.forward(ids);
  double nll = 0;
  for (std::size_t j = 1; j < ids.size(); ++j) {
    const float* row = full.logits.data() + (j - 1) * 300;
    double s = 0;
    for (int v = 0; v < 300; ++v) s += std::exp(double(row[v]));
    nll += std::log(s) - row[ids[j]];
  }
  const auto p = model::perplexity(m, ids);
  EXPECT_EQ(p.windows, 1u);
  EXPECT_EQ(p.tokens, 19u);
  EXPECT_NEAR(p.nll, nll / 19, 1e-5);
  EXPECT_NEAR(p.perplexity, std::exp(nll / 19), 1e-3);
  // 100 tokens, context 32, stride 16: every token after the first predicted once, in ceil((100-32)/16)+1 windows.
  std::vector<std::int32_t> many;
  for (int i = 0; i < 100; ++i) many.push_back((i * 11) % 300);
  const auto w = model::perplexity(m, many, 16);
  EXPECT_EQ(w.tokens, 99u);
  EXPECT_EQ(w.windows, 6u);
  // Stride context - 1: the next window starts one token before the last one ended, so nothing is skipped.
  const auto d = model::perplexity(m, many, 31);
  EXPECT_EQ(d.tokens, 99u);
  EXPECT_THROW(model::perplexity(m, {5}), InputError);
  EXPECT_THROW(model::perplexity(m, many, 32), UsageError);  // the window start would go unpredicted
}

TEST(ModelGenerate, NanLogitsRankLast) {
  const std::vector<float> logits = {NAN, 1, NAN, 2};
  const auto top = model::top_tokens(logits.data(), 4, 4);
  EXPECT_EQ(top[0].id, 3);
  EXPECT_EQ(top[1].id, 1);
  EXPECT_EQ(top[2].id, 0);
  EXPECT_EQ(top[3].id, 2);
}
