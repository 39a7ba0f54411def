#include "lumen/project/tsne.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "lumen/core/dispatch.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/project/pca.hpp"
#include "project/quadtree.hpp"

namespace lumen::project {

const kernels::TsneTable& tsne_kernels(Isa isa) {
  return dispatch(isa, kernels::kTsneGeneric, kernels::kTsneAvx2, kernels::kTsneAvx512);
}

namespace {

// Y (n, 2) interleaved -> columns, for the vectorised O(N^2) loops.
void split_columns(const std::vector<float>& Y, std::vector<float>& xs, std::vector<float>& ys) {
  const std::size_t n = Y.size() / 2;
  xs.resize(n);
  ys.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    xs[i] = Y[2 * i];
    ys[i] = Y[2 * i + 1];
  }
}

}  // namespace

double tsne_gradient(const SparseP& P, const std::vector<float>& Y, double exaggeration, double theta,
                     std::vector<float>& grad, std::size_t threads) {
  const std::size_t n = P.n;
  if (Y.size() != 2 * n) throw InputError(fmt::format("t-SNE: a map of {} coordinates for {} points", Y.size(), n));
  if (threads == 0) threads = default_threads();
  threads = std::max<std::size_t>(1, std::min(threads, n));
  grad.assign(2 * n, 0.0f);
  std::vector<float> rep(2 * n, 0.0f);  // sum_j q_ij^2 (y_i - y_j), unnormalised
  std::vector<double> zpart(threads, 0.0);
  detail::QuadTree tree;
  std::vector<float> xs, ys;
  const bool exact = theta <= 0;
  if (exact) split_columns(Y, xs, ys);
  else tree.build(Y.data(), n);
  const auto& kern = tsne_kernels(active_isa());
  const float theta2 = static_cast<float>(theta * theta);
  const float exag = static_cast<float>(exaggeration);
  // Attraction: sum_j p_ij q_ij (y_i - y_j), over P's non-zeros; exact repulsion row by row.
  parallel_for(n, threads, [&](std::size_t b, std::size_t e, std::size_t t) {
    double z = 0;
    for (std::size_t i = b; i < e; ++i) {
      const float yx = Y[2 * i], yy = Y[2 * i + 1];
      float ax = 0, ay = 0;
      for (std::size_t p = P.ptr[i]; p < P.ptr[i + 1]; ++p) {
        const auto j = static_cast<std::size_t>(P.col[p]);
        const float dx = yx - Y[2 * j], dy = yy - Y[2 * j + 1];
        const float pq = P.val[p] / (1.0f + dx * dx + dy * dy);
        ax += pq * dx;
        ay += pq * dy;
      }
      grad[2 * i] = exag * ax;
      grad[2 * i + 1] = exag * ay;
      if (exact) {
        float fx = 0, fy = 0;
        z += kern.repulse(xs.data(), ys.data(), n, yx, yy, &fx, &fy) - 1.0;  // minus q_ii = 1
        rep[2 * i] = fx;
        rep[2 * i + 1] = fy;
      }
    }
    zpart[t] = z;
  });
  // Barnes-Hut repulsion, leaf by leaf of the tree.
  if (!exact)
    parallel_for(tree.leaves(), threads, [&](std::size_t b, std::size_t e, std::size_t t) {
      zpart[t] += tree.repulse_leaves(b, e, theta2, kern, rep.data());
    });
  double Z = 0;
  for (double z : zpart) Z += z;
  Z = std::max(Z, 1e-12);
  const auto invZ = static_cast<float>(1.0 / Z);
  // dC/dy_i = 4 (sum_j p_ij q_ij (y_i - y_j) - sum_j q_ij^2 (y_i - y_j) / Z)
  for (std::size_t c = 0; c < 2 * n; ++c) grad[c] = 4.0f * (grad[c] - rep[c] * invZ);
  return Z;
}

double tsne_kl(const SparseP& P, const std::vector<float>& Y, std::size_t threads) {
  const std::size_t n = P.n;
  if (Y.size() != 2 * n) throw InputError(fmt::format("t-SNE: a map of {} coordinates for {} points", Y.size(), n));
  if (threads == 0) threads = default_threads();
  threads = std::max<std::size_t>(1, std::min(threads, n));
  std::vector<float> xs, ys;
  split_columns(Y, xs, ys);
  const auto& kern = tsne_kernels(active_isa());
  std::vector<double> zpart(threads, 0.0), kpart(threads, 0.0);
  parallel_for(n, threads, [&](std::size_t b, std::size_t e, std::size_t t) {
    double z = 0, kl = 0;
    for (std::size_t i = b; i < e; ++i) {
      z += kern.kernel_sum(xs.data(), ys.data(), n, xs[i], ys[i]) - 1.0;
      // sum_j p_ij log(p_ij / qu_ij), qu unnormalised; log Z is added once below (P sums to 1).
      for (std::size_t p = P.ptr[i]; p < P.ptr[i + 1]; ++p) {
        const auto j = static_cast<std::size_t>(P.col[p]);
        const double pij = P.val[p];
        if (pij <= 0) continue;
        const double dx = xs[i] - xs[j], dy = ys[i] - ys[j];
        kl += pij * (std::log(pij) + std::log1p(dx * dx + dy * dy));
      }
    }
    zpart[t] = z;
    kpart[t] = kl;
  });
  double Z = 0, kl = 0, psum = 0;
  for (std::size_t t = 0; t < threads; ++t) {
    Z += zpart[t];
    kl += kpart[t];
  }
  for (float v : P.val) psum += v;
  return kl + psum * std::log(Z);
}

