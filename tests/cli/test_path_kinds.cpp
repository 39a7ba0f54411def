// Paths that are not what a command expects (issue #35 items 7 and 13): a FIFO where a checkpoint's config.json
// or tokenizer.json should be is refused at once (it used to hang gpt, params and serve --model), and a
// directory, a symlink loop or a file inside a checkpoint is named for what it is, not "0 tokens",
// "read error", "unknown preset" or "no such file".
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "cli_run.hpp"
#include "support/temp_dir.hpp"

namespace test_path_kinds {

namespace fs = std::filesystem;
using lumen_cli::CliRun;

const std::string kGpt2 = std::string(LUMEN_SOURCE_DIR) + "/tests/data/model/gpt2";

CliRun lumen(const std::string& args) {
  lumen_cli::CliOptions o;
  o.timeout_s = 20;  // a hang shows as exit 124
  return lumen_cli::run_cli(args, o);
}

std::string q(const std::string& s) { return lumen_cli::detail::quote(s); }

// A copy of the test GPT-2 checkpoint whose file `fifo` is a FIFO instead.
struct CheckpointWithFifo : lumen::test::TempDir {
  explicit CheckpointWithFifo(const std::string& fifo) : TempDir("lumen-path-kinds") {
    fs::copy(kGpt2, p / "m");
    fs::remove(p / "m" / fifo);
    ok = ::mkfifo((p / "m" / fifo).c_str(), 0600) == 0;
  }
  std::string dir() const { return (p / "m").string(); }
  bool ok = false;
};

void expect_fifo_refused(const CliRun& r, const std::string& file) {
  EXPECT_EQ(r.code, 1) << r.cmdline << "\n" << r.err;
  EXPECT_NE(r.err.find(file), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("is a FIFO, not a regular file"), std::string::npos) << r.err;
}

TEST(PathKinds, FifoConfigIsRefusedByGptParamsAndServe) {
  CheckpointWithFifo m("config.json");
  ASSERT_TRUE(m.ok);
  expect_fifo_refused(lumen("gpt " + q(m.dir()) + " 'the cat'"), "config.json");
  expect_fifo_refused(lumen("params " + q(m.dir())), "config.json");
  expect_fifo_refused(lumen("drift " + q(m.dir()) + " 'the bank' 'a bank' --token bank"), "config.json");
  expect_fifo_refused(lumen("serve --model " + q(m.dir()) + " --port 0"), "config.json");
}

TEST(PathKinds, FifoTokenizerIsRefusedNotWaitedOn) {
  CheckpointWithFifo m("tokenizer.json");
  ASSERT_TRUE(m.ok);
  expect_fifo_refused(lumen("gpt " + q(m.dir()) + " 'the cat'"), "tokenizer.json");
  expect_fifo_refused(lumen("tokenize --tokenizer " + q(m.dir() + "/tokenizer.json") + " 'the cat'"), "tokenizer.json");
}

TEST(PathKinds, FifoCorpusAndWordListsAreRefused) {
  lumen::test::TempDir d("lumen-path-kinds");
  const std::string fifo = d / "text";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_fifo_refused(lumen("gpt " + q(kGpt2) + " --perplexity " + q(fifo)), "text");
  expect_fifo_refused(lumen("train word2vec " + q(fifo) + " -o " + q(d / "out.vec") + " --epochs 1 --threads 1"),
                      "text");
  expect_fifo_refused(lumen("probe default " + q(fifo)), "text");
  expect_fifo_refused(lumen("eval similarity default " + q(fifo)), "text");
}

TEST(PathKinds, ADirectoryIsNamedAsOne) {
  lumen::test::TempDir d("lumen-path-kinds");
  const std::string dir = d / "dir";
  fs::create_directory(dir);
  for (const std::string& args :
       {"gpt " + q(kGpt2) + " --perplexity " + q(dir), "probe default " + q(dir), "eval analogies default " + q(dir)}) {
    const CliRun r = lumen(args);
    EXPECT_EQ(r.code, 1) << args << "\n" << r.err;
    EXPECT_NE(r.err.find("is a directory, not a regular file"), std::string::npos) << args << "\n" << r.err;
    EXPECT_EQ(r.err.find("0 tokens"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("read error"), std::string::npos) << r.err;
  }
}

TEST(PathKinds, ACheckpointDirectoryGivenAsATableSaysWhereItsTableIs) {
  const CliRun r = lumen("compare " + q(kGpt2) + " --heads");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("is a directory, not a table file"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(kGpt2 + "/model.safetensors"), std::string::npos) << r.err;
  lumen::test::TempDir d("lumen-path-kinds");
  const CliRun plain = lumen("info " + q(d.p.string()));
  EXPECT_EQ(plain.code, 1) << plain.err;
  EXPECT_NE(plain.err.find("is a directory, not a table file; name a table file"), std::string::npos) << plain.err;
}

TEST(PathKinds, ASymlinkLoopIsCalledOne) {
  lumen::test::TempDir d("lumen-path-kinds");
  fs::create_symlink(d / "b", d / "a");
  fs::create_symlink(d / "a", d / "b");
  for (const std::string& args : {"gpt " + q(d / "a") + " 'the cat'", "params " + q(d / "a"), "info " + q(d / "a"),
                                  "tokenize --tokenizer " + q(d / "a") + " cat"}) {
    const CliRun r = lumen(args);
    EXPECT_EQ(r.code, 1) << args << "\n" << r.err;
    EXPECT_NE(r.err.find("a symlink loop"), std::string::npos) << args << "\n" << r.err;
  }
}

TEST(PathKinds, ParamsTakesAnyFileOfACheckpointAndNamesWhatAMissingNameIsNot) {
  const CliRun file = lumen("params " + q(kGpt2 + "/model.safetensors") + " --json");
  ASSERT_EQ(file.code, 0) << file.err;
  const CliRun dir = lumen("params " + q(kGpt2) + " --json");
  ASSERT_EQ(dir.code, 0) << dir.err;
  EXPECT_NE(file.out.find("\"total\":36096"), std::string::npos) << file.out;
  const CliRun missing = lumen("params m2");
  EXPECT_EQ(missing.code, 2) << missing.err;
  EXPECT_NE(missing.err.find("'m2' is neither a preset"), std::string::npos) << missing.err;
  EXPECT_NE(missing.err.find("no such file or directory"), std::string::npos) << missing.err;
}

}  // namespace test_path_kinds
