#include "lumen/project/umap.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <numeric>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/linalg/blas.hpp"

namespace lumen::project {

void fit_ab(double min_dist, double spread, double& a, double& b) {
  if (!(spread > 0) || !(min_dist >= 0) || min_dist > spread)
    throw UsageError(fmt::format("UMAP needs 0 <= min_dist <= spread and spread > 0 (got min_dist {}, spread {})",
                                 min_dist, spread));
  constexpr int kPoints = 300;
  std::vector<double> x(kPoints), y(kPoints);
  for (int i = 0; i < kPoints; ++i) {
    x[i] = 3.0 * spread * i / (kPoints - 1);  // numpy.linspace(0, 3 spread, 300)
    y[i] = x[i] < min_dist ? 1.0 : std::exp(-(x[i] - min_dist) / spread);
  }
  // Levenberg-Marquardt on the two parameters, from a = b = 1 (scipy's curve_fit starts there too).
  auto residual = [&](double pa, double pb) {
    double s = 0;
    for (int i = 0; i < kPoints; ++i) {
      const double r = 1.0 / (1.0 + pa * std::pow(x[i], 2 * pb)) - y[i];
      s += r * r;
    }
    return s;
  };
  a = 1.0, b = 1.0;
  double lambda = 1e-3, cost = residual(a, b);
  for (int it = 0; it < 500; ++it) {
    double jaa = 0, jab = 0, jbb = 0, ga = 0, gb = 0;
    for (int i = 0; i < kPoints; ++i) {
      const double u = x[i] > 0 ? std::pow(x[i], 2 * b) : 0.0;
      const double f = 1.0 / (1.0 + a * u), r = f - y[i];
      const double da = -u * f * f, db = x[i] > 0 ? -a * u * 2.0 * std::log(x[i]) * f * f : 0.0;
      jaa += da * da, jab += da * db, jbb += db * db, ga += da * r, gb += db * r;
    }
    bool improved = false;
    for (int tries = 0; tries < 30 && !improved; ++tries) {
      const double m11 = jaa * (1 + lambda), m22 = jbb * (1 + lambda), det = m11 * m22 - jab * jab;
      const double step_a = -(m22 * ga - jab * gb) / det, step_b = -(m11 * gb - jab * ga) / det;
      const double next = residual(a + step_a, b + step_b);
      if (std::isfinite(next) && next < cost) {
        const double gain = cost - next;
        a += step_a, b += step_b, cost = next, lambda = std::max(lambda / 10, 1e-12), improved = true;
        if (gain < 1e-15 * std::max(1.0, cost)) return;
      } else {
        lambda *= 10;
      }
    }
    if (!improved) return;  // at the minimum, to rounding
  }
}

namespace {

// The fuzzy graph in coordinates: each undirected edge twice (i -> j and j -> i), sorted by (head, tail).
struct Graph {
  std::vector<std::int32_t> head, tail;
  std::vector<float> w;
};

// smooth-kNN: each point's membership strengths to its neighbours (laid out as nb), umap-learn's
// smooth_knn_dist and compute_membership_strengths with local_connectivity 1 and bandwidth 1.
std::vector<float> memberships(const Neighbours& nb, std::size_t k) {
  const double target = std::log2(static_cast<double>(k));
  std::vector<float> w(nb.n * nb.k);
  double mean_all = 0;
  for (const float d2 : nb.dist2) mean_all += std::sqrt(static_cast<double>(d2));
  mean_all /= static_cast<double>(std::max<std::size_t>(1, nb.dist2.size()));
  std::vector<double> d(nb.k);
  for (std::size_t i = 0; i < nb.n; ++i) {
    double rho = 0, mean = 0;
    for (std::size_t j = 0; j < nb.k; ++j) {
      d[j] = std::sqrt(static_cast<double>(nb.row_dist2(i)[j]));
      mean += d[j];
      if (rho == 0 && d[j] > 0) rho = d[j];
    }
    mean /= static_cast<double>(nb.k);
    double lo = 0, hi = std::numeric_limits<double>::infinity(), sigma = 1;
    for (int it = 0; it < 64; ++it) {
      double psum = 0;
      for (std::size_t j = 0; j < nb.k; ++j) psum += d[j] - rho > 0 ? std::exp(-(d[j] - rho) / sigma) : 1.0;
      if (std::abs(psum - target) < 1e-5) break;
      if (psum > target) hi = sigma, sigma = (lo + hi) / 2;
      else lo = sigma, sigma = std::isinf(hi) ? sigma * 2 : (lo + hi) / 2;
    }
    sigma = std::max(sigma, 1e-3 * (rho > 0 ? mean : mean_all));  // umap-learn's MIN_K_DIST_SCALE
    for (std::size_t j = 0; j < nb.k; ++j)
      w[i * nb.k + j] = d[j] - rho <= 0 || sigma == 0 ? 1.0f : static_cast<float>(std::exp(-(d[j] - rho) / sigma));
  }
  return w;
}

// The fuzzy union P = W + Wᵀ − W∘Wᵀ of the directed memberships.
Graph fuzzy_union(const Neighbours& nb, const std::vector<float>& w) {
  struct Entry {
    std::int32_t lo, hi;
    float w;
    bool forward;  // lo -> hi
  };
  std::vector<Entry> e;
  e.reserve(nb.n * nb.k);
  for (std::size_t i = 0; i < nb.n; ++i)
    for (std::size_t j = 0; j < nb.k; ++j) {
      const auto a = static_cast<std::int32_t>(i), b = nb.row(i)[j];
      if (a == b || w[i * nb.k + j] <= 0) continue;
      e.push_back({std::min(a, b), std::max(a, b), w[i * nb.k + j], a < b});
    }
  std::sort(e.begin(), e.end(), [](const Entry& x, const Entry& y) {
    return x.lo != y.lo ? x.lo < y.lo : x.hi != y.hi ? x.hi < y.hi : x.forward < y.forward;
  });
  std::vector<std::pair<std::pair<std::int32_t, std::int32_t>, float>> edges;
  for (std::size_t s = 0; s < e.size();) {
    double fw = 0, bw = 0;
    std::size_t t = s;
    for (; t < e.size() && e[t].lo == e[s].lo && e[t].hi == e[s].hi; ++t) (e[t].forward ? fw : bw) = e[t].w;
    const auto p = static_cast<float>(fw + bw - fw * bw);
    edges.push_back({{e[s].lo, e[s].hi}, p});
    edges.push_back({{e[s].hi, e[s].lo}, p});
    s = t;
  }
  std::sort(edges.begin(), edges.end());
  Graph g;
  for (const auto& [ij, p] : edges) {
    g.head.push_back(ij.first);
    g.tail.push_back(ij.second);
    g.w.push_back(p);
  }
  return g;
}

// The spectral start: the two leading non-trivial eigenvectors of D^-1/2 P D^-1/2 (the smallest of the normalised
// Laplacian after the trivial one), by subspace iteration on its shift (M + I)/2 with the trivial vector √deg
// projected out, then Rayleigh-Ritz. False if the graph has an isolated point or the vectors collapse.
bool spectral_start(const Graph& g, std::size_t n, std::vector<double>& Y) {
  constexpr std::size_t kBlock = 4, kIterations = 300;
  std::vector<double> deg(n, 0.0);
  for (std::size_t e = 0; e < g.w.size(); ++e) deg[static_cast<std::size_t>(g.head[e])] += g.w[e];
  std::vector<double> v0(n);
  double norm0 = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(deg[i] > 0)) return false;
    v0[i] = std::sqrt(deg[i]);
    norm0 += deg[i];
  }
  for (auto& v : v0) v /= std::sqrt(norm0);
  std::vector<double> m(g.w.size());  // (M + I)/2's off-diagonal entries: w_ij / (2 √(deg_i deg_j))
  for (std::size_t e = 0; e < g.w.size(); ++e)
    m[e] = 0.5 * g.w[e] / (v0[static_cast<std::size_t>(g.head[e])] * v0[static_cast<std::size_t>(g.tail[e])] * norm0);
  auto apply = [&](const std::vector<double>& x, std::vector<double>& out) {  // out = (M + I)/2 x
    for (std::size_t i = 0; i < n; ++i) out[i] = 0.5 * x[i];
    for (std::size_t e = 0; e < g.w.size(); ++e)
      out[static_cast<std::size_t>(g.head[e])] += m[e] * x[static_cast<std::size_t>(g.tail[e])];
  };
  auto orthonormalise = [&](std::vector<std::vector<double>>& V) {
    for (std::size_t c = 0; c < V.size(); ++c) {
      for (int pass = 0; pass < 2; ++pass) {
        double p = std::inner_product(V[c].begin(), V[c].end(), v0.begin(), 0.0);
        for (std::size_t i = 0; i < n; ++i) V[c][i] -= p * v0[i];
        for (std::size_t q = 0; q < c; ++q) {
          p = std::inner_product(V[c].begin(), V[c].end(), V[q].begin(), 0.0);
          for (std::size_t i = 0; i < n; ++i) V[c][i] -= p * V[q][i];
        }
      }
      const double norm = std::sqrt(std::inner_product(V[c].begin(), V[c].end(), V[c].begin(), 0.0));
      if (!(norm > 1e-300)) return false;
      for (auto& v : V[c]) v /= norm;
    }
    return true;
  };
  Rng rng(0x5eed);  // the start's own fixed stream: the seed varies only the layout
  const std::size_t block = std::min(kBlock, n - 1);
  std::vector<std::vector<double>> V(block, std::vector<double>(n)), AV(block, std::vector<double>(n));
  for (auto& c : V)
    for (auto& v : c) v = rng.normal();
  if (!orthonormalise(V)) return false;
  for (std::size_t it = 0; it < kIterations; ++it) {
    for (std::size_t c = 0; c < block; ++c) apply(V[c], AV[c]);
    std::swap(V, AV);
    if (!orthonormalise(V)) return false;
  }
  // Rayleigh-Ritz: the block's small symmetric matrix, its top two eigenvectors mapped back.
  for (std::size_t c = 0; c < block; ++c) apply(V[c], AV[c]);
  std::vector<double> H(block * block), ev(block);
  for (std::size_t r = 0; r < block; ++r)
    for (std::size_t c = 0; c < block; ++c)
      H[r * block + c] = std::inner_product(V[r].begin(), V[r].end(), AV[c].begin(), 0.0);
  const ScopedBlasThreads guard(1);  // a block x block matrix: no work to share
  if (blas::dsyev(guard, true, block, H.data(), ev.data()) != 0) return false;
  Y.assign(2 * n, 0.0);
  for (std::size_t axis = 0; axis < std::min<std::size_t>(2, block); ++axis) {
    const std::size_t col = block - 1 - axis;  // ascending eigenvalues: the largest last
    for (std::size_t r = 0; r < block; ++r)
      for (std::size_t i = 0; i < n; ++i) Y[2 * i + axis] += H[r * block + col] * V[r][i];
  }
  return true;
}

