// lumen train word2vec | lm and lumen claims, run as a user would: exit codes, JSON, files, Ctrl-C and resume.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli_run.hpp"
#include "train_fixtures.hpp"

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>

namespace fs = std::filesystem;

namespace test_train {

using Run = lumen_cli::CliRun;
Run run(const std::string& args, const std::string& env = "") { return lumen_cli::run_cli(args, {.env = env}); }

std::string slurp(const fs::path& p) { return lumen::test::read_file(p.string()); }

// Sentences about animals or about politics, never both.
void write_corpus(const fs::path& p, int sentences) {
  const char* animals[] = {"cat", "dog", "horse", "mouse", "cow", "sheep"};
  const char* politics[] = {"parliament", "minister", "vote", "election", "senate", "law"};
  std::ofstream out(p);
  unsigned x = 12345;
  for (int s = 0; s < sentences; ++s) {
    const char** words = s % 2 ? politics : animals;
    for (int i = 0; i < 8; ++i) {
      x = x * 1103515245u + 12345u;
      out << (i ? " " : "") << ((x >> 16) % 4 == 0 ? "The" : words[(x >> 8) % 6]);
    }
    out << "\n";
  }
}

struct TempDir : lumen_cli::TestDir {
  TempDir() : TestDir("lumen-cli-train") {}
};

TEST(CliTrain, Word2vecWritesTableAndCounts) {
  TempDir d;
  write_corpus(d.path / "c.txt", 400);
  const auto out = (d.path / "v.vec").string();
  auto r = run("train word2vec " + (d.path / "c.txt").string() + " -o " + out +
               " --dim 8 --epochs 2 --min-count 1 --lower --threads 1 --json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["V"], 13);  // 12 topic words + "the" (lower-cased)
  EXPECT_EQ(j["d"], 8);
  EXPECT_EQ(j["format"], "word2vec-text");
  EXPECT_EQ(slurp(out).substr(0, 5), "13 8\n");
  const auto counts = slurp(out + ".vocab");
  EXPECT_EQ(counts.substr(0, 4), "the ");  // the most frequent word first
}

TEST(CliTrain, UsageAndInputErrors) {
  TempDir d;
  write_corpus(d.path / "c.txt", 50);
  const auto c = (d.path / "c.txt").string(), out = (d.path / "v.vec").string();
  EXPECT_EQ(run("train word2vec " + c + " -o " + out + " --model glove").code, 2);
  const auto dim0 = run("train word2vec " + c + " -o " + out + " --dim 0");
  EXPECT_EQ(dim0.code, 2);
  EXPECT_NE(dim0.err.find("lumen: --dim must be in 1..100000 (got 0)"), std::string::npos) << dim0.err;
  const auto ctx0 = run("train lm " + c + " -o " + out + " --context 0 --init-std 0.1");
  EXPECT_EQ(ctx0.code, 2);
  EXPECT_NE(ctx0.err.find("lumen: --context must be in 1..64 (got 0)"), std::string::npos) << ctx0.err;
  EXPECT_EQ(run("train word2vec " + c).code, 2);                                         // no -o
  EXPECT_EQ(run("train").code, 2);                                                       // no trainer
  EXPECT_EQ(run("train word2vec /nonexistent/c.txt -o " + out).code, 1);                 // missing corpus
  EXPECT_EQ(run("train word2vec " + c + " -o " + out + " --min-count 100000").code, 1);  // empty vocabulary
  EXPECT_EQ(run("train lm " + c + " -o " + out + " --optimizer rmsprop").code, 2);
  EXPECT_EQ(run("train word2vec --resume " + c + " " + c + " -o " + out).code, 1);  // not a checkpoint
  EXPECT_FALSE(fs::exists(out));
}

TEST(CliTrain, CtrlCWritesCheckpointAndResumeMatchesStraightRun) {
  TempDir d;
  write_corpus(d.path / "c.txt", 5000);
  const auto c = (d.path / "c.txt").string();
  const std::string opts = " --dim 16 --epochs 20 --min-count 1 --threads 1 --seed 3";
  const auto straight = (d.path / "straight.vec").string(), resumed = (d.path / "resumed.vec").string();
  ASSERT_EQ(run("train word2vec " + c + " -o " + straight + opts).code, 0);

  const auto ckpt = resumed + ".ckpt";
  // Periodic checkpoints change nothing in the result; the first one tells the test that training runs.
  const int code = lumen_cli::interrupted_run("train word2vec " + c + " -o " + resumed +
                                                  " --dim 16 --epochs 20 --min-count 1 --threads 1 --seed 3"
                                                  " --checkpoint-every 20000",
                                              ckpt);
  if (code == 0) GTEST_SKIP() << "training finished before the signal arrived";
  ASSERT_EQ(code, 130);
  ASSERT_TRUE(fs::exists(ckpt));
  EXPECT_FALSE(fs::exists(resumed));
  auto r = run("train word2vec --resume " + ckpt + " " + c + " -o " + resumed);
  ASSERT_EQ(r.code, 0);
  EXPECT_EQ(slurp(resumed), slurp(straight));
  EXPECT_FALSE(fs::exists(resumed + ".ckpt"));  // finished: the checkpoint is removed
}

TEST(CliTrain, LmReportsHeldOutPerplexityAndWritesTables) {
  TempDir d;
  write_corpus(d.path / "c.txt", 1500);
  const auto c = (d.path / "c.txt").string(), out = (d.path / "lm.vec").string();
  auto r = run("train lm " + c + " -o " + out +
               " --no-tie --dim 8 --hidden 16 --context 2 --epochs 2 --lr 0.005 "
               "--min-count 1 --json --threads 1");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["epochs"].size(), 2u);
  EXPECT_EQ(j["tied"], false);
  const double ppl = j["heldout_perplexity"];
  EXPECT_GT(ppl, 1.0);
  EXPECT_LT(ppl, 10.0);  // V = 15; the topic of a sentence makes it much easier than uniform
  EXPECT_TRUE(fs::exists(out));
  EXPECT_TRUE(fs::exists(out + ".out"));
  EXPECT_EQ(slurp(out).substr(0, 5), "15 8\n");  // </s>, <unk>, 13 words
}

TEST(CliTrain, ClaimsUseTheDefaultTableOrSayHowToBuildIt) {
  TempDir d;
  write_corpus(d.path / "brown.txt", 3000);
  const auto table = (d.path / "brown.vec").string();
  ASSERT_EQ(run("train word2vec " + (d.path / "brown.txt").string() + " -o " + table +
                " --dim 10 --epochs 5 --sample 0 --min-count 1 --lower --threads 1 --seed 1")
                .code,
            0);
  auto r = run("claims --json --lm-tokens 3000 --dim 8 --hidden 8 --skip-gpt", "LUMEN_DEFAULT_TABLE=" + table);
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_FALSE(j.contains("gpt_tying"));
  EXPECT_EQ(j["frequency_length"]["rows"], 13);
  ASSERT_FALSE(j["pairs"].empty());
  EXPECT_EQ(j["pairs"][0]["a"], "cat");
  EXPECT_GT(double(j["pairs"][0]["trained"]), double(j["pairs"][1]["trained"]));  // cat~dog above cat~parliament
  EXPECT_GT(double(j["tying"]["tied"]["heldout_perplexity"]), 1.0);
  EXPECT_GT(double(j["tying"]["untied"]["heldout_perplexity"]), 1.0);
  auto missing = run("claims --skip-lm --skip-gpt", "LUMEN_DEFAULT_TABLE=" + (d.path / "none.vec").string());
  EXPECT_EQ(missing.code, 1);
  const std::string err = run("claims --skip-lm --skip-gpt", "LUMEN_DEFAULT_TABLE=/nonexistent/t.vec").err;
  EXPECT_NE(err.find("make-default-table.sh"), std::string::npos) << err;
}

TEST(CliTrain, ClaimsTrainTiedAndUntiedGptsOverSeeds) {
  TempDir d;
  write_corpus(d.path / "brown.txt", 1500);
  const auto table = (d.path / "brown.vec").string();
  ASSERT_EQ(run("train word2vec " + (d.path / "brown.txt").string() + " -o " + table +
                " --dim 10 --epochs 1 --sample 0 --min-count 1 --lower --threads 1 --seed 1")
                .code,
            0);
  const std::string env = "LUMEN_DEFAULT_TABLE=" + table;
  const std::string shape =
      " --gpt-seeds 2 --gpt-steps 5 --gpt-layers 1 --gpt-d-model 8 --gpt-context 8 --gpt-batch 2"
      " --gpt-max-words 10 --gpt-eval-batches 1 --threads 1";
  const std::string tiny = shape + " --gpt-heads 2";
  auto r = run("claims --skip-lm --json" + tiny, env);
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.contains("gpt_tying")) << r.out;
  const auto& g = j["gpt_tying"];
  const std::uint64_t V = g["V"];
  EXPECT_GT(V, 10u + 256u);  // the words and the 256 bytes
  EXPECT_EQ(g["seeds"], nlohmann::json({1, 2}));
  EXPECT_EQ(std::uint64_t(g["untied"]["params"]) - std::uint64_t(g["tied"]["params"]), V * 8u);  // the head
  EXPECT_EQ(g["tied"]["heldout_perplexity"].size(), 2u);
  EXPECT_GT(double(g["untied"]["perplexity"]["mean"]), 1.0);
  EXPECT_EQ(g["spread"], "sample standard deviation over the seeds");
  const std::set<std::string> verdicts = {"tied_lower", "untied_lower", "within_spread"};
  EXPECT_TRUE(verdicts.contains(std::string(g["verdict"]))) << g["verdict"];
  EXPECT_FALSE(j.contains("tying"));  // --skip-lm

