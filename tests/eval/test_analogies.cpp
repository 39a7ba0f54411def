#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/core/simd.hpp"
#include "lumen/core/text_fold.hpp"
#include "lumen/eval/allowed_vocab.hpp"
#include "lumen/eval/analogies.hpp"

using namespace lumen;
using namespace lumen::eval;

namespace test_analogies {

Table make_table(const std::vector<std::string>& words, std::size_t d, std::uint64_t seed, DType dtype = DType::f32) {
  Table t;
  Rng rng(seed);
  Matrix E(words.size(), d);
  for (std::size_t r = 0; r < words.size(); ++r) {
    t.vocab.add(words[r]);
    for (std::size_t c = 0; c < d; ++c) E.set(r, c, static_cast<float>(rng.normal()));
  }
  t.E = dtype == DType::f32 ? std::move(E) : E.to(dtype);
  t.source = "test";
  return t;
}

std::string fold(const std::string& w, bool ci) { return ci ? *unicode_upper(w) : w; }

// gensim's evaluate_word_analogies written out plainly, in f64: cosine of every allowed row with
// unit(unit(b) + unit(c) - unit(a)) (or 3CosMul), a full sort (score descending, lower row first), the best 8,
// the input rows dropped, 5 kept, the first whose upper case is no input word (the last of them if none).
std::vector<AnalogyPrediction> reference(const Table& t, const AnalogySet& set, const AnalogyOptions& o) {
  const AllowedVocab ok(t.vocab, o.restrict, o.case_insensitive);
  const std::size_t d = t.d(), R = ok.rows();
  auto unit = [&](std::size_t r) {
    std::vector<double> v(d);
    std::vector<float> f(d);
    t.E.row_f32(r, f.data());
    double n = 0;
    for (std::size_t k = 0; k < d; ++k) n += static_cast<double>(f[k]) * f[k];
    for (std::size_t k = 0; k < d; ++k) v[k] = f[k] / std::sqrt(n);
    return v;
  };
  auto dot = [&](const std::vector<double>& x, const std::vector<double>& y) {
    return std::inner_product(x.begin(), x.end(), y.begin(), 0.0);
  };
  std::vector<AnalogyPrediction> out;
  for (const auto& sec : set.sections)
    for (const auto& q : sec.questions) {
      const auto A = ok.find(q.a), B = ok.find(q.b), C = ok.find(q.c), D = ok.find(q.d);
      if (!A || !B || !C || !D) continue;
      const auto ua = unit(*A), ub = unit(*B), uc = unit(*C);
      std::vector<std::pair<double, Id>> s;
      for (std::size_t r = 0; r < R; ++r) {
        const auto x = unit(r);
        double score;
        if (o.method == AnalogyMethod::add) {
          score = dot(x, ub) + dot(x, uc) - dot(x, ua);
        } else {
          const double pa = (1 + dot(x, ua)) / 2, pb = (1 + dot(x, ub)) / 2, pc = (1 + dot(x, uc)) / 2;
          score = pb * pc / (pa + 1e-6);
        }
        s.emplace_back(score, static_cast<Id>(r));
      }
      std::stable_sort(s.begin(), s.end(), [](auto& l, auto& r) { return l.first > r.first; });
      s.resize(std::min<std::size_t>(8, s.size()));
      const std::string fa = fold(q.a, o.case_insensitive), fb = fold(q.b, o.case_insensitive),
                        fc = fold(q.c, o.case_insensitive), fd = fold(q.d, o.case_insensitive);
      Id predicted = -1;
      std::string answer;
      if (o.exclude) {
        int taken = 0;
        for (auto& [score, row] : s) {
          if (row == *A || row == *B || row == *C) continue;
          if (taken++ == 5) break;
          predicted = row;
          answer = fold(t.vocab.token(row), o.case_insensitive);
          if (answer != fa && answer != fb && answer != fc) break;
        }
      } else {
        predicted = s[0].second;
        answer = fold(t.vocab.token(predicted), o.case_insensitive);
      }
      out.push_back({q.line, predicted, predicted >= 0 && answer == fd});
    }
  return out;
}

std::vector<std::string> random_words(std::size_t n) {
  std::vector<std::string> w;
  for (std::size_t i = 0; i < n; ++i) w.push_back("w" + std::to_string(i));
  return w;
}

AnalogySet random_questions(std::size_t V, std::size_t n, std::uint64_t seed) {
  Rng rng(seed);
  std::string text;
  for (std::size_t s = 0; s < 7; ++s) {
    text += ": section-" + std::to_string(s) + "\n";
    for (std::size_t i = 0; i < n / 7; ++i) {
      for (int k = 0; k < 4; ++k) text += "w" + std::to_string(rng.below(V + V / 10)) + (k < 3 ? " " : "\n");
    }
  }
  return parse_analogy_set(text, "random.txt");
}

void expect_same(const std::vector<AnalogyPrediction>& got, const std::vector<AnalogyPrediction>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].line, want[i].line);
    EXPECT_EQ(got[i].predicted, want[i].predicted) << "line " << got[i].line;
    EXPECT_EQ(got[i].correct, want[i].correct) << "line " << got[i].line;
  }
}