float clip(float v) { return std::max(-4.0f, std::min(4.0f, v)); }

void umap_report(const UmapOptions& o, const char* stage, std::size_t done, std::size_t total) {
  if (o.progress) o.progress(stage, done, total);
}

// The checks that need no work, before any is done: each error says what is wrong.
void check_umap_options(std::size_t n, const UmapOptions& o) {
  if (n < 3) throw InputError(fmt::format("UMAP needs at least 3 points (got {})", n));
  if (o.neighbors < 2 || o.neighbors > n)
    throw OptionError("neighbors",
                      fmt::format("{{option}} {} is out of range: the map has {} points (neighbours count the point "
                                  "itself, so 2 <= neighbors <= {})",
                                  o.neighbors, n, n));
  if (o.learning_rate <= 0) throw UsageError("UMAP: the learning rate must be > 0");
}

// X (n, d) with each row scaled to unit length (zero rows kept): Euclidean on them ranks as cosine.
Matrix unit_rows(const Matrix& X) {
  Matrix input(X.rows(), X.cols());
  for (std::size_t i = 0; i < X.rows(); ++i) {
    auto row = input.row_mut(i);
    X.row_f32(i, row.data());
    double s = 0;
    for (const float v : row) s += static_cast<double>(v) * v;
    const double norm = std::sqrt(s);
    if (norm > 0)
      for (auto& v : row) v = static_cast<float>(v / norm);
  }
  return input;
}