TsneResult tsne(const Matrix& X, const TsneOptions& o) {
  const std::size_t n = X.rows(), D = X.cols();
  if (n < 2) throw InputError(fmt::format("t-SNE needs at least 2 points (got {})", n));
  if (D == 0) throw InputError("t-SNE: the table has no columns");
  if (!(o.perplexity > 0)) throw UsageError(fmt::format("perplexity must be positive (got {})", o.perplexity));
  if (o.iterations == 0) throw UsageError("t-SNE: iterations must be at least 1");
  if (o.theta < 0 || o.theta > 1) throw UsageError(fmt::format("t-SNE: theta must be in [0, 1] (got {})", o.theta));
  const std::size_t threads = o.threads == 0 ? default_threads() : o.threads;
  auto report = [&](const char* stage, std::size_t done, std::size_t total) {
    if (o.progress) o.progress(stage, done, total);
  };

  TsneResult r;
  // Rows in f32 (unit-normalised for cosine: then Euclidean neighbours are cosine neighbours).
  Matrix Xf = X.dtype() == DType::f32 && !o.cosine ? X.clone() : X.to(DType::f32);
  if (o.cosine) {
    auto x = Xf.f32_mut();
    for (std::size_t i = 0; i < n; ++i) {
      double s = 0;
      for (std::size_t c = 0; c < D; ++c) s += static_cast<double>(x[i * D + c]) * x[i * D + c];
      if (s > 0)
        for (std::size_t c = 0; c < D; ++c) x[i * D + c] = static_cast<float>(x[i * D + c] / std::sqrt(s));
    }
  }

  // Input affinities from the exact k = 3 x perplexity nearest neighbours (fewer points: a lower perplexity).
  const double perplexity = std::min(o.perplexity, static_cast<double>(n - 1) / 3.0);
  if (!(perplexity > 0)) throw InputError("t-SNE needs at least 2 points");
  r.perplexity = perplexity;
  r.k = std::min<std::size_t>(n - 1, static_cast<std::size_t>(std::floor(3.0 * perplexity)));
  r.k = std::max<std::size_t>(r.k, 1);
  report("neighbours", 0, n);
  r.neighbours = exact_neighbours(Xf, r.k, threads, [&](const std::string&, std::uint64_t done, std::uint64_t total) {
    report("neighbours", done, total);
  });
  report("affinities", 0, n);
  const SparseP P = joint_affinities(r.neighbours, conditional_affinities(r.neighbours, perplexity, threads));

  // PCA initialisation, scaled so the first coordinate's standard deviation is 1e-4.
  std::vector<float> Y(2 * n, 0.0f);
  if (D >= 2) {
    const Pca pca = fit_pca(Xf, {}, 2, threads);
    const Matrix init = pca_transform(pca, Xf, {}, threads);
    const auto v = init.f32();
    double s = 0, s2 = 0;
    for (std::size_t i = 0; i < n; ++i) {
      s += v[2 * i];
      s2 += static_cast<double>(v[2 * i]) * v[2 * i];
    }
    const double mean = s / static_cast<double>(n);
    const double sd = std::sqrt(std::max(0.0, s2 / static_cast<double>(n) - mean * mean));
    const double scale = sd > 0 ? 1e-4 / sd : 1.0;
    for (std::size_t c = 0; c < 2 * n; ++c) Y[c] = static_cast<float>(v[c] * scale);
  }
  if (o.random_init) {
    Rng rng(o.seed);
    for (auto& y : Y) y = static_cast<float>(1e-4 * rng.normal());
  } else {
    // A seeded jitter (1e-6 of the spread): equal rows get distinct starts.
    Rng rng(o.seed);
    for (auto& y : Y) y += static_cast<float>(1e-10 * rng.normal());
  }

  // The optimiser of van der Maaten's reference: momentum 0.5 -> 0.8 at the end of early exaggeration,
  // gains +0.2 where the gradient points against the last update, x0.8 elsewhere, at least 0.01.
  r.exact_gradient = o.theta <= 0 || n < o.exact_below;
  const double theta = r.exact_gradient ? 0.0 : o.theta;
  r.learning_rate =
      o.learning_rate > 0 ? o.learning_rate : std::max(static_cast<double>(n) / o.early_exaggeration / 4.0, 50.0);
  const auto lr = static_cast<float>(r.learning_rate);
  std::vector<float> grad, update(2 * n, 0.0f), gains(2 * n, 1.0f);
  for (std::size_t it = 0; it < o.iterations; ++it) {
    const bool early = it < o.exaggeration_iterations;
    tsne_gradient(P, Y, early ? o.early_exaggeration : 1.0, theta, grad, threads);
    const float momentum = early ? 0.5f : 0.8f;
    double mx = 0, my = 0;
    for (std::size_t c = 0; c < 2 * n; ++c) {
      gains[c] = update[c] * grad[c] < 0 ? gains[c] + 0.2f : std::max(gains[c] * 0.8f, 0.01f);
      update[c] = momentum * update[c] - lr * gains[c] * grad[c];
      Y[c] += update[c];
      (c % 2 ? my : mx) += Y[c];
    }
    // Keep the map centred (the gradient is translation-invariant; this only keeps the numbers small).
    mx /= static_cast<double>(n);
    my /= static_cast<double>(n);
    for (std::size_t i = 0; i < n; ++i) {
      Y[2 * i] -= static_cast<float>(mx);
      Y[2 * i + 1] -= static_cast<float>(my);
    }
    if (it % 10 == 9 || it + 1 == o.iterations) report("optimise", it + 1, o.iterations);
  }
  r.kl = tsne_kl(P, Y, threads);
  r.Y = std::move(Y);
  return r;
}

}  // namespace lumen::project
