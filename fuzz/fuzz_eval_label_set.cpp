// Fuzzes the probe's label reader and the probe on what it reads: any bytes either parse into unique words with
// at least two classes (every label among them, no tab in a word or label, lines growing) or throw ParseError /
// InputError; a parsed set probed on a small table gives accuracies in [0, 1] and folds in range, or InputError
// when too few of its words are in the table.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string_view>

#include "lumen/core/error.hpp"
#include "lumen/core/table.hpp"
#include "lumen/eval/label_set.hpp"
#include "lumen/eval/probe.hpp"

namespace {

void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_eval_label_set: %s\n", what);
  std::abort();
}

const lumen::Table& table() {
  static const lumen::Table t = [] {
    lumen::Table x;
    const char* words[] = {"king", "queen", "man", "woman", "Paris", "France", "cat", "cats", "é", "zero"};
    x.E = lumen::Matrix(std::size(words), 3);
    for (std::size_t r = 0; r < std::size(words); ++r) {
      x.vocab.add(words[r]);
      for (std::size_t c = 0; c < 3; ++c) x.E.set(r, c, static_cast<float>((r * 5 + c * 7) % 11) - 5.0f);
    }
    for (std::size_t c = 0; c < 3; ++c) x.E.set(9, c, 0.0f);  // a zero row
    return x;
  }();
  return t;
}

bool unit(double v) { return v >= 0.0 && v <= 1.0; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  lumen::eval::LabelSet set;
  try {
    set = lumen::eval::parse_label_set(text, "fuzz.tsv");
  } catch (const lumen::InputError&) {  // ParseError included: a bad line, or fewer than two classes
    return 0;
  }
  check(set.classes.size() >= 2, "accepted fewer than two classes");
  std::set<std::string> seen;
  for (std::size_t i = 0; i < set.words.size(); ++i) {
    const auto& w = set.words[i];
    check(!w.word.empty() && !w.label.empty(), "an empty word or label");
    check(w.word.find('\t') == std::string::npos && w.label.find('\t') == std::string::npos, "a tab kept");
    check(seen.insert(w.word).second, "a word twice");
    check(std::find(set.classes.begin(), set.classes.end(), w.label) != set.classes.end(), "a label not a class");
    check(i == 0 || w.line > set.words[i - 1].line, "lines do not grow");
  }
  lumen::eval::ProbeOptions o;
  o.folds = 2;
  o.logistic.max_iter = 20;
  o.logistic.threads = 1;
  try {
    const auto r = lumen::eval::run_probe(table(), set, o);
    check(r.words.size() >= 2 && r.classes.size() >= 2, "probed fewer than two words or classes");
    check(unit(r.accuracy) && unit(r.control_accuracy) && unit(r.majority), "an accuracy outside [0, 1]");
    for (const int f : r.fold) check(f == 0 || f == 1, "a fold out of range");
  } catch (const lumen::InputError&) {
    // too few of its words in the table: the documented error
  }
  return 0;
}
