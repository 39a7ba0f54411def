#include "lumen/eval/similarity.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/eval/allowed_vocab.hpp"
#include "lumen/eval/correlation.hpp"
#include "lumen/linalg/blas.hpp"

namespace lumen::eval {

double SimilarityResult::oov_ratio() const {
  const std::size_t all = pairs + oov;
  return all == 0 ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(oov) / static_cast<double>(all);
}

namespace {

// gensim's similarity(): dot(unitvec(x), unitvec(y)), where unitvec scales the f64 copy of x by 1 / dnrm2 and
// rounds back to f32, and numpy's dot of two f32 vectors is BLAS's sdot. The same calls on the same OpenBLAS
// give the same bits: with a few pairs whose cosines differ in the 4th digit, one ulp moves Pearson's r by
// 1e-5, so "close" is not enough. A zero vector stays zero (unitvec leaves it), so its cosine is 0.
std::vector<float> unitvec(const ScopedBlasThreads& guard, const std::vector<float>& x) {
  std::vector<double> x64(x.begin(), x.end());
  const double n = blas::dnrm2(guard, x64.size(), x64.data());
  if (!(n > 0.0)) return x;
  const double inv = 1.0 / n;
  std::vector<float> u(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) u[i] = static_cast<float>(x64[i] * inv);
  return u;
}

double cosine(const ScopedBlasThreads& guard, const std::vector<float>& x, const std::vector<float>& y) {
  const auto ux = unitvec(guard, x), uy = unitvec(guard, y);
  return static_cast<double>(blas::sdot(guard, ux.size(), ux.data(), uy.data()));
}

}  // namespace

SimilarityResult evaluate_similarity(const Table& table, const WordPairSet& set, const SimilarityOptions& options) {
  const AllowedVocab ok(table.vocab, options.restrict, options.case_insensitive);
  const ScopedBlasThreads guard(1);  // d-long dots and norms: one thread, as numpy's are at this length
  SimilarityResult r;
  r.rows = ok.rows();
  std::vector<float> x(table.d()), y(table.d());
  for (const auto& p : set.pairs) {
    const auto a = ok.find(p.w1), b = ok.find(p.w2);
    if (!a || !b) {
      ++r.oov;
      continue;
    }
    table.E.row_f32(static_cast<std::size_t>(*a), x.data());
    table.E.row_f32(static_cast<std::size_t>(*b), y.data());
    r.human.push_back(p.score);
    r.model.push_back(cosine(guard, x, y));
  }
  r.pairs = r.human.size();
  if (r.pairs == 0)
    throw InputError(set.path + ": none of its " + std::to_string(set.pairs.size()) +
                     " pairs has both words in the allowed vocabulary (the first " + std::to_string(ok.rows()) +
                     " rows of " + (table.source.empty() ? std::string("the table") : table.source) +
                     (options.case_insensitive ? ", compared upper-cased)" : ", compared case-sensitively)"));
  r.pearson = pearson(r.human, r.model);
  r.spearman = spearman(r.human, r.model);
  return r;
}

}  // namespace lumen::eval
