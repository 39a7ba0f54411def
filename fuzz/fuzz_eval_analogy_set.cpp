// Fuzzes the analogy file reader and the evaluation behind it: any bytes parse (malformed lines are counted,
// never a crash), strict mode either accepts the same questions or names a line, every question has four
// non-empty words, line numbers only grow, and scoring the questions on a small table never fails other than
// with InputError (nothing answered). Any broken invariant aborts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "lumen/core/error.hpp"
#include "lumen/core/table.hpp"
#include "lumen/core/text_fold.hpp"
#include "lumen/eval/analogies.hpp"

namespace {

void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_eval_analogy_set: %s\n", what);
  std::abort();
}

const lumen::Table& table() {
  static const lumen::Table t = [] {
    lumen::Table x;
    const char* words[] = {"a", "b", "c",   "d",    "A",     "Straße", "STRASSE",
                           "é", "É", "x y", "king", "queen", "man",    "woman"};
    x.E = lumen::Matrix(std::size(words), 3);
    for (std::size_t r = 0; r < std::size(words); ++r) {
      x.vocab.add(words[r]);
      for (std::size_t c = 0; c < 3; ++c) x.E.set(r, c, static_cast<float>((r * 7 + c * 3) % 11) - 5.0f);
    }
    x.E.set(3, 0, 0.0f), x.E.set(3, 1, 0.0f), x.E.set(3, 2, 0.0f);  // a zero row
    return x;
  }();
  return t;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto set = lumen::eval::parse_analogy_set(text, "fuzz.txt");
  std::uint64_t last = 0;
  for (const auto& s : set.sections)
    for (const auto& q : s.questions) {
      check(q.line > last, "question lines do not grow");
      last = q.line;
      for (const std::string* w : {&q.a, &q.b, &q.c, &q.d}) {
        check(!w->empty(), "an empty word");
        check(lumen::split_whitespace(*w).size() == 1, "a word with whitespace");
        check(lumen::unicode_upper(*w).has_value(), "a word that is not UTF-8");
      }
    }
  for (std::size_t i = 1; i < set.malformed.size(); ++i)
    check(set.malformed[i].line > set.malformed[i - 1].line, "malformed lines out of order");
  try {
    const auto strict = lumen::eval::parse_analogy_set(text, "fuzz.txt", true);
    check(set.malformed.empty(), "strict accepted a file with malformed lines");
    check(strict.questions() == set.questions(), "strict read other questions");
  } catch (const lumen::ParseError& e) {
    check(!set.malformed.empty() && e.line() == set.malformed[0].line, "strict rejected another line");
  }
  for (bool ci : {true, false}) {
    lumen::eval::AnalogyOptions o;
    o.case_insensitive = ci;
    o.threads = 1;
    o.method = size % 2 ? lumen::eval::AnalogyMethod::mul : lumen::eval::AnalogyMethod::add;
    o.exclude = size % 3 != 0;
    try {
      const auto r = lumen::eval::evaluate_analogies(table(), set, o);
      check(r.total.answered + r.total.skipped == set.questions(), "answered + skipped != questions");
      check(r.total.correct <= r.total.answered, "more correct than answered");
      check(r.total.answered > 0, "a result with nothing answered");
    } catch (const lumen::InputError&) {
      // nothing answered: the documented error
    }
  }
  return 0;
}
