#include "lumen/eval/analogies.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>
#include <string>
#include <unordered_map>

#include "analogy_kernels.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/eval/allowed_vocab.hpp"
#include "lumen/linalg/blas.hpp"
#include "lumen/search/searcher.hpp"

namespace lumen::eval {

AnalogyMethod parse_analogy_method(const std::string& name) {
  if (name == "add" || name == "3cosadd") return AnalogyMethod::add;
  if (name == "mul" || name == "3cosmul") return AnalogyMethod::mul;
  throw UsageError("unknown analogy method '" + name + "' (expected add or mul)");
}

double AnalogyTally::accuracy() const {
  return answered == 0 ? std::numeric_limits<double>::quiet_NaN()
                       : static_cast<double>(correct) / static_cast<double>(answered);
}

namespace {

// gensim asks most_similar for topn=5 after dropping the three input rows from its best 5 + 3.
constexpr std::size_t kTopN = 5;
constexpr std::size_t kKeep = kTopN + 3;

struct Candidate {
  float score;
  std::uint32_t row;
};

// A question all of whose words are allowed.
struct Question {
  std::array<std::uint32_t, 3> slot;  // a, b, c: rows of the word matrix W
  std::array<Id, 3> id;               // a, b, c: table rows (the first casing of each word)
  std::array<std::string, 4> folded;  // A, B, C, D
  std::size_t section;
  std::uint64_t line;
};

// The best kKeep candidates so far of one question, best first: score descending, then lower row first.
// Rows arrive in ascending order, so a later row with an equal score ranks after the one already kept.
struct Best {
  std::array<Candidate, kKeep> c;
  std::uint32_t n = 0;
  float threshold() const { return n < kKeep ? -std::numeric_limits<float>::infinity() : c[kKeep - 1].score; }
  void offer(float s, std::uint32_t row) {
    std::size_t pos;
    if (n < kKeep) {
      pos = n++;
    } else {
      if (!(s > c[kKeep - 1].score)) return;
      pos = kKeep - 1;
    }
    while (pos > 0 && s > c[pos - 1].score) {
      c[pos] = c[pos - 1];
      --pos;
    }
    c[pos] = {s, row};
  }
};

float add_score(float sa, float sb, float sc) { return (sb + sc) - sa; }
float mul_score(float sa, float sb, float sc) {
  const float pa = (1.0f + sa) / 2.0f, pb = (1.0f + sb) / 2.0f, pc = (1.0f + sc) / 2.0f;
  return (pb * pc) / (pa + 1e-6f);
}

// Row r of E divided by its norm (the Searcher's cached norms) into out (d floats). A zero row becomes NaN,
// which no comparison selects (gensim divides by the zero norm and its argsort puts the NaN last).
void unit_row(const Matrix& E, std::size_t r, float norm, float* out) {
  const std::size_t d = E.cols();
  E.row_f32(r, out);
  if (norm == 0.0f || !std::isfinite(norm)) {
    std::fill(out, out + d, std::numeric_limits<float>::quiet_NaN());
    return;
  }
  for (std::size_t k = 0; k < d; ++k) out[k] /= norm;
}

// Step 1's output: the answerable questions, and W's rows (the distinct input words, as table rows).
struct ResolvedQuestions {
  std::vector<Question> qs;
  std::vector<Id> words;
};

// Fills x (slots, ids, folded words) for q; false as soon as one of its words is not allowed. Input words seen
// for the first time become new rows of W, even when a later word of the question turns out unknown.
bool resolve_question(const AllowedVocab& ok, const AnalogyQuestion& q, Question& x, ResolvedQuestions& out,
                      std::unordered_map<Id, std::uint32_t>& slot_of) {
  x.folded = {ok.fold(q.a), ok.fold(q.b), ok.fold(q.c), ok.fold(q.d)};
  for (std::size_t k = 0; k < 4; ++k) {
    const auto id = ok.find_folded(x.folded[k]);
    if (!id) return false;
    if (k < 3) {
      x.id[k] = *id;
      const auto [it, added] = slot_of.try_emplace(*id, static_cast<std::uint32_t>(out.words.size()));
      if (added) out.words.push_back(*id);
      x.slot[k] = it->second;
    }
  }
  return true;
}

// 1. Resolve the questions; the distinct input words become the rows of W. One tally per section (answered,
//    skipped) into sections.
ResolvedQuestions resolve_questions(const AllowedVocab& ok, const AnalogySet& set,
                                    std::vector<AnalogyTally>& sections) {
  ResolvedQuestions out;
  std::unordered_map<Id, std::uint32_t> slot_of;
  for (std::size_t s = 0; s < set.sections.size(); ++s) {
    AnalogyTally tally;
    tally.name = set.sections[s].name;
    for (const auto& q : set.sections[s].questions) {
      Question x;
      if (!resolve_question(ok, q, x, out, slot_of)) {
        ++tally.skipped;
        continue;
      }
      ++tally.answered;
      x.section = s;
      x.line = q.line;
      out.qs.push_back(std::move(x));
    }
    sections.push_back(std::move(tally));
  }
  return out;
}

[[noreturn]] void throw_no_answerable_question(const Table& table, const AnalogySet& set, std::size_t R,
                                               bool case_insensitive) {
  throw InputError(set.path + ": none of its " + std::to_string(set.questions()) +
                   " questions has all four words in the allowed vocabulary (the first " + std::to_string(R) +
                   " rows of " + (table.source.empty() ? std::string("the table") : table.source) +
                   (case_insensitive ? ", compared upper-cased)" : ", compared case-sensitively)"));
}

// 2. W (nw, d): the input words at unit length.
std::vector<float> unit_input_words(const Matrix& E, const std::vector<Id>& words, std::span<const float> norms,
                                    std::size_t threads) {
  const std::size_t d = E.cols();
  std::vector<float> W(words.size() * d);
  parallel_for(words.size(), threads, [&](std::size_t b, std::size_t e, std::size_t) {
    for (std::size_t i = b; i < e; ++i) {
      const auto r = static_cast<std::size_t>(words[i]);
      unit_row(E, r, norms[r], &W[i * d]);
    }
  });
  return W;
}

using AboveFn = decltype(kernels::Table::add_above);
using ScoreFn = float (*)(float, float, float);

// Every question combines its three rows of T (nw, n: the cosines of the input words with rows r0 .. r0 + n)
// into its scores and offers those above its current threshold to its best candidates.
void offer_block_candidates(const std::vector<Question>& qs, const float* T, std::size_t n, std::size_t r0,
                            AboveFn above, ScoreFn score, std::vector<std::vector<std::uint32_t>>& scratch,
                            std::vector<Best>& best, std::size_t threads) {
  parallel_for(qs.size(), threads, [&](std::size_t b, std::size_t e, std::size_t t) {
    std::uint32_t* idx = scratch[t].data();
    for (std::size_t q = b; q < e; ++q) {
      const float* sa = &T[qs[q].slot[0] * n];
      const float* sb = &T[qs[q].slot[1] * n];
      const float* sc = &T[qs[q].slot[2] * n];
      Best& bq = best[q];
      const std::size_t m = above(sa, sb, sc, n, bq.threshold(), idx);
      for (std::size_t j = 0; j < m; ++j) {
        const std::uint32_t i = idx[j];
        bq.offer(score(sa[i], sb[i], sc[i]), static_cast<std::uint32_t>(r0 + i));
      }
    }
  });
}

// 3. Scan the allowed rows in blocks: unit rows U (nb, d), cosines T = W U^T (nw, nb) by one GEMM, then
//    every question combines its three rows of T into its scores and keeps its best candidates.
//    Only one block of unit rows exists at a time: no normalised copy of the table.
std::vector<Best> scan_allowed_rows(const Matrix& E, std::span<const float> norms, const ResolvedQuestions& resolved,
                                    const std::vector<float>& W, std::size_t R, const AnalogyOptions& o,
                                    std::size_t threads) {
  const std::vector<Question>& qs = resolved.qs;
  const std::size_t d = E.cols(), nw = resolved.words.size();
  std::size_t nb = (std::size_t{1} << 20) / std::max<std::size_t>(nw, 1);  // T about 4 MB: stays in cache
  nb = std::clamp<std::size_t>(nb / 16 * 16, 256, 8192);
  nb = std::min(nb, std::max<std::size_t>(R, 1));
  std::vector<float> U(nb * d), T(nw * nb);
  std::vector<Best> best(qs.size());
  std::vector<std::vector<std::uint32_t>> scratch(threads, std::vector<std::uint32_t>(nb));
  const kernels::Table& kt = kernels::active();
  const auto above = o.method == AnalogyMethod::add ? kt.add_above : kt.mul_above;
  const auto score = o.method == AnalogyMethod::add ? add_score : mul_score;

  const ScopedBlasThreads guard(threads);  // the GEMM runs on our thread count, as search's does
  for (std::size_t r0 = 0; r0 < R; r0 += nb) {
    const std::size_t n = std::min(nb, R - r0);
    parallel_for(n, threads, [&](std::size_t b, std::size_t e, std::size_t) {
      for (std::size_t i = b; i < e; ++i) unit_row(E, r0 + i, norms[r0 + i], &U[i * d]);
    });
    // T (nw, n) = W (nw, d) · U (n, d)^T
    blas::sgemm(guard, blas::Op::N, blas::Op::T, nw, n, d, 1.0f, W.data(), d, U.data(), d, 0.0f, T.data(), n);
    offer_block_candidates(qs, T.data(), n, r0, above, score, scratch, best, threads);
    if (o.progress) o.progress("analogies", r0 + n, R);
  }
  return best;
}

// One question's answer: the row given (-1: none) and its folded word.
struct AnalogyAnswer {
  Id predicted = -1;
  std::string answer;
  bool answered = false;
};

// 4. gensim's choice: drop the input rows from the best 5 + 3, keep 5, take the first whose upper case is not
//    an input word (the last of the 5 if none). With exclude off, the best candidate, whatever it is.
//    Counts into top_is_input whether the best candidate, inputs allowed, is an input word.
AnalogyAnswer choose_answer(const Question& x, const Best& bq, const AllowedVocab& ok, const Vocab& vocab, bool exclude,
                            std::size_t& top_is_input) {
  auto fold_row = [&](std::uint32_t row) { return ok.fold(vocab.token(static_cast<Id>(row))); };
  auto is_input = [&](const std::string& f) { return f == x.folded[0] || f == x.folded[1] || f == x.folded[2]; };
  AnalogyAnswer a;
  if (bq.n > 0 && is_input(fold_row(bq.c[0].row))) ++top_is_input;
  if (exclude) {
    std::size_t taken = 0;
    for (std::uint32_t k = 0; k < bq.n && taken < kTopN; ++k) {
      const Id row = bq.c[k].row;
      if (row == x.id[0] || row == x.id[1] || row == x.id[2]) continue;
      ++taken;
      a.answer = fold_row(bq.c[k].row);
      a.predicted = row;
      a.answered = true;
      if (!is_input(a.answer)) break;
    }
  } else if (bq.n > 0) {
    a.predicted = bq.c[0].row;
    a.answer = fold_row(bq.c[0].row);
    a.answered = true;
  }
  return a;
}

// The sections' tallies summed into the total and, by o.semantic_sections, the semantic or syntactic tally.
void sum_section_tallies(AnalogyResult& result, std::size_t semantic_sections) {
  for (std::size_t s = 0; s < result.sections.size(); ++s) {
    const auto& t = result.sections[s];
    for (AnalogyTally* sum : {&result.total, s < semantic_sections ? &result.semantic : &result.syntactic}) {
      sum->correct += t.correct;
      sum->answered += t.answered;
      sum->skipped += t.skipped;
    }
  }
}

}  // namespace

AnalogyResult evaluate_analogies(const Table& table, const AnalogySet& set, const AnalogyOptions& o) {
  const AllowedVocab ok(table.vocab, o.restrict, o.case_insensitive);
  const std::size_t R = ok.rows();
  const std::size_t threads = o.threads == 0 ? default_threads() : o.threads;

  AnalogyResult result;
  result.rows = R;
  const ResolvedQuestions resolved = resolve_questions(ok, set, result.sections);
  const std::vector<Question>& qs = resolved.qs;
  if (qs.empty()) throw_no_answerable_question(table, set, R, o.case_insensitive);

  const search::Searcher searcher(table, threads);  // the row norms, computed once
  const auto norms = searcher.norms();
  const std::vector<float> W = unit_input_words(table.E, resolved.words, norms, threads);
  const std::vector<Best> best = scan_allowed_rows(table.E, norms, resolved, W, R, o, threads);

  if (o.keep_predictions) result.predictions.reserve(qs.size());
  for (std::size_t q = 0; q < qs.size(); ++q) {
    const Question& x = qs[q];
    const AnalogyAnswer a = choose_answer(x, best[q], ok, table.vocab, o.exclude, result.top_is_input);
    const bool correct = a.answered && a.answer == x.folded[3];
    if (correct) ++result.sections[x.section].correct;
    if (o.keep_predictions) result.predictions.push_back({x.line, a.predicted, correct});
  }
  sum_section_tallies(result, o.semantic_sections);
  return result;
}

}  // namespace lumen::eval