// The kNN graph: each point's k − 1 nearest neighbours (k counts the point itself), exact or from HNSW (`hnsw`
// says which), by cosine through unit rows or Euclidean.
Neighbours umap_neighbours(const Matrix& X, const UmapOptions& o, bool& hnsw) {
  Matrix input;  // unit rows for cosine
  const Matrix* points = &X;
  if (o.cosine) {
    input = unit_rows(X);
    points = &input;
  }
  if (o.knn != "auto" && o.knn != "exact" && o.knn != "hnsw")
    throw OptionError("knn", fmt::format("UMAP: {{option}} '{}' is not exact, hnsw or auto", o.knn));
  hnsw = o.knn == "hnsw" || (o.knn == "auto" && X.rows() > o.exact_up_to);
  const auto knn_progress = [&](const std::string&, std::uint64_t done, std::uint64_t total) {
    umap_report(o, "neighbours", done, total);
  };
  return hnsw ? hnsw_neighbours(*points, o.neighbors - 1, o.threads, knn_progress)
              : exact_neighbours(*points, o.neighbors - 1, o.threads, knn_progress);
}

// The layout's start Y (n, 2) interleaved: the spectral start scaled to ±10 plus N(0, 1e-4²) noise, or a uniform
// random one in [−10, 10)² where the eigen-solver could not use the graph (`spectral` false). Draws from `rng`,
// the layout's stream.
std::vector<float> initial_layout(const Graph& g, std::size_t n, Rng& rng, bool& spectral) {
  std::vector<double> start;
  spectral = spectral_start(g, n, start);
  if (spectral) {
    double top = 0;
    for (const double v : start) top = std::max(top, std::abs(v));
    const double expansion = top > 0 ? 10.0 / top : 1.0;
    for (auto& v : start) v = v * expansion + 1e-4 * rng.normal();
  } else {
    start.resize(2 * n);
    for (auto& v : start) v = -10.0 + 20.0 * rng.uniform();
  }
  // Each axis rescaled to [0, 10], as umap-learn does before the layout.
  std::vector<float> Y(2 * n);
  for (std::size_t axis = 0; axis < 2; ++axis) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (std::size_t i = 0; i < n; ++i) lo = std::min(lo, start[2 * i + axis]), hi = std::max(hi, start[2 * i + axis]);
    const double span = hi > lo ? hi - lo : 1.0;
    for (std::size_t i = 0; i < n; ++i) Y[2 * i + axis] = static_cast<float>(10.0 * (start[2 * i + axis] - lo) / span);
  }
  return Y;
}