  auto text = run("claims --skip-lm" + tiny, env);
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("4. The tying claim again, on a transformer."), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("beyond the seed spread"), std::string::npos) << text.out;
  for (const char* row : {"5. \"Tying acts as a regulariser", "6. \"'a' and 'an'", "7. \"The cleanest concept"})
    EXPECT_NE(text.out.find(row), std::string::npos) << row << "\n" << text.out;
  EXPECT_TRUE(g.contains("rare_targets"));
  EXPECT_EQ(g["function_words"]["pairs"].size(), 2u);        // each seed's untied model
  EXPECT_EQ(g["depth"]["probe_gain"]["values"].size(), 4u);  // every model
  const std::set<std::string> depth = {"deeper_higher", "row0_higher", "within_spread"};
  EXPECT_TRUE(depth.contains(std::string(g["depth"]["probe_gain"]["verdict"]))) << g["depth"];
  auto skip = run("claims --skip-lm --json --analogies \"\"" + tiny, env);
  ASSERT_EQ(skip.code, 0) << skip.err;
  EXPECT_TRUE(nlohmann::json::parse(skip.out)["gpt_tying"]["depth"].is_null());
  auto bad_fraction = run("claims --skip-lm --gpt-rare-fraction 2" + tiny, env);
  EXPECT_EQ(bad_fraction.code, 2);
  EXPECT_NE(bad_fraction.err.find("--gpt-rare-fraction"), std::string::npos) << bad_fraction.err;

  auto bad = run("claims --skip-lm" + shape + " --gpt-heads 3", env);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--gpt-heads (3) must divide d_model (8)"), std::string::npos) << bad.err;
  auto none = run("claims --skip-lm --corpus " + (d.path / "none.txt").string() + tiny, env);
  EXPECT_EQ(none.code, 1);
  EXPECT_NE(none.err.find("(give --corpus, or --skip-gpt)"), std::string::npos) << none.err;
}

TEST(CliTrain, ClaimsAboutACheckpoint) {
  const std::string untied = std::string(LUMEN_SOURCE_DIR) + "/tests/data/model/gpt2-untied-bf16";
  auto r = run("claims --model " + untied + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_FALSE(j["tied"].get<bool>());
  EXPECT_EQ(j["depth"]["layers"], 3);
  EXPECT_EQ(j["probe_gain"]["over"], "folds");
  EXPECT_FALSE(j.contains("gpt_tying"));  // --model: that checkpoint's claims only
  auto text = run("claims --model " + std::string(LUMEN_SOURCE_DIR) + "/tests/data/model/gpt2");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("not measured: the model is tied"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("best deeper layer minus row 0"), std::string::npos) << text.out;
  EXPECT_EQ(run("claims --model /nonexistent/model").code, 1);
}

}  // namespace test_train
