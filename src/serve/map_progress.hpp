#pragma once
// A map job's progress as one number that only grows. project::make_map reports its stages one after another, each
// counting from 0 to its own total ("t-SNE 2/3: neighbours", then "t-SNE 2/3: affinities", "t-SNE 2/3: optimise"),
// so the bare fraction of the current stage runs backwards at every new stage and every new seed. Here each seed
// takes an equal share of the bar, and inside a seed each of the method's stages its usual share of the time.
#include <cstddef>
#include <string_view>

namespace lumen::serve {

// The whole job's progress, 0 to 1, when STAGE (as make_map names it) is FRACTION done. Seed k of K (from the
// stage's "k/K" prefix) covers [(k-1)/K, k/K). A caller keeps the largest value seen (a stage it does not know
// counts as the start of its seed).
double map_progress(std::string_view stage, double fraction);

}  // namespace lumen::serve
