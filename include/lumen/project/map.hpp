#pragma once
// A map of some rows of a table, by PCA, t-SNE or UMAP, with the numbers that say how far to trust it:
// for PCA the variance its two axes hold; for t-SNE the final KL, and for all how well the map keeps each
// point's 10 nearest neighbours of the original space; with several seeds, how much the t-SNE or UMAP maps agree.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lumen/core/matrix.hpp"
#include "lumen/core/progress.hpp"
#include "lumen/core/vocab.hpp"

namespace lumen::project {

// identity: a table of d = 2 shown as it is, no projection (the chapter's toy table).
enum class Method { pca, tsne, umap, identity };
Method parse_method(const std::string& name);  // "pca", "tsne", "umap" or "identity"; throws UsageError
const char* method_name(Method method);        // "pca", "tsne", "umap", "identity"

struct MapOptions {
  Method method = Method::pca;
  std::vector<Id> rows;  // the rows to map (empty: all)
  bool cosine = true;    // neighbours (t-SNE's input, honesty) by cosine, else Euclidean
  double perplexity = 30.0;
  std::size_t iterations = 1000;
  double theta = 0.5;
  bool random_init = false;
  std::size_t neighbors = 15;  // UMAP: neighbours per point, itself included
  double min_dist = 0.1;       // UMAP: how tightly points may pack
  std::size_t epochs = 0;      // UMAP: 0 = its default (500 up to 10,000 points, else 200)
  std::string knn = "auto";    // UMAP's kNN graph: exact, hnsw, or auto (HNSW above 20,000 points)
  std::uint64_t seed = 1;
  std::size_t seeds = 1;      // t-SNE or UMAP maps made with seeds seed, seed+1, ...
  std::size_t k = 10;         // neighbours compared by the honesty numbers
  std::size_t sample = 5000;  // honesty numbers over at most this many points (seeded sample; 0: none)
  std::size_t threads = 0;
  // (stage, done, total), stage e.g. "t-SNE 2/3: optimise".
  ProgressFn progress;
};

struct Map {
  Method method = Method::pca;
  std::vector<Id> rows;                // (n) the table rows mapped, in order
  std::vector<Id> left_out;            // rows asked for but not mapped: they hold a NaN or an infinity
  std::vector<float> xy;               // (n, 2) the map (t-SNE: the first seed's)
  std::vector<double> variance_ratio;  // PCA: each axis' share of the variance (2)
  std::vector<std::uint64_t> seeds;    // t-SNE, UMAP: the seeds used
  std::vector<double> kl;              // t-SNE: final KL per seed
  double perplexity = 0;               // t-SNE: the perplexity used
  std::size_t iterations = 0;
  bool exact_gradient = false;
  std::size_t neighbors = 0;         // UMAP: neighbours per point (itself included)
  double min_dist = 0;               // UMAP
  double a = 0, b = 0;               // UMAP: the fitted curve 1 / (1 + a d^2b)
  bool hnsw = false;                 // UMAP: the kNN graph came from the HNSW index (approximate)
  std::size_t k = 0;                 // honesty: neighbours compared
  std::size_t sampled = 0;           // honesty: points the numbers are averaged over
  std::vector<double> preservation;  // per map: mean share of the k original neighbours kept
  double agreement = -1;             // t-SNE or UMAP with 2+ seeds: mean k-NN Jaccard between maps; -1 otherwise
  double seconds = 0;                // time spent computing
};

// E (V, d) any dtype; identity needs d = 2 (UsageError otherwise) and has no honesty numbers. Rows holding a NaN or an
// infinity are left out (Map::left_out), not mapped. Throws IdError for a row outside [0, V), InputError with fewer
// than 3 rows to map.
Map make_map(const Matrix& E, const MapOptions& options);

// The honesty numbers as a few short lines, for a caption or a terminal.
std::vector<std::string> describe(const Map& map);

}  // namespace lumen::project
