#include "lumen/model/drift.hpp"

#include <cmath>
#include <fmt/format.h>

#include "lumen/core/cosine.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/matrix.hpp"
#include "lumen/core/utf8.hpp"
#include "lumen/linalg/blas.hpp"
#include "lumen/project/pca.hpp"
#include "lumen/project/trajectory_plot.hpp"

namespace lumen::model {

namespace {

// The bare spelling of what the user typed: " bank", "␣bank", "Ġbank" -> "bank".
std::string bare(const std::string& token) {
  for (const std::string prefix : {" ", "\u2423", "\u0120"})
    if (token.starts_with(prefix)) return token.substr(prefix.size());
  return token;
}

std::size_t find_token(const text::Tokenizer& tok, const std::string& token, const std::vector<std::int32_t>& ids,
                       const std::string& context) {
  if (const auto id = tok.find(token))
    for (std::size_t p = 0; p < ids.size(); ++p)
      if (ids[p] == *id) return p;
  const std::string word = bare(token);
  for (std::size_t p = 0; p < ids.size(); ++p) {
    const std::string& piece = tok.piece(ids[p]);
    if (piece == word || piece == " " + word) return p;
  }
  std::string pieces;
  for (auto id : ids) pieces += (pieces.empty() ? "" : " ") + tok.label(id);
  throw InputError(
      fmt::format("no token '{}' in \"{}\" (its tokens: {})", token, utf8_excerpt(context), utf8_excerpt(pieces)));
}

}  // namespace

std::vector<DriftSite> drift_sites(const Transformer& model, const text::Tokenizer& tok, const std::string& token,
                                   const std::vector<std::string>& contexts) {
  if (contexts.size() != 2) throw UsageError(fmt::format("drift compares two contexts; got {}", contexts.size()));
  const std::size_t max_context = model.shape().context;
  std::vector<DriftSite> sites;
  for (const std::string& context : contexts) {
    DriftSite site;
    const auto enc = tok.encode(context);
    site.ids.assign(enc.begin(), enc.end());
    if (site.ids.empty()) throw InputError(fmt::format("\"{}\" encodes to no tokens", utf8_excerpt(context)));
    if (site.ids.size() > max_context)
      throw InputError(fmt::format("\"{}\" is {} tokens; the model's context is {}", utf8_excerpt(context),
                                   site.ids.size(), max_context));
    site.position = find_token(tok, token, site.ids, context);
    sites.push_back(std::move(site));
  }
  return sites;
}

Drift drift(const Transformer& model, const text::Tokenizer& tok, const std::string& token,
            const std::vector<std::string>& contexts, std::size_t k, std::size_t threads) {
  std::vector<DriftSite> sites = drift_sites(model, tok, token, contexts);
  const nn::ModelShape& s = model.shape();
  const std::size_t C = s.d, V = s.V, L = s.layers + 1;
  k = std::min<std::size_t>(std::max<std::size_t>(k, 1), V);
  Drift d;
  const Param& E = model.weights().wte;  // (V, C)
  std::vector<float> row_norm(V);
  for (std::size_t v = 0; v < V; ++v) {
    double n2 = 0;
    for (std::size_t c = 0; c < C; ++c) n2 += double(E[v * C + c]) * E[v * C + c];
    row_norm[v] = static_cast<float>(std::sqrt(n2));
  }
  std::vector<float> dots(V), normed(C), logits(V);
  // Per layer, every position's state of both contexts: the set the layer's baseline is measured on.
  std::size_t T = 0;
  for (const DriftSite& site : sites) T += site.ids.size();
  std::vector<Matrix> pooled;
  for (std::size_t l = 0; l < L; ++l) pooled.emplace_back(T, C);
  std::size_t filled = 0;
  for (std::size_t i = 0; i < contexts.size(); ++i) {
    DriftOccurrence o;
    o.context = contexts[i];
    o.ids = std::move(sites[i].ids);
    o.position = sites[i].position;
    o.token = o.ids[o.position];
    ForwardOptions fo;
    fo.keep_layers = true;
    fo.no_logits = true;
    fo.threads = threads;
    const ForwardResult r = model.forward(o.ids, fo);
    for (std::size_t l = 0; l < L; ++l)
      std::copy(r.layers[l].begin(), r.layers[l].begin() + static_cast<std::ptrdiff_t>(o.ids.size() * C),
                pooled[l].f32_mut().begin() + static_cast<std::ptrdiff_t>(filled * C));
    filled += o.ids.size();
    for (std::size_t l = 0; l < L; ++l) {
      std::vector<float> h(r.layers[l].begin() + static_cast<std::ptrdiff_t>(o.position * C),
                           r.layers[l].begin() + static_cast<std::ptrdiff_t>((o.position + 1) * C));
      // Nearest rows of E by cosine: E (V,C) . h (C) through BLAS, divided by the norms.
      {
        const ScopedBlasThreads guard(threads);
        blas::sgemv(guard, V, C, 1.0f, E.data(), C, h.data(), 0.0f, dots.data());
      }
      double hn = 0;
      for (float x : h) hn += double(x) * x;
      hn = std::sqrt(hn);
      std::vector<float> cosines(V);
      for (std::size_t v = 0; v < V; ++v)
        cosines[v] = row_norm[v] > 0 && hn > 0 ? static_cast<float>(dots[v] / (row_norm[v] * hn)) : 0.0f;
      std::vector<DriftNeighbour> nearest;
      for (const auto& t : top_tokens(cosines.data(), V, k)) nearest.push_back({t.id, t.logit});
      o.nearest.push_back(std::move(nearest));
      // The logit lens: the final norm, then the head.
      model.final_norm(normed.data(), h.data(), 1);
      model.head(logits.data(), normed.data(), 1, threads);
      o.lens.push_back(top_tokens(logits.data(), V, k));
      o.states.push_back(std::move(h));
    }
    d.occurrences.push_back(std::move(o));
  }
  const DriftOccurrence &a = d.occurrences[0], &b = d.occurrences[1];
  project::AnisotropyOptions ao;
  ao.threads = threads;
  for (std::size_t l = 0; l < L; ++l) {
    d.cosine.push_back(
        cosine(std::span<const float>(a.states[l].data(), C), std::span<const float>(b.states[l].data(), C)));
    d.baseline.push_back(project::anisotropy(pooled[l], ao));
    d.adjusted.push_back(project::baseline_adjusted(d.cosine[l], d.baseline[l].mean_cosine));
  }
  d.same_token = a.token == b.token;
  d.learned_positions = !model.weights().wpe.empty();
  double t2 = 0;
  for (std::size_t c = 0; c < C; ++c) t2 += double(E[a.token * C + c]) * E[a.token * C + c];
  d.token_row_norm = std::sqrt(t2);
  if (d.learned_positions) {
    const Param& P = model.weights().wpe;
    double p2 = 0;
    for (std::size_t c = 0; c < C; ++c) {
      const double diff = double(P[a.position * C + c]) - P[b.position * C + c];
      p2 += diff * diff;
    }
    d.position_term_norm = std::sqrt(p2);
  }
  // PCA of the 2(N+1) states.
  Matrix states(2 * L, C);
  for (std::size_t i = 0; i < 2 * L; ++i) {
    const auto& st = d.occurrences[i / L].states[i % L];
    std::copy(st.begin(), st.end(), states.row_mut(i).begin());
  }
  const std::size_t comps = std::min<std::size_t>(2, C);
  const project::Pca pca = project::fit_pca(states, {}, comps, threads);
  const Matrix xy = project::pca_transform(pca, states, {}, threads);
  for (std::size_t i = 0; i < 2 * L; ++i)
    for (std::size_t j = 0; j < 2; ++j) d.pca_xy.push_back(j < comps ? xy.at(i, j) : 0.0f);
  d.pca_variance_ratio = pca.variance_ratio;
  d.pca_variance_ratio.resize(2, 0.0);
  return d;
}

std::string render_drift(const Drift& d, const text::Tokenizer& tok, project::PlotFormat format) {
  project::TrajectoryPlot p;
  const std::size_t L = d.cosine.size();
  const DriftOccurrence& a = d.occurrences[0];
  p.title = fmt::format("'{}' layer by layer in two contexts", tok.label(a.token));
  p.map_title = fmt::format("hidden states, PCA ({:.0f}% + {:.0f}% of the variance)", 100 * d.pca_variance_ratio[0],
                            100 * d.pca_variance_ratio[1]);
  p.curve_title = "cosine between the two occurrences";
  p.curve_x = "layer";
  p.curve_y = "cosine";
  p.curve_min = 0;
  p.curve_max = 1;
  p.curve = d.cosine;
  for (const auto& b : d.baseline) p.reference.push_back(b.mean_cosine);
  p.curve_name = "the two occurrences";
  p.reference_name = "baseline: random pairs of positions";
  for (std::size_t o = 0; o < d.occurrences.size(); ++o) {
    project::Trajectory t;
    t.name = d.occurrences[o].context;
    t.xy.assign(d.pca_xy.begin() + static_cast<std::ptrdiff_t>(o * L * 2),
                d.pca_xy.begin() + static_cast<std::ptrdiff_t>((o + 1) * L * 2));
    for (std::size_t l = 0; l < L; ++l) t.labels.push_back(std::to_string(l));
    p.paths.push_back(std::move(t));
  }
  p.caption.push_back(fmt::format("layer 0 = E row + position: cosine {:.4f}", d.cosine[0]));
  if (d.learned_positions)
    p.caption.push_back(fmt::format("(the position rows differ by {:.3f}; the token row's norm is {:.3f})",
                                    d.position_term_norm, d.token_row_norm));
  p.caption.push_back(fmt::format("last layer: cosine {:.4f}, baseline {:.4f}, adjusted {:.4f}", d.cosine.back(),
                                  d.baseline.back().mean_cosine, d.adjusted.back()));
  return project::render_trajectories(p, format);
}

}  // namespace lumen::model
