#include "lumen/project/map.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <functional>
#include <string>
#include <string_view>

#include "lumen/core/error.hpp"
#include "lumen/project/honesty.hpp"
#include "lumen/project/pca.hpp"
#include "lumen/project/tsne.hpp"
#include "lumen/project/umap.hpp"

namespace lumen::project {

Method parse_method(const std::string& name) {
  if (name == "pca") return Method::pca;
  if (name == "tsne" || name == "t-sne") return Method::tsne;
  if (name == "umap") return Method::umap;
  if (name == "identity") return Method::identity;
  throw UsageError(fmt::format("unknown projection method '{}' (pca, tsne, umap, or identity for a 2-D table)", name));
}

const char* method_name(Method method) {
  switch (method) {
    case Method::pca: return "pca";
    case Method::tsne: return "tsne";
    case Method::umap: return "umap";
    case Method::identity: return "identity";
  }
  return "?";
}

namespace {
std::string pct(double x) { return fmt::format("{:.1f}%", 100.0 * x); }

// The rows a map shows: o.rows, or every row; each checked. A NaN or an infinity has no place on a map and would
// break the eigensolver and t-SNE's affinities: such rows go to left_out, in order.
void choose_map_rows(const Matrix& E, const MapOptions& o, Map& m) {
  if (o.rows.empty()) {
    m.rows.resize(E.rows());
    for (std::size_t i = 0; i < E.rows(); ++i) m.rows[i] = static_cast<Id>(i);
  } else {
    m.rows = o.rows;
  }
  if (o.seeds == 0) throw OptionError("seeds", "{option} must be at least 1");
  for (std::size_t r = 0; r < m.rows.size(); ++r)
    if (m.rows[r] < 0 || static_cast<std::size_t>(m.rows[r]) >= E.rows())
      throw IdError(m.rows[r], r, static_cast<std::int64_t>(E.rows()));
  const auto finite_end = std::stable_partition(m.rows.begin(), m.rows.end(),
                                                [&E](Id id) { return E.row_finite(static_cast<std::size_t>(id)); });
  m.left_out.assign(finite_end, m.rows.end());
  m.rows.erase(finite_end, m.rows.end());
  const std::size_t n = m.rows.size();
  if (n < 3)
    throw InputError(m.left_out.empty() ? fmt::format("a map needs at least 3 rows (got {})", n)
                                        : fmt::format("a map needs at least 3 rows with finite values (got {}; {} "
                                                      "hold a NaN or an infinity)",
                                                      n, m.left_out.size()));
}

// The table is its own map: nothing to fit, nothing lost.
void identity_map(const Matrix& E, Map& m) {
  if (E.cols() != 2)
    throw UsageError(fmt::format("the identity map shows a table of d = 2 as it is; this one has d = {}", E.cols()));
  m.xy.resize(2 * m.rows.size());
  for (std::size_t r = 0; r < m.rows.size(); ++r) E.row_f32(static_cast<std::size_t>(m.rows[r]), &m.xy[2 * r]);
}

// One fitted method's maps, and what their honesty numbers share: the selected rows X (n, d) in f32, the sample of
// points whose neighbours are compared, and each map's neighbours of that sample.
struct MapFit {
  const Matrix& E;
  const MapOptions& o;
  Map& m;
  std::size_t n;
  std::vector<std::int32_t> sample;
  Matrix X;  // for t-SNE, UMAP and the honesty numbers (PCA alone reads E in place)
  std::vector<Neighbours> maps;

  MapFit(const Matrix& E_, const MapOptions& o_, Map& m_)
      : E(E_), o(o_), m(m_), n(m_.rows.size()), sample(sample_points(n, o_.sample, o_.seed)) {
    m.k = std::min(o.k, n - 1);
    if (o.method != Method::pca || !sample.empty()) {
      X = Matrix(n, E.cols());
      for (std::size_t r = 0; r < n; ++r) E.row_f32(static_cast<std::size_t>(m.rows[r]), X.row_mut(r).data());
    }
    m.sampled = sample.size();
  }

