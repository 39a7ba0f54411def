#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>

#include "helpers.hpp"
#include "lumen/core/error.hpp"
#include "lumen/train/vocabulary.hpp"
#include "lumen/train/word2vec.hpp"

using namespace lumen;
using namespace lumen::train;

namespace test_word2vec {
double cosine(const Matrix& E, Id a, Id b) {
  auto x = E.row(static_cast<std::size_t>(a)), y = E.row(static_cast<std::size_t>(b));
  double xy = 0, xx = 0, yy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    xy += x[i] * y[i];
    xx += x[i] * x[i];
    yy += y[i] * y[i];
  }
  return xy / std::sqrt(xx * yy);
}

struct Fixture {
  std::filesystem::path dir;
  Corpus corpus;
  Vocab vocab;
  explicit Fixture(const std::string& name, std::size_t sentences = 3000)
      : dir(test::temp_dir(name)), corpus([&] {
          test::write_text(dir / "c.txt", test::topic_corpus(sentences));
          return Corpus::open({(dir / "c.txt").string()});
        }()) {
    vocab = build_vocab(corpus, text::WordSplitter(), {.min_count = 1});
  }
  ~Fixture() { std::filesystem::remove_all(dir); }
};

Word2VecOptions small(W2VModel m, std::size_t threads = 1) {
  Word2VecOptions o;
  o.model = m;
  o.dim = 20;
  o.epochs = 3;
  o.sample = 0;
  o.threads = threads;
  o.seed = 5;
  return o;
}

TEST(Word2Vec, SkipGramLearnsWhatCoOccurs) {
  Fixture f("w2v-sg");
  Word2Vec w(f.corpus, f.vocab, small(W2VModel::skipgram, 2));
  const auto cat = f.vocab.require("cat"), dog = f.vocab.require("dog"), parl = f.vocab.require("parliament"),
             vote = f.vocab.require("vote");
  EXPECT_LT(std::abs(cosine(w.input(), cat, dog) - cosine(w.input(), cat, parl)), 0.5);  // at init: no structure
  ASSERT_TRUE(w.train());
  EXPECT_TRUE(w.finished());
  EXPECT_GT(cosine(w.input(), cat, dog), cosine(w.input(), cat, parl) + 0.3);
  EXPECT_GT(cosine(w.input(), parl, vote), cosine(w.input(), dog, vote) + 0.3);
  EXPECT_EQ(w.status().words_done, w.status().words_total);  // every in-vocabulary token, every epoch
}

TEST(Word2Vec, CbowLearnsWhatCoOccurs) {
  Fixture f("w2v-cbow");
  Word2Vec w(f.corpus, f.vocab, small(W2VModel::cbow, 1));
  ASSERT_TRUE(w.train());
  const auto cat = f.vocab.require("cat"), dog = f.vocab.require("dog"), parl = f.vocab.require("parliament");
  EXPECT_GT(cosine(w.input(), cat, dog), cosine(w.input(), cat, parl) + 0.3);
}

TEST(Word2Vec, SameSeedSameTableSingleThreaded) {
  Fixture f("w2v-det");
  Word2Vec a(f.corpus, f.vocab, small(W2VModel::skipgram));
  Word2Vec b(f.corpus, f.vocab, small(W2VModel::skipgram));
  a.train();
  b.train();
  EXPECT_EQ(0, std::memcmp(a.input().data(), b.input().data(), a.input().bytes()));
  auto o = small(W2VModel::skipgram);
  o.seed = 6;
  Word2Vec c(f.corpus, f.vocab, o);
  c.train();
  EXPECT_NE(0, std::memcmp(a.input().data(), c.input().data(), a.input().bytes()));
}

TEST(Word2Vec, StopCheckpointResumeIsBitForBit) {
  for (auto model : {W2VModel::skipgram, W2VModel::cbow}) {
    Fixture f("w2v-resume");
    auto o = small(model);
    o.sample = 1e-2;  // exercise the subsampling draws too
    Word2Vec straight(f.corpus, f.vocab, o);
    ASSERT_TRUE(straight.train());

    Word2Vec first(f.corpus, f.vocab, o);
    const auto ckpt = (f.dir / "w.ckpt").string();
    // The first checkpoint is the half-way point: stop there.
    const auto [done, checkpoints] = test::train_to_first_checkpoint(first, straight.status().words_total / 2, ckpt);
    EXPECT_FALSE(done);
    EXPECT_EQ(checkpoints, 1);
    EXPECT_FALSE(first.finished());
    auto resumed = Word2Vec::load_checkpoint(ckpt, f.corpus);
    EXPECT_EQ(resumed.status().words_done, first.status().words_done);
    ASSERT_TRUE(resumed.train());
    EXPECT_EQ(0, std::memcmp(resumed.input().data(), straight.input().data(), straight.input().bytes()));
    EXPECT_EQ(0, std::memcmp(resumed.output().data(), straight.output().data(), straight.output().bytes()));
  }
}

