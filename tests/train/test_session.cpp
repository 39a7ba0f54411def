// Training sessions (lumen/train/session.hpp): what `lumen train` and Python's lumen.train run.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <set>

#include "helpers.hpp"
#include "lumen/core/error.hpp"
#include "lumen/io/open.hpp"
#include "lumen/train/result_json.hpp"
#include "lumen/train/session.hpp"

using namespace lumen;
using namespace lumen::train;
namespace fs = std::filesystem;

namespace test_session {

struct Dir {
  fs::path path;
  SessionCorpus corpus;
  explicit Dir(const std::string& name, std::size_t sentences = 1200) : path(test::temp_dir(name)) {
    test::write_text(path / "c.txt", test::topic_corpus(sentences));
    corpus = {{(path / "c.txt").string()}, 1, 0};
  }
  ~Dir() { fs::remove_all(path); }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
  std::set<std::string> files() const {
    std::set<std::string> out;
    for (const auto& e : fs::directory_iterator(path)) out.insert(e.path().filename().string());
    return out;
  }
};

Word2VecOptions small_w2v() { return {.dim = 12, .epochs = 2, .sample = 0, .seed = 3, .threads = 1}; }

LmOptions small_lm(bool tie) {
  return {.context = 2, .dim = 8, .hidden = 12, .tie = tie, .batch = 32, .epochs = 2, .holdout = 0.1, .threads = 1};
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool same(const Table& a, const Table& b) {
  return a.V() == b.V() && a.d() == b.d() && std::memcmp(a.E.data(), b.E.data(), a.E.bytes()) == 0;
}

TEST(TrainSession, Word2VecFreshWritesTableAndCountsAndSaysSo) {
  Dir d("session-w2v");
  std::vector<SessionPhase> phases;
  SessionControl c;
  c.on_progress = [&](const SessionProgress& p) {
    if (phases.empty() || phases.back() != p.phase) phases.push_back(p.phase);
  };
  const auto r = train_word2vec(d.corpus, small_w2v(), {.table = d / "t.vec"}, c);
  EXPECT_EQ(r.status, SessionStatus::finished);
  EXPECT_EQ(phases, (std::vector{SessionPhase::vocabulary, SessionPhase::training}));
  EXPECT_EQ(r.written, (std::vector{d / "t.vec", d / "t.vec.vocab"}));
  EXPECT_EQ(d.files(), (std::set<std::string>{"c.txt", "t.vec", "t.vec.vocab"}));  // no checkpoint, no temporary
  EXPECT_EQ(r.format, io::Format::word2vec_text);
  EXPECT_EQ(r.words_done, r.words_this_run);
  EXPECT_GT(r.corpus_tokens, 0u);
  const Table back = io::open_table(d / "t.vec");
  EXPECT_EQ(back.V(), r.table.V());
  EXPECT_EQ(back.vocab.token(0), r.table.vocab.token(0));
  const auto j = word2vec_result_json(r);
  EXPECT_EQ(j["output"], d / "t.vec");
  EXPECT_EQ(j["vocab_file"], d / "t.vec.vocab");
  EXPECT_EQ(j["d"], 12);
  EXPECT_EQ(j["model"], "skipgram");
  EXPECT_EQ(j["words"], r.words_done);
}

TEST(TrainSession, Word2VecStoppedAndResumedMatchesAStraightRunBitForBit) {
  Dir d("session-w2v-resume");
  const auto straight = train_word2vec(d.corpus, small_w2v(), {});  // nothing written: the table comes back
  EXPECT_TRUE(straight.written.empty());
  EXPECT_EQ(d.files(), std::set<std::string>{"c.txt"});

  std::atomic<bool> stop{false};
  SessionControl c;
  c.stop = &stop;
  c.checkpoint_every = straight.words_done / 3;
  c.on_checkpoint = [&](const std::string&) { stop = true; };  // the first checkpoint: a third of the way
  const SessionOutputs out{.table = d / "t.bin"};
  const auto first = train_word2vec(d.corpus, small_w2v(), out, c);
  EXPECT_EQ(first.status, SessionStatus::stopped);
  EXPECT_EQ(first.checkpoint, d / "t.bin.ckpt");
  EXPECT_TRUE(first.written.empty());
  EXPECT_EQ(d.files(), (std::set<std::string>{"c.txt", "t.bin.ckpt"}));  // a checkpoint, no outputs
  EXPECT_LT(first.words_done, straight.words_done);

  SessionControl resume;
  resume.resume = first.checkpoint;
  const auto second = train_word2vec(d.corpus, {.dim = 99}, out, resume);  // the checkpoint's options are used
  EXPECT_EQ(second.status, SessionStatus::finished);
  EXPECT_EQ(second.options.dim, 12u);
  EXPECT_EQ(second.words_done, straight.words_done);
  EXPECT_EQ(second.words_this_run, straight.words_done - first.words_done);
  EXPECT_EQ(second.format, io::Format::word2vec_binary);
  EXPECT_TRUE(same(second.table, straight.table));
  EXPECT_TRUE(same(io::open_table(d / "t.bin"), straight.table));
  EXPECT_EQ(d.files(), (std::set<std::string>{"c.txt", "t.bin", "t.bin.vocab"}));  // the checkpoint is removed
}

TEST(TrainSession, LmStoppedAfterAnEpochAndResumedMatchesAStraightRun) {
  Dir d("session-lm");
  const auto straight = train_lm(d.corpus, small_lm(false), {});
  ASSERT_EQ(straight.epochs.size(), 2u);
  EXPECT_EQ(straight.head.V(), straight.table.V());

  std::atomic<bool> stop{false};
  SessionControl c;
  c.stop = &stop;
  int epochs = 0;
  c.on_epoch = [&](const LmEpoch&) {
    ++epochs;
    stop = true;
  };
  const SessionOutputs out{.table = d / "lm.vec", .checkpoint = d / "lm.ckpt"};
  const auto first = train_lm(d.corpus, small_lm(false), out, c);
  EXPECT_EQ(epochs, 1);
  EXPECT_EQ(first.status, SessionStatus::stopped);
  EXPECT_EQ(first.epochs.size(), 1u);
  EXPECT_EQ(d.files(), (std::set<std::string>{"c.txt", "lm.ckpt"}));

  SessionControl resume;
  resume.resume = d / "lm.ckpt";
  const auto second = train_lm(d.corpus, small_lm(true), out, resume);
  EXPECT_EQ(second.status, SessionStatus::finished);
  EXPECT_FALSE(second.options.tie);  // the checkpoint's
  ASSERT_EQ(second.epochs.size(), 2u);
  EXPECT_EQ(second.epochs[1].heldout_perplexity, straight.epochs[1].heldout_perplexity);
  EXPECT_TRUE(same(second.table, straight.table));
  EXPECT_TRUE(same(second.head, straight.head));
  EXPECT_EQ(second.written, (std::vector{d / "lm.vec", d / "lm.vec.out", d / "lm.vec.vocab"}));
  EXPECT_EQ(d.files(), (std::set<std::string>{"c.txt", "lm.vec", "lm.vec.out", "lm.vec.vocab"}));
  const auto j = lm_result_json(second);
  EXPECT_EQ(j["output_head"], d / "lm.vec.out");
  EXPECT_EQ(j["epochs"].size(), 2u);
  EXPECT_EQ(j["heldout_perplexity"], straight.epochs[1].heldout_perplexity);
  EXPECT_EQ(j["tied"], false);
}

TEST(TrainSession, StoppedWhileCountingWritesNothing) {
  Dir d("session-stop-early");
  std::atomic<bool> stop{false};
  SessionControl c;
  c.stop = &stop;
  c.on_progress = [&](const SessionProgress&) { stop = true; };
  const auto w = train_word2vec(d.corpus, small_w2v(), {.table = d / "t.vec"}, c);
  EXPECT_EQ(w.status, SessionStatus::stopped_before_training);
  const auto l = train_lm(d.corpus, small_lm(true), {.table = d / "t.vec"}, c);
  EXPECT_EQ(l.status, SessionStatus::stopped_before_training);
  EXPECT_EQ(d.files(), std::set<std::string>{"c.txt"});
}

TEST(TrainSession, BadOutputsAndCorporaFailBeforeTrainingAndWriteNothing) {
  Dir d("session-errors");
  int reports = 0;
  SessionControl c;
  c.on_progress = [&](const SessionProgress&) { ++reports; };
  EXPECT_THROW(train_word2vec(d.corpus, small_w2v(), {.table = d / "no/such/folder/t.vec"}, c), IoError);
  EXPECT_THROW(train_lm(d.corpus, small_lm(true), {.table = d / "t.vec", .head = d / "none/w.vec"}, c), IoError);
  fs::create_directory(d.path / "sub");
  EXPECT_THROW(train_word2vec(d.corpus, small_w2v(), {.table = d / "t.vec", .vocab = d / "sub"}, c), IoError);
  EXPECT_THROW(train_word2vec(d.corpus, small_w2v(), {.table = d / "t.vec", .format = "mp3"}, c), UsageError);
  EXPECT_THROW(train_word2vec(d.corpus, small_w2v(), {.table = "-", .format = "npy"}, c), UsageError);
  EXPECT_THROW(train_word2vec({}, small_w2v(), {.table = d / "t.vec"}, c), UsageError);
  SessionControl resume = c;
  resume.resume = d / "t.ckpt";
  try {
    train_lm({}, small_lm(true), {.table = d / "t.vec"}, resume);
    ADD_FAILURE() << "no corpus to resume over";
  } catch (const OptionError& e) {
    EXPECT_EQ(e.option(), "resume");
    EXPECT_EQ(e.text_for("--resume"), "--resume needs the corpus it was trained on");
  }
  EXPECT_EQ(reports, 0);
  // A checkpoint that is not one, and bad options, once the corpus is read: still nothing written.
  EXPECT_THROW(train_word2vec(d.corpus, small_w2v(), {.table = d / "t.vec"}, {.resume = d / "c.txt"}), InputError);
  EXPECT_THROW(train_lm(d.corpus, {.context = 0}, {.table = d / "t.vec"}), OptionError);
  EXPECT_THROW(train_word2vec({{d / "missing.txt"}}, small_w2v(), {.table = d / "t.vec"}), IoError);
  EXPECT_EQ(d.files(), (std::set<std::string>{"c.txt", "sub"}));
}

TEST(TrainSession, AnOutputThatFailsLeavesNoTemporaryAndKeepsTheCheckpoint) {
  Dir d("session-write-fails");
  fs::create_directory(d.path / "sub");
  SessionControl c;
  c.checkpoint_every = 2000;
  // The counts' folder goes away while training runs: the table is written whole, the counts cannot be.
  c.on_progress = [&](const SessionProgress& p) {
    if (p.phase == SessionPhase::training) fs::remove_all(d.path / "sub");
  };
  EXPECT_THROW(train_word2vec(d.corpus, small_w2v(), {.table = d / "t.vec", .vocab = d / "sub/t.vocab"}, c), IoError);
  EXPECT_EQ(d.files(), (std::set<std::string>{"c.txt", "t.vec", "t.vec.ckpt"}));
  EXPECT_NO_THROW(Word2Vec::load_checkpoint(d / "t.vec.ckpt", Corpus::open(d.corpus.paths)));
}

// Issue #35, item 2: no output of a session (table, head, counts, checkpoint, a table's companion file) may be a
// file it reads (the corpus's, a checkpoint resumed from), by any spelling or link; refused before any work.
TEST(TrainSession, OutputsThatAreInputsAreRefusedAndTheCorpusKept) {
  Dir d("session-apart");
  const std::string corpus = read_all(d / "c.txt");
  fs::create_symlink("c.txt", d.path / "link.vec");
  fs::create_hard_link(d.path / "c.txt", d.path / "hard.txt");
  int reports = 0;
  SessionControl c;
  c.on_progress = [&](const SessionProgress&) { ++reports; };
  const auto refused = [&](const std::function<void()>& f, const std::string& output) {
    try {
      f();
      ADD_FAILURE() << output << " was accepted";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(output), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(d / "c.txt"), std::string::npos) << e.what();
    }
  };
  refused([&] { train_word2vec(d.corpus, small_w2v(), {.table = d / "c.txt"}, c); }, d / "c.txt");
  refused([&] { train_word2vec(d.corpus, small_w2v(), {.table = d / "link.vec"}, c); }, d / "link.vec");
  refused([&] { train_word2vec(d.corpus, small_w2v(), {.table = d / "t.vec", .vocab = d / "hard.txt"}, c); },
          d / "hard.txt");
  refused([&] { train_word2vec(d.corpus, small_w2v(), {.table = d / "t.vec", .checkpoint = d / "./c.txt"}, c); },
          d / "./c.txt");
  refused([&] { train_lm(d.corpus, small_lm(false), {.table = d / "t.vec", .head = d / "c.txt"}, c); }, d / "c.txt");
  // The .npy's vocabulary file, written beside it: c.npy -> c.vocab.txt.
  fs::copy_file(d.path / "c.txt", d.path / "c.vocab.txt");
  SessionCorpus vocab_corpus = d.corpus;
  vocab_corpus.paths = {d / "c.vocab.txt"};
  EXPECT_THROW(train_word2vec(vocab_corpus, small_w2v(), {.table = d / "c.npy"}, c), UsageError);
  EXPECT_EQ(reports, 0);  // refused before the vocabulary was counted
  EXPECT_EQ(read_all(d / "c.txt"), corpus);
  EXPECT_EQ(d.files(), (std::set<std::string>{"c.txt", "c.vocab.txt", "hard.txt", "link.vec"}));
}

}  // namespace test_session
