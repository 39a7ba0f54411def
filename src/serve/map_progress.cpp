#include "map_progress.hpp"

#include <algorithm>
#include <charconv>
#include <string>

namespace lumen::serve {

namespace {

struct StageShare {
  std::string_view name;
  double begin, end;  // its share of one seed's time
};

// Each method's stages in the order it reports them, with their shares of one seed's time (measured roughly on a
// few thousand rows: finding neighbours and the optimisation dominate).
constexpr StageShare kStages[] = {
    {"t-SNE: neighbours", 0.0, 0.25}, {"t-SNE: affinities", 0.25, 0.3},
    {"t-SNE: optimise", 0.3, 1.0},    {"UMAP: neighbours", 0.0, 0.3},
    {"UMAP: graph", 0.3, 0.35},       {"UMAP: start", 0.35, 0.4},
    {"UMAP: layout", 0.4, 1.0},       {"PCA", 0.0, 0.8},
    {"PCA: neighbours", 0.8, 1.0},
};

}  // namespace

double map_progress(std::string_view stage, double fraction) {
  fraction = std::clamp(fraction, 0.0, 1.0);
  // "t-SNE 2/3: optimise" -> method "t-SNE", seed 2 of 3, stage "optimise"; "t-SNE: optimise" is seed 1 of 1.
  std::size_t seed = 1, seeds = 1;
  std::string key(stage);
  const std::size_t colon = stage.find(": ");
  const std::string_view head = stage.substr(0, colon);
  if (const std::size_t space = head.rfind(' '), slash = head.rfind('/');
      space != std::string_view::npos && slash != std::string_view::npos && slash > space) {
    const std::string_view k = head.substr(space + 1, slash - space - 1), n = head.substr(slash + 1);
    std::size_t a = 0, b = 0;
    if (std::from_chars(k.data(), k.data() + k.size(), a).ec == std::errc{} &&
        std::from_chars(n.data(), n.data() + n.size(), b).ec == std::errc{} && a >= 1 && a <= b) {
      seed = a;
      seeds = b;
      key = std::string(head.substr(0, space)) + std::string(stage.substr(colon));
    }
  }
  double within = 0.0;
  for (const StageShare& s : kStages)
    if (s.name == key) within = s.begin + (s.end - s.begin) * fraction;
  return (static_cast<double>(seed - 1) + within) / static_cast<double>(seeds);
}

}  // namespace lumen::serve
