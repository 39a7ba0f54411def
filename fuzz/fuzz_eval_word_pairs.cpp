// Fuzzes the word-pairs reader and the similarity evaluation: any bytes parse (malformed lines are counted,
// never a crash), strict mode agrees with the lenient count, and scoring on a small table yields correlations
// in [-1, 1] (or NaN when undefined) and an OOV ratio in [0, 1], or InputError when no pair is known.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "lumen/core/error.hpp"
#include "lumen/core/table.hpp"
#include "lumen/eval/similarity.hpp"

namespace {

void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_eval_word_pairs: %s\n", what);
  std::abort();
}

const lumen::Table& table() {
  static const lumen::Table t = [] {
    lumen::Table x;
    const char* words[] = {"cat", "tiger", "Tiger", "car", "zero", "Straße", "é", "love", "sex"};
    x.E = lumen::Matrix(std::size(words), 4);
    for (std::size_t r = 0; r < std::size(words); ++r) {
      x.vocab.add(words[r]);
      for (std::size_t c = 0; c < 4; ++c) x.E.set(r, c, static_cast<float>((r * 5 + c * 7) % 13) - 6.0f);
    }
    for (std::size_t c = 0; c < 4; ++c) x.E.set(4, c, 0.0f);  // a zero row
    return x;
  }();
  return t;
}

bool in_range_or_nan(double v) { return std::isnan(v) || (v >= -1.0 && v <= 1.0); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto set = lumen::eval::parse_word_pairs(text, "fuzz.tsv");
  for (std::size_t i = 1; i < set.pairs.size(); ++i)
    check(set.pairs[i].line > set.pairs[i - 1].line, "pair lines do not grow");
  try {
    const auto strict = lumen::eval::parse_word_pairs(text, "fuzz.tsv", true);
    check(set.malformed.empty(), "strict accepted a file with malformed lines");
    check(strict.pairs.size() == set.pairs.size(), "strict read other pairs");
  } catch (const lumen::ParseError& e) {
    check(!set.malformed.empty() && e.line() == set.malformed[0].line, "strict rejected another line");
  }
  for (bool ci : {true, false}) {
    lumen::eval::SimilarityOptions o;
    o.case_insensitive = ci;
    try {
      const auto r = lumen::eval::evaluate_similarity(table(), set, o);
      check(r.pairs > 0 && r.pairs + r.oov == set.pairs.size(), "pairs + oov != pairs read");
      check(in_range_or_nan(r.pearson) && in_range_or_nan(r.spearman), "a correlation outside [-1, 1]");
      check(r.oov_ratio() >= 0.0 && r.oov_ratio() < 1.0, "an OOV ratio outside [0, 1)");
    } catch (const lumen::InputError&) {
      // no known pair: the documented error
    }
  }
  return 0;
}