// The edges the SGD samples (indices into the graph's) and when, in epochs: each is sampled every per_sample
// epochs and owes a negative sample every per_negative.
struct EdgeSchedule {
  std::vector<std::size_t> edges;
  std::vector<double> per_sample, next_sample, per_negative, next_negative;
};

EdgeSchedule schedule_edges(const Graph& g, std::size_t epochs, std::size_t negative_samples) {
  // Edges too weak to be sampled once in the run are dropped; the others are sampled every max_w / w epochs.
  const float max_w = g.w.empty() ? 0.0f : *std::max_element(g.w.begin(), g.w.end());
  EdgeSchedule s;
  for (std::size_t e = 0; e < g.w.size(); ++e)
    if (g.w[e] >= max_w / static_cast<float>(epochs)) s.edges.push_back(e);
  const std::size_t m = s.edges.size();
  s.per_sample.resize(m), s.next_sample.resize(m), s.per_negative.resize(m), s.next_negative.resize(m);
  for (std::size_t e = 0; e < m; ++e) {
    s.per_sample[e] = static_cast<double>(max_w) / g.w[s.edges[e]];
    s.next_sample[e] = s.per_sample[e];
    s.per_negative[e] = s.per_sample[e] / static_cast<double>(std::max<std::size_t>(1, negative_samples));
    s.next_negative[e] = s.per_negative[e];
  }
  return s;
}