  // The sample's neighbours in the original space (none without a sample).
  Neighbours original() const {
    return sample.empty() ? Neighbours{} : query_neighbours(X, sample, m.k, o.cosine, o.threads);
  }

  // The progress of seed s of a stochastic map, its stages prefixed with the method (and "s/K" for several).
  ProgressFn seed_progress(std::string_view method, std::size_t s) const {
    if (!o.progress) return nullptr;
    std::string label = o.seeds > 1 ? fmt::format("{} {}/{}: ", method, s + 1, o.seeds) : fmt::format("{}: ", method);
    return [&opt = o, label = std::move(label)](const std::string& stage, std::size_t done, std::size_t total) {
      opt.progress(label + stage, done, total);
    };
  }

  // Seed s's map Y (n,2): its honesty numbers against the original neighbours of the sample; the first is shown.
  void keep(std::size_t s, std::vector<float>& Y, const Neighbours& from) {
    if (!sample.empty()) {
      maps.push_back(map_neighbours(Y, n, sample, m.k, o.threads));
      m.preservation.push_back(knn_preservation(from, maps.back(), m.k));
    }
    if (s == 0) m.xy = std::move(Y);
  }

  void fit_pca_map() {
    if (o.progress) o.progress("PCA", 0, 1);
    // PCA reads E in place: every row (rows empty) unless some were left out.
    const std::vector<Id>& pca_rows = m.left_out.empty() ? o.rows : m.rows;
    const std::size_t k = std::min<std::size_t>(2, E.cols());
    const Pca pca = fit_pca(E, pca_rows, k, o.threads);
    const Matrix Y = pca_transform(pca, E, pca_rows, o.threads);
    std::vector<float> xy(2 * n, 0.0f);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t c = 0; c < k; ++c) xy[2 * i + c] = Y.at(i, c);
    m.variance_ratio = pca.variance_ratio;
    if (!sample.empty() && o.progress) o.progress("PCA: neighbours", 0, 1);
    keep(0, xy, original());
  }

  void fit_umap_maps() {
    UmapOptions u{.neighbors = o.neighbors, .min_dist = o.min_dist, .epochs = o.epochs, .knn = o.knn};
    u.cosine = o.cosine;
    u.threads = o.threads;
    m.neighbors = o.neighbors;
    m.min_dist = o.min_dist;
    const Neighbours from = original();  // once for every seed
    for (std::size_t s = 0; s < o.seeds; ++s) {
      u.seed = o.seed + s;
      u.progress = seed_progress("UMAP", s);
      UmapResult r = umap(X, u);
      m.seeds.push_back(u.seed);
      m.a = r.a;
      m.b = r.b;
      m.iterations = r.epochs;
      m.hnsw = r.hnsw;
      keep(s, r.Y, from);
    }
  }

  void fit_tsne_maps() {
    TsneOptions t{
        .perplexity = o.perplexity, .iterations = o.iterations, .theta = o.theta, .random_init = o.random_init};
    t.cosine = o.cosine;
    t.threads = o.threads;
    m.iterations = o.iterations;
    for (std::size_t s = 0; s < o.seeds; ++s) {
      t.seed = o.seed + s;
      t.progress = seed_progress("t-SNE", s);
      TsneResult r = tsne(X, t);
      m.seeds.push_back(t.seed);
      m.kl.push_back(r.kl);
      m.perplexity = r.perplexity;
      m.exact_gradient = r.exact_gradient;
      // The original neighbours of the sample: t-SNE's own lists when they hold k (3 x perplexity may be fewer).
      if (sample.empty()) keep(s, r.Y, Neighbours{});
      else if (r.neighbours.k >= m.k) keep(s, r.Y, select_rows(r.neighbours, sample));
      else keep(s, r.Y, original());
    }
  }

  // Two or more maps: how far their neighbour lists agree (mean k-NN Jaccard over the pairs).
  void agreement() {
    if (maps.size() < 2) return;
    double sum = 0;
    std::size_t pairs = 0;
    for (std::size_t a = 0; a < maps.size(); ++a)
      for (std::size_t b = a + 1; b < maps.size(); ++b, ++pairs) sum += knn_jaccard(maps[a], maps[b], m.k);
    m.agreement = sum / static_cast<double>(pairs);
  }
};

}  // namespace

