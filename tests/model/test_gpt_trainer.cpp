// The GPT training session: it learns a patterned stream, a stop at step k + resume equals the straight run bit for
// bit, the Hugging Face directory it writes loads back into lumen's model with the same losses, and the
// schedule and clipping do what they say (AdamW itself: tests/train/test_optimizer.cpp).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/model/checkpoint.hpp"
#include "lumen/model/gpt_backprop.hpp"
#include "lumen/model/gpt_trainer.hpp"
#include "lumen/model/hf_export.hpp"
#include "lumen/model/ops.hpp"
#include "lumen/model/schedule.hpp"
#include "lumen/nn/loss.hpp"
#include "tiny_gpt.hpp"

using namespace lumen;
using namespace lumen::model;
namespace fs = std::filesystem;

namespace test_gpt_trainer {

// A stream with structure: runs of a counting pattern, some noise from an Rng.
std::vector<std::int32_t> pattern_stream(std::size_t n, std::size_t V) {
  std::vector<std::int32_t> t(n);
  Rng rng(5);
  for (std::size_t i = 0; i < n; ++i)
    t[i] = rng.uniform() < 0.1 ? static_cast<std::int32_t>(rng.below(V)) : static_cast<std::int32_t>((i * 3) % V);
  return t;
}

GptTrainOptions tiny_options() { return model::testing::tiny_gpt_options(); }

std::string temp_path(const std::string& what) {
  return (fs::temp_directory_path() / ("lumen_gpt_" + what + "_" + std::to_string(getpid()))).string();
}

TEST(GptTrainer, LearnsAPatternedStream) {
  const auto tokens = pattern_stream(4000, 16);
  GptTrainOptions o = tiny_options();
  o.steps = 80;
  o.eval_every = 0;
  GptTrainer t(tokens, 16, o);
  const double before = t.evaluate().heldout_loss;
  EXPECT_NEAR(before, std::log(16.0), 0.2);  // GPT-2's small init: close to uniform
  ASSERT_TRUE(t.train());
  ASSERT_EQ(t.history().size(), 1u);
  EXPECT_LT(t.history().back().heldout_loss, before - 1.0);
  EXPECT_NEAR(t.history().back().heldout_perplexity, std::exp(t.history().back().heldout_loss), 1e-9);
}

TEST(GptTrainer, StopAndResumeIsBitForBit) {
  const auto tokens = pattern_stream(3000, 16);
  for (bool tie : {true, false}) {
    GptTrainOptions o = tiny_options();
    o.tie = tie;
    GptTrainer straight(tokens, 16, o);
    ASSERT_TRUE(straight.train());

    GptTrainer first(tokens, 16, o);
    std::atomic<bool> stop{false};
    train::TrainControl c;
    c.stop = &stop;
    ASSERT_FALSE(first.train(c, [&](const GptStep& s) {
      if (s.step == 5) stop = true;
    }));
    EXPECT_EQ(first.step(), 5u);
    const std::string path = temp_path("ckpt");
    first.save_checkpoint(path);
    GptTrainer resumed = GptTrainer::load_checkpoint(path, tokens);
    fs::remove(path);
    EXPECT_EQ(resumed.step(), 5u);
    ASSERT_TRUE(resumed.train());
    const auto a = tensors(straight.weights());
    const auto b = tensors(resumed.weights());
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
      EXPECT_EQ(a[i]->out_in(), b[i]->out_in()) << "tensor " << i << (tie ? " tied" : "");
    ASSERT_EQ(straight.history().size(), resumed.history().size());
    for (std::size_t i = 0; i < straight.history().size(); ++i) {
      EXPECT_EQ(straight.history()[i].heldout_loss, resumed.history()[i].heldout_loss);
      EXPECT_EQ(straight.history()[i].train_loss, resumed.history()[i].train_loss);
    }
  }
}

TEST(GptTrainer, ResumeChecksTheStream) {
  const auto tokens = pattern_stream(3000, 16);
  GptTrainer t(tokens, 16, tiny_options());
  const std::string path = temp_path("ckpt2");
  t.save_checkpoint(path);
  auto other = tokens;
  other[10] = (other[10] + 1) % 16;
  EXPECT_THROW(GptTrainer::load_checkpoint(path, other), InputError);
  // Cut short, or a size field damaged: a ParseError before anything is allocated.
  const auto size = fs::file_size(path);
  fs::resize_file(path, size - 4);
  EXPECT_THROW(GptTrainer::load_checkpoint(path, tokens), ParseError);
  fs::remove(path);
}

TEST(GptTrainer, ExportLoadsBackWithTheSameLosses) {
  const auto tokens = pattern_stream(3000, 16);
  for (bool tie : {true, false}) {
    GptTrainOptions o = tiny_options();
    o.tie = tie;
    o.steps = 3;
    GptTrainer t(tokens, 16, o);
    ASSERT_TRUE(t.train());
    const std::string dir = temp_path(tie ? "hf_tied" : "hf_untied");
    t.export_hf(dir, "");
    LoadReport report;
    const Transformer m = load_checkpoint(dir, &report);
    EXPECT_EQ(m.tied(), tie);
    EXPECT_EQ(m.shape().layers, 2u);
    const std::vector<std::int32_t> ids(tokens.begin(), tokens.begin() + 8), tg(tokens.begin() + 1, tokens.begin() + 9);
    const ForwardResult r = m.forward(ids, {.threads = 1});
    std::vector<float> losses(8);
    nn::cross_entropy(r.logits, tg, 16, 1, losses);
    GptBackprop pass(t.shape(), 1, 8);
    pass.forward(t.weights(), ids.data(), tg.data(), 1);
    // One block loop (block.hpp) for inference and training: the same losses bit for bit, not merely close.
    for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(losses[i], pass.losses()[i]) << i;
    fs::remove_all(dir);
  }
}

TEST(GptTrainer, RejectsBadOptionsAndShortStreams) {
  const auto tokens = pattern_stream(3000, 16);
  GptTrainOptions o = tiny_options();
  o.heads = 3;
  EXPECT_THROW(GptTrainer(tokens, 16, o), OptionError);
  o = tiny_options();
  o.lr = 0;
  EXPECT_THROW(GptTrainer(tokens, 16, o), OptionError);
  o = tiny_options();
  o.context = 200;  // the held-out 5% (150 tokens) is shorter than a window
  EXPECT_THROW(GptTrainer(tokens, 16, o), InputError);
  auto bad = tokens;
  bad[3] = 16;
  EXPECT_THROW(GptTrainer(bad, 16, tiny_options()), IdError);
}

TEST(GptSchedule, WarmupCosineAndClipping) {
  EXPECT_FLOAT_EQ(cosine_lr(0, 100, 10, 1.0f, 0.1f), 0.1f);
  EXPECT_FLOAT_EQ(cosine_lr(9, 100, 10, 1.0f, 0.1f), 1.0f);
  EXPECT_FLOAT_EQ(cosine_lr(10, 100, 10, 1.0f, 0.1f), 1.0f);
  EXPECT_NEAR(cosine_lr(99, 100, 10, 1.0f, 0.1f), 0.1f, 1e-6);
  EXPECT_NEAR(cosine_lr(10 + 89 / 2, 100, 10, 1.0f, 0.1f), 0.55f, 0.02);
  std::vector<float> g1{3, 0}, g2{4};
  EXPECT_NEAR(clip_grad_norm({g1.data(), g2.data()}, {2, 1}, 1.0), 5.0, 1e-9);
  EXPECT_NEAR(std::sqrt(g1[0] * g1[0] + g2[0] * g2[0]), 1.0, 1e-5);
  std::vector<float> g3{0.3f};
  clip_grad_norm({g3.data()}, {1}, 1.0);
  EXPECT_FLOAT_EQ(g3[0], 0.3f);  // under the limit: untouched
}

// Issue #35, item 17: exporting into an existing directory replaces it whole, so another tokenizer's files never
// stay beside the new model; a directory holding files of other names is refused, never deleted.
TEST(GptTrainer, ExportReplacesTheDirectoryWhole) {
  const auto tokens = pattern_stream(3000, 16);
  GptTrainOptions o = tiny_options();
  o.steps = 1;
  GptTrainer t(tokens, 16, o);
  ASSERT_TRUE(t.train());
  const std::string dir = temp_path("hf_replaced");
  fs::remove_all(dir);
  fs::create_directory(dir);
  for (const char* f : {"encoder.json", "vocab.bpe", "vocab.json", "merges.txt"})  // an earlier GPT-2-tokenizer run
    std::ofstream(fs::path(dir) / f) << "old";
  t.export_hf(dir, "", "{\"model\": {}}\n");  // a word tokenizer this time
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"config.json", "model.safetensors", "tokenizer.json"}));
  for (const auto& e : fs::directory_iterator(fs::path(dir).parent_path()))  // nothing left beside it
    EXPECT_EQ(e.path().filename().string().find(fs::path(dir).filename().string() + ".tmp-"), std::string::npos);
  std::ofstream(fs::path(dir) / "README.md") << "mine";
  EXPECT_THROW(check_gpt2_destination(dir), UsageError);
  EXPECT_THROW(t.export_hf(dir, ""), UsageError);
  EXPECT_TRUE(fs::exists(fs::path(dir) / "README.md"));
  EXPECT_TRUE(fs::exists(fs::path(dir) / "tokenizer.json"));
  fs::remove_all(dir);
}

// Issue #35, item 17: a resumed run keeps its checkpoint's options; what it was asked that differs comes back as
// notes (the library never prints; the CLI does, for the options its user gave).
TEST(GptTrainer, ResumeNotesNameTheOptionsAResumedRunDoesNotUse) {
  GptTrainOptions kept = tiny_options(), asked = tiny_options();
  EXPECT_TRUE(resume_notes(asked, kept).empty());
  asked.layers = 3;
  asked.tie = false;
  asked.lr = 0.5f;
  const auto notes = resume_notes(asked, kept);
  ASSERT_EQ(notes.size(), 3u);
  EXPECT_EQ(notes[0].option, "layers");
  EXPECT_EQ(notes[0].asked, "3");
  EXPECT_EQ(notes[0].kept, "2");
  EXPECT_EQ(notes[0].text_for("--layers"),
            "--layers is 3 here, but the checkpoint was made with 2: a resumed run keeps its checkpoint's options, "
            "so 2 is used");
  EXPECT_EQ(notes[1].option, "tie");
  EXPECT_EQ(notes[1].asked, "untied");
  EXPECT_EQ(notes[2].option, "lr");
  EXPECT_EQ(notes[2].asked, "0.5");
}

}  // namespace test_gpt_trainer
