#include "lumen/eval/compare.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <numeric>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/eval/cka.hpp"
#include "lumen/eval/cross_gram.hpp"
#include "lumen/eval/neighbour_overlap.hpp"

namespace lumen::eval {

SharedVocab shared_vocab(const Vocab& a, const Vocab& b) {
  SharedVocab s;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto j = b.find(a.token(static_cast<Id>(i)));
    if (!j) continue;
    s.a_rows.push_back(static_cast<Id>(i));
    s.b_rows.push_back(*j);
  }
  return s;
}

namespace {

// The rows `rows` of E as an f32 matrix (n, d): a view of E itself when they are its first n rows in order (two
// tables over one vocabulary), else a copy.
Matrix gather(const Matrix& E, const std::vector<Id>& rows) {
  bool prefix = E.dtype() == DType::f32;
  for (std::size_t r = 0; prefix && r < rows.size(); ++r) prefix = rows[r] == static_cast<Id>(r);
  if (prefix) return E.head(rows.size());
  Matrix X = Matrix::uninitialized(rows.size(), E.cols());
  for (std::size_t r = 0; r < rows.size(); ++r) E.row_f32(static_cast<std::size_t>(rows[r]), X.row_mut(r).data());
  return X;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double hi = v[mid];
  if (v.size() % 2 == 1) return hi;
  return (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid)) + hi) / 2.0;
}

// The rows whose neighbour lists are compared: all n, or m of them drawn with the seed, ascending.
std::vector<std::int32_t> query_rows(std::size_t n, std::size_t m, std::uint64_t seed) {
  std::vector<std::int32_t> rows(n);
  std::iota(rows.begin(), rows.end(), 0);
  if (m >= n) return rows;
  Rng rng(seed);
  for (std::size_t i = 0; i < m; ++i) std::swap(rows[i], rows[i + rng.below(n - i)]);  // partial Fisher-Yates
  rows.resize(m);
  std::sort(rows.begin(), rows.end());
  return rows;
}

// The standard error of a sample's mean of m values out of a population of n (without replacement).
double mean_stderr(const std::vector<double>& v, double mean, std::size_t n) {
  const std::size_t m = v.size();
  if (m < 2 || m >= n) return 0.0;
  double ss = 0;
  for (const double x : v) ss += (x - mean) * (x - mean);
  const double var = ss / static_cast<double>(m - 1);
  return std::sqrt(var / static_cast<double>(m) * static_cast<double>(n - m) / static_cast<double>(n - 1));
}

std::vector<NamedNeighbour> named(const NeighbourLists& nb, std::size_t i, const Vocab& vocab,
                                  const std::vector<Id>& rows) {
  std::vector<NamedNeighbour> out;
  for (std::size_t j = 0; j < nb.k; ++j)
    out.push_back({vocab.token(rows[static_cast<std::size_t>(nb.row(i)[j])]), nb.cosine[i * nb.k + j]});
  return out;
}

}  // namespace

Comparison compare_tables(const Table& a, const Table& b, const CompareOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  if (options.k == 0) throw UsageError("compare: k must be >= 1");
  Comparison c;
  c.V_a = a.V();
  c.V_b = b.V();
  c.d_a = a.d();
  c.d_b = b.d();
  c.k = options.k;
  SharedVocab s = shared_vocab(a.vocab, b.vocab);
  c.shared = s.size();
  if (s.size() == 0)
    throw InputError(
        fmt::format("compare: {} and {} share no words (is one of them labelled by token ids?)", a.source, b.source));
  // A NaN or an infinity in either row: the pair has no cosine and would poison the SVD, so it is left out, named.
  std::size_t kept = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (a.E.row_finite(s.a_rows[i]) && b.E.row_finite(s.b_rows[i])) {
      s.a_rows[kept] = s.a_rows[i];
      s.b_rows[kept++] = s.b_rows[i];
    } else if (++c.non_finite <= kNamedLeftOut) {
      c.non_finite_words.push_back(a.vocab.token(s.a_rows[i]));
    }
  }
  s.a_rows.resize(kept);
  s.b_rows.resize(kept);
  if (options.top > 0 && options.top < s.size()) {
    s.a_rows.resize(options.top);
    s.b_rows.resize(options.top);
  }
  c.n = s.size();
  if (c.n <= options.k)
    throw InputError(
        fmt::format("compare: {} shared words{}, but k = {} neighbours per word needs at least {}", c.n,
                    c.non_finite ? fmt::format(" with finite rows ({} have a NaN or an infinity)", c.non_finite) : "",
                    options.k, options.k + 1));

  const std::size_t m = options.sample ? (*options.sample == 0 ? c.n : std::min(*options.sample, c.n))
                                       : (c.n > kAutoSampleAbove ? kAutoSample : c.n);
  if (m < 2) throw UsageError("compare: a sample needs at least 2 words");
  const std::vector<std::int32_t> queries = query_rows(c.n, m, options.seed);
  c.queries = m;
  c.sampled = m < c.n;
  c.seed = options.seed;

  const Matrix A = gather(a.E, s.a_rows), B = gather(b.E, s.b_rows);
  auto stage = [&](const char* name) {
    return [&options, name](const std::string&, std::uint64_t done, std::uint64_t total) {
      if (options.progress) options.progress(name, done, total);
    };
  };
  const std::vector<std::int32_t>* which = c.sampled ? &queries : nullptr;
  const NeighbourLists na = cosine_neighbours(A, options.k, options.threads, stage("neighbours A"), which);
  const NeighbourLists nb = cosine_neighbours(B, options.k, options.threads, stage("neighbours B"), which);
  c.overlap = neighbour_overlap(na, nb);
  c.mean_overlap = std::accumulate(c.overlap.begin(), c.overlap.end(), 0.0) / static_cast<double>(m);
  c.median_overlap = median(c.overlap);
  c.overlap_stderr = mean_stderr(c.overlap, c.mean_overlap, c.n);
  c.histogram.assign(c.k + 1, 0);
  for (const double o : c.overlap) ++c.histogram[static_cast<std::size_t>(std::lround(o * static_cast<double>(c.k)))];

  if (options.progress) options.progress("products", 0, 1);
  const CrossGram g = cross_gram(A, B, options.threads);
  if (c.d_a == c.d_b) c.procrustes = orthogonal_procrustes(g, options.threads);
  else
    c.procrustes_skipped = fmt::format("Procrustes needs tables of equal d (A has d = {}, B has d = {})", c.d_a, c.d_b);
  c.cka = linear_cka(g);
  if (options.progress) options.progress("products", 1, 1);

  // The most changed: lowest overlap, then the more frequent (lower row in A) first.
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), 0);
  const std::size_t moved = std::min(options.moved, m);
  std::partial_sort(
      order.begin(), order.begin() + static_cast<std::ptrdiff_t>(moved), order.end(),
      [&](std::size_t x, std::size_t y) { return c.overlap[x] != c.overlap[y] ? c.overlap[x] < c.overlap[y] : x < y; });
  for (std::size_t j = 0; j < moved; ++j) {
    const std::size_t q = order[j], i = static_cast<std::size_t>(queries[q]);
    c.moved.push_back({a.vocab.token(s.a_rows[i]), s.a_rows[i], s.b_rows[i], c.overlap[q],
                       named(na, q, a.vocab, s.a_rows), named(nb, q, a.vocab, s.a_rows)});
  }
  c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return c;
}

}  // namespace lumen::eval