Map make_map(const Matrix& E, const MapOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  Map m;
  m.method = o.method;
  choose_map_rows(E, o, m);
  if (o.method == Method::identity) {
    identity_map(E, m);
  } else {
    MapFit fit(E, o, m);
    if (o.method == Method::pca) fit.fit_pca_map();
    else if (o.method == Method::umap) fit.fit_umap_maps();
    else fit.fit_tsne_maps();
    fit.agreement();
  }
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return m;
}

std::vector<std::string> describe(const Map& m) {
  std::vector<std::string> lines;
  const std::string over = m.sampled < m.rows.size() ? fmt::format(" (a sample of {} points)", m.sampled) : "";
  double kept = 0;
  for (double p : m.preservation) kept += p;
  kept /= std::max<std::size_t>(1, m.preservation.size());
  if (m.method == Method::identity) {
    lines.emplace_back("The table is two-dimensional: this is the table itself, no projection.");
  } else if (m.method == Method::pca) {
    double both = 0;
    for (double r : m.variance_ratio) both += r;
    lines.push_back(fmt::format("PCA of {} points: the two axes hold {} of the variance ({})", m.rows.size(), pct(both),
                                m.variance_ratio.size() == 2
                                    ? fmt::format("PC1 {}, PC2 {}", pct(m.variance_ratio[0]), pct(m.variance_ratio[1]))
                                    : fmt::format("PC1 {}", pct(m.variance_ratio[0]))));
    if (!m.preservation.empty())
      lines.push_back(fmt::format("{}-NN kept from the original space: {}{}{}", m.k, pct(kept), over,
                                  both < 0.999 ? "; the rest of the variance is squashed flat" : ""));
  } else {
    const std::string seeds = fmt::format("seed{} {}", m.seeds.size() > 1 ? "s" : "",
                                          m.seeds.size() > 1 ? fmt::format("{}..{}", m.seeds.front(), m.seeds.back())
                                                             : fmt::format("{}", m.seeds.front()));
    if (m.method == Method::umap) {
      lines.push_back(fmt::format("UMAP of {} points: {} neighbours ({}), min_dist {:g}, {} epochs, {}", m.rows.size(),
                                  m.neighbors, m.hnsw ? "kNN graph from HNSW" : "exact kNN graph", m.min_dist,
                                  m.iterations, seeds));
    } else {
      std::string kls;
      for (std::size_t s = 0; s < m.kl.size(); ++s) kls += (s ? ", " : "") + fmt::format("{:.3f}", m.kl[s]);
      lines.push_back(fmt::format("t-SNE of {} points: perplexity {:.3g}, {} iterations, {}; final KL {}",
                                  m.rows.size(), m.perplexity, m.iterations, seeds, kls));
    }
    std::string per;
    if (m.preservation.size() > 1) {
      per = " (per seed:";
      for (double p : m.preservation) per += " " + pct(p);
      per += ")";
    }
    if (!m.preservation.empty())
      lines.push_back(fmt::format("{}-NN kept from the original space: {}{}{}", m.k, pct(kept), per, over));
    if (m.agreement >= 0)
      lines.emplace_back(fmt::format("maps agree with each other ({}-NN Jaccard between {} seeds): {}", m.k,
                                     m.seeds.size(), pct(m.agreement)));
    else if (m.seeds.size() == 1)
      lines.emplace_back("one seed only: make the map with 3 seeds to see how much another seed changes it");
    lines.emplace_back(fmt::format("cluster sizes and the distances between clusters on a {} map mean nothing",
                                   m.method == Method::umap ? "UMAP" : "t-SNE"));
  }
  if (!m.left_out.empty())
    lines.push_back(fmt::format("{} row{} left out of the map: {} a NaN or an infinity", m.left_out.size(),
                                m.left_out.size() == 1 ? "" : "s", m.left_out.size() == 1 ? "it holds" : "they hold"));
  return lines;
}

}  // namespace lumen::project