TEST(Word2Vec, CheckpointOfAnotherCorpusOrTruncatedIsAnError) {
  Fixture f("w2v-badckpt");
  Word2Vec w(f.corpus, f.vocab, small(W2VModel::skipgram));
  const auto ckpt = (f.dir / "w.ckpt").string();
  w.save_checkpoint(ckpt);
  test::write_text(f.dir / "other.txt", "a b c\n");
  auto other = Corpus::open({(f.dir / "other.txt").string()});
  EXPECT_THROW(Word2Vec::load_checkpoint(ckpt, other), InputError);
  std::filesystem::resize_file(ckpt, std::filesystem::file_size(ckpt) - 10);
  EXPECT_THROW(Word2Vec::load_checkpoint(ckpt, f.corpus), ParseError);
  test::write_text(f.dir / "junk", "not a checkpoint at all");
  EXPECT_THROW(Word2Vec::load_checkpoint((f.dir / "junk").string(), f.corpus), ParseError);
}

// Found by fuzz_train_checkpoint (seed regress-words-done-past-total): a checkpoint whose progress lies past
// the end of training loaded, and resuming it would have run with a negative learning rate.
TEST(Word2Vec, CheckpointPastTheEndOfTrainingIsAParseError) {
  Fixture f("w2v-pastend");
  auto o = small(W2VModel::skipgram);
  o.epochs = 2;
  Word2Vec w(f.corpus, f.vocab, o);
  std::atomic<bool> stop{false};
  TrainControl ctl;
  ctl.stop = &stop;
  ctl.checkpoint_every = w.status().words_total * 3 / 4;  // stop three quarters through: in epoch 2
  const auto ckpt = (f.dir / "w.ckpt").string();
  ctl.on_checkpoint = [&] {
    w.save_checkpoint(ckpt);
    stop = true;
  };
  EXPECT_FALSE(w.train(ctl));
  EXPECT_NO_THROW(Word2Vec::load_checkpoint(ckpt, f.corpus));
  // The same file claiming one epoch in all: its progress (over 1.5 epochs) is past the end.
  std::string bytes;
  {
    std::ifstream in(ckpt, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const std::uint64_t one = 1;
  bytes.replace(16 + 4 * 8, 8, reinterpret_cast<const char*>(&one), 8);  // magic (16), model, dim, window, negative
  std::ofstream(ckpt, std::ios::binary | std::ios::trunc) << bytes;
  EXPECT_THROW(Word2Vec::load_checkpoint(ckpt, f.corpus), ParseError);
}

// Found by fuzz_train_checkpoint (seed regress-nan-weights-index-sigmoid-table): NaN weights in a resumed
// checkpoint made the sigmoid/log look-ups index their tables with a NaN (undefined behaviour, UBSan). Training
// must go on (the NaN spreads, as it would in any trainer) without reading outside the tables.
TEST(Word2Vec, NanWeightsInACheckpointDoNotBreakTheLookups) {
  Fixture f("w2v-nan", 300);
  auto o = small(W2VModel::skipgram);
  o.epochs = 1;
  o.threads = 1;
  const Word2Vec w(f.corpus, f.vocab, o);
  const auto ckpt = (f.dir / "w.ckpt").string();
  w.save_checkpoint(ckpt);
  std::string bytes;
  {
    std::ifstream in(ckpt, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  // The file ends with E then Eout, each (rows u64, cols u64, rows x cols f32): poison every weight of both.
  const std::size_t n = f.vocab.size() * o.dim;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (std::size_t i = 0; i < n; ++i) {
    std::memcpy(bytes.data() + bytes.size() - 4 * (i + 1), &nan, 4);               // Eout
    std::memcpy(bytes.data() + bytes.size() - 4 * n - 16 - 4 * (i + 1), &nan, 4);  // E
  }
  std::ofstream(ckpt, std::ios::binary | std::ios::trunc) << bytes;
  auto resumed = Word2Vec::load_checkpoint(ckpt, f.corpus);
  EXPECT_TRUE(resumed.train());
  EXPECT_TRUE(std::isnan(resumed.input().f32()[0]));
}

TEST(Word2Vec, BadOptionsAndTinyVocabulary) {
  Fixture f("w2v-bad");
  auto o = small(W2VModel::skipgram);
  o.dim = 0;
  EXPECT_THROW(Word2Vec(f.corpus, f.vocab, o), UsageError);
  Vocab one;
  one.add("cat", 5);
  EXPECT_THROW(Word2Vec(f.corpus, one, small(W2VModel::skipgram)), InputError);
  EXPECT_THROW(parse_w2v_model("glove"), UsageError);
}

}  // namespace test_word2vec
