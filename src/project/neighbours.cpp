#include "lumen/project/neighbours.hpp"

#include <algorithm>
#include <cblas.h>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/core/threads.hpp"
#include "project/blas_threads.hpp"
#include "project/topk_heap.hpp"

namespace lumen::project {

namespace {
void check_k(std::size_t n, std::size_t k) {
  if (k == 0) throw UsageError("neighbours: k must be at least 1");
  if (k >= n) throw UsageError(fmt::format("neighbours: k = {} needs more than {} points", k, n));
  if (n > static_cast<std::size_t>(INT32_MAX)) throw InputError("neighbours: more than 2^31 points");
}
}  // namespace

Neighbours exact_neighbours(const Matrix& X, std::size_t k, std::size_t threads) {
  const std::size_t n = X.rows(), d = X.cols();
  check_k(n, k);
  threads = detail::use_blas_threads(threads);
  const float* x = X.f32().data();
  Neighbours nb;
  nb.n = n;
  nb.k = k;
  nb.ids.resize(n * k);
  nb.dist2.resize(n * k);
  std::vector<float> norm2(n);
  parallel_for(n, threads, [&](std::size_t b, std::size_t e, std::size_t) {
    for (std::size_t i = b; i < e; ++i) {
      double s = 0;
      for (std::size_t c = 0; c < d; ++c) s += static_cast<double>(x[i * d + c]) * x[i * d + c];
      norm2[i] = static_cast<float>(s);
    }
  });
  // |q - x|^2 = |q|^2 + |x|^2 - 2 q.x, the dot products of a block of queries against every row by one sgemm.
  const std::size_t B = std::max<std::size_t>(64, std::min<std::size_t>(512, (std::size_t{48} << 20) / (4 * n)));
  std::vector<float> S(B * n);
  for (std::size_t q0 = 0; q0 < n; q0 += B) {
    const std::size_t q1 = std::min(n, q0 + B);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, static_cast<int>(q1 - q0), static_cast<int>(n),
                static_cast<int>(d), 1.0f, x + q0 * d, static_cast<int>(d), x, static_cast<int>(d), 0.0f, S.data(),
                static_cast<int>(n));
    parallel_for(q1 - q0, threads, [&](std::size_t b, std::size_t e, std::size_t) {
      detail::TopK top(k);
      for (std::size_t r = b; r < e; ++r) {
        const std::size_t i = q0 + r;
        const float* s = S.data() + r * n;
        const float qi = norm2[i];
        for (std::size_t j = 0; j < n; ++j) {
          const float dist = std::max(0.0f, qi + norm2[j] - 2.0f * s[j]);
          if (dist <= top.bound() && j != i) top.push(dist, static_cast<std::int32_t>(j));
        }
        top.drain(nb.ids.data() + i * k, nb.dist2.data() + i * k);
      }
    });
  }
  return nb;
}

Neighbours map_neighbours(const std::vector<float>& Y, std::size_t n, const std::vector<std::int32_t>& queries,
                          std::size_t k, std::size_t threads) {
  check_k(n, k);
  if (Y.size() != 2 * n) throw InputError(fmt::format("map has {} coordinates for {} points", Y.size(), n));
  Neighbours nb;
  nb.n = queries.size();
  nb.k = k;
  nb.ids.resize(nb.n * k);
  nb.dist2.resize(nb.n * k);
  parallel_for(queries.size(), threads, [&](std::size_t b, std::size_t e, std::size_t) {
    detail::TopK top(k);
    for (std::size_t r = b; r < e; ++r) {
      const std::size_t i = static_cast<std::size_t>(queries[r]);
      if (i >= n) throw IdError(queries[r], r, static_cast<std::int64_t>(n));
      const float xi = Y[2 * i], yi = Y[2 * i + 1];
      for (std::size_t j = 0; j < n; ++j) {
        const float dx = Y[2 * j] - xi, dy = Y[2 * j + 1] - yi;
        const float dist = dx * dx + dy * dy;
        if (dist <= top.bound() && j != i) top.push(dist, static_cast<std::int32_t>(j));
      }
      top.drain(nb.ids.data() + r * k, nb.dist2.data() + r * k);
    }
  });
  return nb;
}

}  // namespace lumen::project