TEST(EvalAnalogies, EqualsThePlainReference) {
  const std::size_t V = 700;  // more than one block of rows for small word counts
  const auto table = make_table(random_words(V), 12, 1);
  const auto set = random_questions(V, 400, 2);
  for (auto method : {AnalogyMethod::add, AnalogyMethod::mul})
    for (bool exclude : {true, false})
      for (std::size_t restrict : {std::size_t{0}, std::size_t{300}}) {
        SCOPED_TRACE("method " + std::to_string(static_cast<int>(method)) + " exclude " + std::to_string(exclude) +
                     " restrict " + std::to_string(restrict));
        AnalogyOptions o;
        o.method = method;
        o.exclude = exclude;
        o.restrict = restrict;
        o.keep_predictions = true;
        const auto r = evaluate_analogies(table, set, o);
        expect_same(r.predictions, reference(table, set, o));
        std::size_t correct = 0;
        for (auto& p : r.predictions) correct += p.correct;
        EXPECT_EQ(r.total.correct, correct);
        EXPECT_EQ(r.total.answered + r.total.skipped, set.questions());
      }
}

TEST(EvalAnalogies, SameResultForEveryThreadCountIsaAndBlock) {
  const std::size_t V = 5000;
  const auto table = make_table(random_words(V), 16, 3);
  const auto set = random_questions(V, 300, 4);
  AnalogyOptions o;
  o.keep_predictions = true;
  o.threads = 1;
  const auto one = evaluate_analogies(table, set, o);
  expect_same(one.predictions, reference(table, set, o));
  for (std::size_t threads : {2u, 3u}) {
    o.threads = threads;
    expect_same(evaluate_analogies(table, set, o).predictions, one.predictions);
  }
  const Isa before = active_isa();
  for (Isa isa : available_isas()) {
    force_isa(isa);
    expect_same(evaluate_analogies(table, set, o).predictions, one.predictions);
  }
  force_isa(before);
}

TEST(EvalAnalogies, HalfPrecisionTables) {
  const std::size_t V = 600;
  for (DType dt : {DType::f16, DType::bf16}) {
    const auto table = make_table(random_words(V), 10, 5, dt);
    const auto set = random_questions(V, 200, 6);
    AnalogyOptions o;
    o.keep_predictions = true;
    expect_same(evaluate_analogies(table, set, o).predictions, reference(table, set, o));
  }
}

