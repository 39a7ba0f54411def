// The whole path on a GPT-2-shaped checkpoint: open wte.weight by name, find the tokenizer.json beside it,
// tokenize, label rows by token, neighbours of a token, and the one-hot (length 50,257) x E == row view.
#include <gtest/gtest.h>

#include <cmath>
#include <unistd.h>

#include "lumen/core/error.hpp"
#include "lumen/io/open.hpp"
#include "lumen/search/searcher.hpp"
#include "lumen/text/table_labels.hpp"
#include "text/gpt2_checkpoint.hpp"
#include "text/gpt2_files.hpp"

using namespace lumen;
using namespace lumen::text;
using namespace lumen::text::testing;

namespace test_gpt2_checkpoint {
TempGpt2Checkpoint g_checkpoint(std::filesystem::path(::testing::TempDir()) /
                                    ("lumen_gpt2_ckpt_" + std::to_string(::getpid())),
                                gpt2_dir());
const std::string& checkpoint() { return g_checkpoint.path(); }

// One tensor of the checkpoint by name, as an f16 table (as stored).
Table open_tensor(const std::string& name) {
  io::OpenOptions o;
  o.tensor = name;
  o.dtype = DType::f16;
  return io::open_table(checkpoint(), o);
}

TEST(Gpt2Checkpoint, OpenByTensorNameTokenizeAndSearch) {
  LUMEN_REQUIRE_GPT2();
  Table t = open_tensor("wte.weight");
  ASSERT_EQ(t.V(), kGpt2V);
  ASSERT_EQ(t.d(), kGpt2d);
  EXPECT_TRUE(rows_are_numbered(t.vocab));

  // The chapter's init: wte ~ N(0, 0.02).
  double sum2 = 0;
  std::vector<float> row(t.d());
  for (std::size_t i = 0; i < t.V(); i += 97) {
    t.E.row_f32(i, row.data());
    for (float x : row) sum2 += double(x) * x;
  }
  const double sd = std::sqrt(sum2 / (double((t.V() + 96) / 97) * t.d()));
  EXPECT_NEAR(sd, 0.02, 0.0005);

  // The tokenizer.json beside the checkpoint is found, and labels the rows.
  const auto tok = tokenizer_for_table("", checkpoint(), t);
  ASSERT_TRUE(tok);
  EXPECT_EQ(tok->kind, "tokenizer.json");
  label_rows(t, *tok);
  EXPECT_EQ(t.vocab.token(3797), "\u2423cat");
  EXPECT_EQ(t.vocab.token(50256), "<|endoftext|>");
  EXPECT_EQ(t.vocab.require(" cat"), 3797);
  EXPECT_EQ(t.vocab.require("\u2423cat"), 3797);
  EXPECT_EQ(t.vocab.require("\u0120cat"), 3797);
  EXPECT_EQ(t.vocab.require("cat"), 9246);
  EXPECT_EQ(t.vocab.size(), kGpt2V);  // aliases are not rows

  const auto ids = tok->encode("The cat sat");
  EXPECT_EQ(ids, (std::vector<Id>{464, 3797, 3332}));

  // Neighbours of " cat": itself first (cosine 1), then others, as the brute-force reference ranks them.
  search::Searcher s(t, 1);
  search::SearchOptions so;
  so.k = 6;
  const auto q = s.row(3797);
  const auto got = s.search(q, so);
  ASSERT_EQ(got.size(), 6u);
  EXPECT_EQ(got[0].id, 3797);
  EXPECT_NEAR(got[0].score, 1.0f, 1e-3);
  const auto ref = search::brute_force(t, q, so);
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i].id, ref[i].id);
  // Random rows in 768 dimensions are nearly orthogonal: the nearest other token is far from 1.
  EXPECT_LT(got[1].score, 0.3f);

  // token -> one-hot (length V = 50,257) -> one-hot x E -> the row: the same numbers.
  std::vector<float> onehot(t.V(), 0.0f);
  onehot[3797] = 1.0f;
  std::vector<float> dense(t.d(), 0.0f), r(t.d());
  for (std::size_t i = 0; i < t.V(); ++i) {
    if (onehot[i] == 0.0f) continue;
    t.E.row_f32(i, r.data());
    for (std::size_t j = 0; j < t.d(); ++j) dense[j] += onehot[i] * r[j];
  }
  EXPECT_EQ(dense, q);
}

TEST(Gpt2Checkpoint, PositionTableAndMismatchedTokenizer) {
  LUMEN_REQUIRE_GPT2();
  Table t = open_tensor("wpe.weight");
  EXPECT_EQ(t.V(), kGpt2Ctx);
  EXPECT_EQ(t.d(), kGpt2d);
  // 1024 positions are not 50,257 tokens: labelling them by token is refused, clearly.
  const auto tok = tokenizer_for_table("", checkpoint(), t);
  ASSERT_TRUE(tok);
  try {
    label_rows(t, *tok);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("50257 ids but the table"), std::string::npos) << e.what();
  }
  // With --limit (the first rows only), labels are fine.
  label_rows(t, *tok, true);
  EXPECT_EQ(t.vocab.token(464), "The");
  EXPECT_FALSE(tokenizer_for_table("none", checkpoint(), t));
}

TEST(Gpt2Checkpoint, PaddedVocabularyGetsUnusedRows) {
  LUMEN_REQUIRE_GPT2();
  Table t;
  t.E = Matrix(50304, 4, DType::f32);  // nanoGPT pads V to a multiple of 64
  t.vocab = Vocab::numbered(50304);
  label_rows(t, gpt2());
  EXPECT_EQ(t.vocab.token(50256), "<|endoftext|>");
  EXPECT_EQ(t.vocab.token(50300), "<unused:50300>");
  EXPECT_EQ(t.vocab.require("\u0120the"), 262);
}

}  // namespace test_gpt2_checkpoint
