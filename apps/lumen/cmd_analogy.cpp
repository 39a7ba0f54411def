// lumen analogy TABLE A B C: A is to B as C is to ? (man woman king -> queen), by 3CosAdd (gensim's
// most_similar(positive=[B, C], negative=[A])) or 3CosMul (most_similar_cosmul). The three input words are
// excluded from the answers, as the standard evaluation does; --no-exclude shows the raw ranking, where the
// nearest word is very often an input. No words on the command line: one question "A B C [D]" per stdin line.
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <optional>
#include <vector>

#include "command.hpp"
#include "common.hpp"
#include "lumen/core/error.hpp"
#include "lumen/search/analogy.hpp"
#include "lumen/search/result_json.hpp"
#include "messages.hpp"
#include "option_checks.hpp"
#include "score_text.hpp"

namespace lumen::cli::cmd_analogy {
namespace {

struct AnalogyArgs : TableAndWords {
  std::string method = "add";
  std::size_t k = 10;
  bool no_exclude = false;
  std::string expect;
  std::size_t restrict_rows = 0;
  bool json = false;
};

struct Question {
  std::string a, b, c, expect;
};

Question parse_question(const std::vector<std::string>& w, const std::string& where) {
  if (w.size() != 3 && w.size() != 4)
    throw UsageError(
        fmt::format("{}: an analogy is three words A B C (and optionally the expected D), got {}", where, w.size()));
  return {w[0], w[1], w[2], w.size() == 4 ? w[3] : ""};
}

int answer(const Table& t, const search::Searcher& s, const Question& q, const search::AnalogyOptions& o,
           std::size_t rows, bool json) {
  // Inputs outside a fastText model's vocabulary get their subword vectors; the expected answer must be a row.
  const search::QueryWord qa = search::lookup(t, q.a), qb = search::lookup(t, q.b), qc = search::lookup(t, q.c);
  std::optional<Id> expected;
  if (!q.expect.empty()) expected = t.vocab.require(q.expect);
  const auto r = search::analogy(s, qa, qb, qc, o, expected);
  for (const search::QueryWord* w : {&qa, &qb, &qc})
    if (!std::all_of(w->vector.begin(), w->vector.end(), [](float x) { return std::isfinite(x); }))
      print_note(fmt::format("'{}' has NaN or Inf in its row: every score is nan", w->word));
  if (json) {
    print_json(search::analogy_json(q.a, q.b, q.c, o, rows, r, expected ? q.expect : "", RowNames{t.vocab, {}}));
    return kOk;
  }
  fmt::print("{} is to {} as {} is to ?   (3Cos{}{})\n", q.a, q.b, q.c,
             o.method == search::AnalogyMethod::add ? "Add" : "Mul", o.exclude_inputs ? "" : ", inputs not excluded");
  std::size_t width = 5;
  for (const auto& n : r.answers) width = std::max(width, t.vocab.token(n.id).size());
  for (std::size_t i = 0; i < r.answers.size(); ++i) {
    const Id id = r.answers[i].id;
    const bool input = id == qa.id || id == qb.id || id == qc.id;
    fmt::print("  {:>3}  {:<{}}  {:>9.6f}{}\n", i + 1, t.vocab.token(id), width, shown(r.answers[i].score),
               input ? "  (an input word)" : "");
  }
  if (expected) {
    if (r.rank) fmt::print("  expected '{}': rank {}\n", q.expect, *r.rank);
    else fmt::print("  expected '{}': not rankable (it is an input word, or outside --restrict)\n", q.expect);
  }
  return kOk;
}

Action setup(CLI::App& cmd) {
  auto a = std::make_shared<AnalogyArgs>();
  add_table_and_words(cmd, a->table, a->words,
                      "A B C: A is to B as C is to ? (none: one question 'A B C [D]' per stdin line)");
  cmd.add_option("--method", a->method, "add (3CosAdd) or mul (3CosMul)")->capture_default_str();
  cmd.add_option("-k", a->k, "Answers to show (more than the rows: all of them)")
      ->capture_default_str()
      ->check(at_least(1));
  cmd.add_flag("--no-exclude", a->no_exclude, "Keep A, B and C among the answers (the raw ranking)");
  cmd.add_option("--expect", a->expect, "The expected answer D: print its rank");
  cmd.add_option("--restrict", a->restrict_rows, "Answers only from the first N rows (0: all)")->check(at_least(0));
  add_json_flag(cmd, a->json);
  set_example(cmd, {"lumen analogy glove.txt man king woman", "lumen analogy man king woman   # the default table",
                    "lumen analogy glove.txt man king woman --method mul --expect queen",
                    "lumen analogy glove.txt man king woman --no-exclude -k 3",
                    "printf 'man king woman queen\\nparis france rome italy\\n' | lumen analogy glove.txt --json"});
  return [a]() {
    split_table_argument(a->table, a->words);
    search::AnalogyOptions o;
    o.method = search::parse_analogy_method(a->method);
    o.k = a->k;
    o.exclude_inputs = !a->no_exclude;
    o.restrict_rows = a->restrict_rows;
    std::vector<Question> questions;
    const bool from_stdin = a->words.empty();
    if (!from_stdin) {
      auto w = a->words;
      if (!a->expect.empty()) {
        if (w.size() != 3) throw UsageError("--expect goes with exactly three words A B C");
        w.push_back(a->expect);
      }
      questions.push_back(parse_question(w, "command line"));
    } else {
      std::size_t line_no = 0;
      for (auto& w : stdin_word_lines()) {
        ++line_no;
        if (!a->expect.empty() && w.size() == 3) w.push_back(a->expect);
        questions.push_back(parse_question(w, fmt::format("stdin line {}", line_no)));
      }
      if (questions.empty()) throw UsageError("no analogy given (A B C on the command line, or lines on stdin)");
    }
    const Table t = load_table(a->table);
    const search::Searcher s(t);
    const std::size_t rows = o.restrict_rows == 0 ? t.V() : std::min(o.restrict_rows, t.V());
    if (o.k > rows)  // the library answers with every row; said once, never an allocation of k entries
      print_note(fmt::format("-k {} is more than the {} rows searched: showing them all", o.k, rows));
    int code = kOk;
    for (const auto& q : questions) {
      try {
        answer(t, s, q, o, rows, a->json);
      } catch (const UnknownTokenError& e) {
        if (!from_stdin) throw;
        code = kInputError;  // in a batch, an unknown word fails its own question only
        if (a->json) print_json({{"query", fmt::format("{} : {} :: {} : ?", q.a, q.b, q.c)}, {"error", e.message()}});
        else print_error(e.message());
      }
    }
    return code;
  };
}

const Register reg("analogy", "A is to B as C is to ? (3CosAdd or 3CosMul; inputs excluded unless --no-exclude)", setup,
                   31);

}  // namespace
}  // namespace lumen::cli::cmd_analogy