// The SGD's inputs: the graph, the schedule (advanced as edges are sampled), the curve's a and b, γ and the rate,
// over Y (n, 2) interleaved, moved in place.
struct UmapSgd {
  const Graph& g;
  EdgeSchedule& schedule;
  float* Y;
  std::size_t n, epochs;
  double learning_rate;
  float a, b, gamma;
};

// How an epoch reads and writes the heads in Y: plainly on one thread, as relaxed atomics when threads share it.
struct PlainAccess {
  float load(const float& x) const { return x; }
  void store(float& x, float v) const { x = v; }
};
struct SharedAccess {
  float load(float& x) const { return std::atomic_ref<float>(x).load(std::memory_order_relaxed); }
  void store(float& x, float v) const { std::atomic_ref<float>(x).store(v, std::memory_order_relaxed); }
};

// One epoch's updates for edges [begin, end). With one thread, plain reads and writes in edge order: the same map
// for a seed every time. With more, the threads share Y lock-free as umap-learn's parallel layout does (Hogwild),
// each moving the heads of its edges in place (edges are sorted by head, so each thread's heads are mostly its
// own), while the tails and the random points that repel are read from `away`, a copy of Y made at the start of
// the round, and the tails' moves are summed in `pull` (the thread's own) and added at the end of the round.
// Reading and writing them live, on lines the other cores keep writing, cost more than the rest of the layout
// together (a second thread gained 5%); a position one round old is what the other threads' updates make of a
// live one anyway. With one thread, `away` is Y and `pull` moves Y itself.
template <class Access, class Pull>
void sgd_epoch_range(const UmapSgd& sgd, Access access, const float* away, Pull pull, std::size_t begin,
                     std::size_t end, std::size_t epoch, Rng& draw) {
  EdgeSchedule& s = sgd.schedule;
  const float a = sgd.a, b = sgd.b, gamma = sgd.gamma;
  const auto alpha =
      static_cast<float>(sgd.learning_rate * (1.0 - static_cast<double>(epoch) / static_cast<double>(sgd.epochs)));
  const auto now = static_cast<double>(epoch);
  for (std::size_t e = begin; e < end; ++e) {
    if (s.next_sample[e] > now) continue;
    const auto j = static_cast<std::size_t>(sgd.g.head[s.edges[e]]),
               k = static_cast<std::size_t>(sgd.g.tail[s.edges[e]]);
    float* cur = sgd.Y + 2 * j;
    float cx = access.load(cur[0]), cy = access.load(cur[1]);
    float dx = cx - away[2 * k], dy = cy - away[2 * k + 1], d2 = dx * dx + dy * dy;
    if (d2 > 0) {                        // attraction along the edge, both ends move
      const float pb = std::pow(d2, b);  // d^2b; d^2(b-1) = d^2b / d^2 (one pow, not two)
      const float coeff = -2.0f * a * b * (pb / d2) / (a * pb + 1.0f);
      const float gx = clip(coeff * dx) * alpha, gy = clip(coeff * dy) * alpha;
      cx += gx, cy += gy;
      access.store(cur[0], cx), access.store(cur[1], cy);
      pull(k, gx, gy);
    }
    s.next_sample[e] += s.per_sample[e];
    const auto negatives = static_cast<std::size_t>(std::max(0.0, (now - s.next_negative[e]) / s.per_negative[e]));
    for (std::size_t p = 0; p < negatives; ++p) {  // repulsion from random points, only this end moves
      const std::size_t m = draw.below(sgd.n);
      if (m == j) continue;
      const float* far = away + 2 * m;  // (Y itself with one thread)
      dx = cx - far[0], dy = cy - far[1], d2 = dx * dx + dy * dy;
      if (!(d2 > 0)) continue;
      const float coeff = 2.0f * gamma * b / ((0.001f + d2) * (a * std::pow(d2, b) + 1.0f));
      cx += clip(coeff * dx) * alpha, cy += clip(coeff * dy) * alpha;
    }
    access.store(cur[0], cx), access.store(cur[1], cy);
    s.next_negative[e] += static_cast<double>(negatives) * s.per_negative[e];
  }
}