TEST(EvalAnalogies, FirstCasingWinsAndInputsAreExcludedByTheirUpperCase) {
  // Row 0 "Paris" is PARIS; row 3 "paris" is a different vector that has the same upper case: a candidate,
  // but never the answer when PARIS is an input (gensim skips it by its upper case).
  Table t;
  const std::vector<std::string> words = {"Paris", "France", "Rome", "paris", "Italy", "london"};
  for (auto& w : words) t.vocab.add(w);
  t.E = Matrix(words.size(), 2);
  auto set_row = [&](std::size_t r, float x, float y) {
    t.E.set(r, 0, x);
    t.E.set(r, 1, y);
  };
  set_row(0, 1, 0);          // Paris
  set_row(1, 1, 1);          // France
  set_row(2, 0.9f, 0.1f);    // Rome
  set_row(3, 0.95f, 0.05f);  // paris: nearest to France - Paris + Rome after the inputs
  set_row(4, 0.9f, 1.05f);   // Italy
  set_row(5, -1, 0);         // london
  // The third question's best candidate is an input (london): excluded, the answer is Italy.
  const auto set = parse_analogy_set(
      ": capitals\nParis France Rome Italy\nparis FRANCE rome italy\nParis France london Italy\n", "q.txt");
  AnalogyOptions o;
  o.keep_predictions = true;
  auto r = evaluate_analogies(t, set, o);
  EXPECT_EQ(r.total.answered, 3u);
  EXPECT_EQ(r.total.correct, 3u);
  EXPECT_EQ(r.top_is_input, 1u);
  expect_same(r.predictions, reference(t, set, o));
  // Case-sensitive: the second question has words that are not rows as written.
  o.case_insensitive = false;
  r = evaluate_analogies(t, set, o);
  EXPECT_EQ(r.total.answered, 2u);
  EXPECT_EQ(r.total.skipped, 1u);
  // Without the exclusion the best candidate is an input (France itself, or a casing of one).
  o.case_insensitive = true;
  o.exclude = false;
  r = evaluate_analogies(t, set, o);
  EXPECT_EQ(r.top_is_input, 1u);
  EXPECT_EQ(r.total.correct, 2u);  // london is the answer to the third
  expect_same(r.predictions, reference(t, set, o));
}

TEST(EvalAnalogies, SectionsSemanticSyntacticAndSkips) {
  const std::size_t V = 50;
  const auto table = make_table(random_words(V), 8, 7);
  std::string text;
  for (int s = 0; s < 7; ++s) text += ": s" + std::to_string(s) + "\nw1 w2 w3 w4\nw1 w2 w3 unknown\n";
  const auto set = parse_analogy_set(text, "q.txt");
  const auto r = evaluate_analogies(table, set, {});
  ASSERT_EQ(r.sections.size(), 7u);
  for (auto& s : r.sections) {
    EXPECT_EQ(s.answered, 1u);
    EXPECT_EQ(s.skipped, 1u);
  }
  EXPECT_EQ(r.semantic.answered, 5u);
  EXPECT_EQ(r.syntactic.answered, 2u);
  EXPECT_EQ(r.total.answered, 7u);
  EXPECT_EQ(r.total.skipped, 7u);
}

TEST(EvalAnalogies, NothingAnsweredIsAClearError) {
  const auto table = make_table(random_words(20), 4, 8);
  const auto set = parse_analogy_set(": s\nw1 w2 w3 w99\nx y z w\n", "q.txt");
  try {
    evaluate_analogies(table, set, {});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("none of its 2 questions"), std::string::npos) << e.what();
  }
  AnalogyOptions o;
  o.restrict = 2;  // w1 w2 w3 are rows 1..3: row 3 is outside
  EXPECT_THROW(evaluate_analogies(table, parse_analogy_set(": s\nw1 w2 w3 w0\n", "q.txt"), o), InputError);
  EXPECT_THROW(parse_analogy_method("cosine"), UsageError);
}

TEST(EvalAnalogies, ZeroRowsAreNeverAnswers) {
  auto table = make_table(random_words(30), 4, 9);
  for (std::size_t c = 0; c < 4; ++c) table.E.set(7, c, 0.0f);
  const auto set = random_questions(30, 140, 10);
  AnalogyOptions o;
  o.keep_predictions = true;
  for (auto& p : evaluate_analogies(table, set, o).predictions) EXPECT_NE(p.predicted, 7);
}

}  // namespace test_analogies