// One epoch on several threads, in kRounds rounds of its edges so that what the threads read is at most a round
// old: `before` (n, 2) is Y at the start of the round, pulls[t] thread t's moves of the tails of its edges.
void shared_epoch(const UmapSgd& sgd, std::vector<float>& before, std::vector<std::vector<float>>& pulls,
                  std::size_t threads, std::size_t epoch, std::uint64_t seed) {
  constexpr std::size_t kRounds = 4;
  const std::size_t edges = sgd.schedule.edges.size();
  for (std::size_t round = 0; round < kRounds; ++round) {
    const std::size_t from = edges * round / kRounds, to = edges * (round + 1) / kRounds;
    std::copy(sgd.Y, sgd.Y + before.size(), before.begin());
    parallel_for(to - from, threads, [&](std::size_t begin, std::size_t end, std::size_t t) {
      Rng local(seed ^ (0x9e3779b97f4a7c15ull * ((epoch * kRounds + round) * threads + t + 1)));
      float* pull = pulls[t].data();
      sgd_epoch_range(
          sgd, SharedAccess{}, before.data(),
          [pull](std::size_t k, float gx, float gy) { pull[2 * k] -= gx, pull[2 * k + 1] -= gy; }, from + begin,
          from + end, epoch, local);
    });
    for (auto& pull : pulls)
      for (std::size_t i = 0; i < pull.size(); ++i) sgd.Y[i] += pull[i], pull[i] = 0.0f;
  }
}

// The SGD epochs: in edge order on one thread (drawing from `rng`), shared lock-free on more.
void sgd_layout(const UmapSgd& sgd, const UmapOptions& o, Rng& rng) {
  const std::size_t edges = sgd.schedule.edges.size();
  const std::size_t threads =
      std::max<std::size_t>(1, std::min(o.threads == 0 ? default_threads() : o.threads, edges / 1024));
  std::vector<float> before(threads > 1 ? 2 * sgd.n : 0);
  std::vector<std::vector<float>> pulls(threads > 1 ? threads : 0, std::vector<float>(2 * sgd.n));
  float* y = sgd.Y;
  for (std::size_t epoch = 0; epoch < sgd.epochs; ++epoch) {
    if (threads == 1) {
      sgd_epoch_range(
          sgd, PlainAccess{}, y, [y](std::size_t k, float gx, float gy) { y[2 * k] -= gx, y[2 * k + 1] -= gy; }, 0,
          edges, epoch, rng);
    } else {
      shared_epoch(sgd, before, pulls, threads, epoch, o.seed);
    }
    if (epoch % 10 == 9 || epoch + 1 == sgd.epochs) umap_report(o, "layout", epoch + 1, sgd.epochs);
  }
}

}  // namespace

UmapResult umap(const Matrix& X, const UmapOptions& o) {
  const std::size_t n = X.rows();
  check_umap_options(n, o);
  UmapResult r;
  fit_ab(o.min_dist, o.spread, r.a, r.b);
  r.k = o.neighbors;
  r.epochs = o.epochs > 0 ? o.epochs : (n <= 10000 ? 500 : 200);

  umap_report(o, "neighbours", 0, n);
  r.neighbours = umap_neighbours(X, o, r.hnsw);
  umap_report(o, "graph", 0, 1);
  const Graph g = fuzzy_union(r.neighbours, memberships(r.neighbours, o.neighbors));
  umap_report(o, "graph", 1, 1);

  umap_report(o, "start", 0, 1);
  Rng rng(o.seed);  // the layout's stream: the start's noise, then (one thread) the negative samples
  r.Y = initial_layout(g, n, rng, r.spectral);
  umap_report(o, "start", 1, 1);

  EdgeSchedule schedule = schedule_edges(g, r.epochs, o.negative_samples);
  const UmapSgd sgd{.g = g,
                    .schedule = schedule,
                    .Y = r.Y.data(),
                    .n = n,
                    .epochs = r.epochs,
                    .learning_rate = o.learning_rate,
                    .a = static_cast<float>(r.a),
                    .b = static_cast<float>(r.b),
                    .gamma = static_cast<float>(o.repulsion)};
  sgd_layout(sgd, o, rng);
  return r;
}

}  // namespace lumen::project
