#pragma once
// Anisotropy: how far a set of vectors points one way. A cosine between two rows (or two residual states) means
// little until it is set beside the cosine of two rows picked at random: in an anisotropic space (GPT-2's last
// layers, Ethayarajh 2019) almost any two vectors have a high cosine. Two figures, both reported wherever lumen
// shows cosines:
//   - the mean cosine of random pairs of distinct rows, with its standard deviation (the baseline);
//   - the share of the total variance along the top principal direction (1/d for an isotropic cloud, near 1 when
//     one direction dominates).
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "lumen/core/matrix.hpp"
#include "lumen/core/vocab.hpp"

namespace lumen::project {

struct AnisotropyOptions {
  std::size_t pairs = 10000;     // random pairs (every pair when there are no more than this many)
  std::size_t max_rows = 10000;  // the top direction is fitted on at most this many rows, drawn at random
  std::uint64_t seed = 0;
  bool keep_pairs = false;  // return the pairs used (a check against another implementation)
  std::size_t threads = 0;  // 0: the default
};

struct Anisotropy {
  std::size_t rows = 0;                       // rows that could take part: finite and not all zero
  std::size_t pairs = 0;                      // pairs the mean is over
  bool all_pairs = false;                     // every pair of those rows, not a sample
  double mean_cosine = 0;                     // the baseline
  double std_cosine = 0;                      // spread of the pairs' cosines (population standard deviation)
  std::size_t pca_rows = 0;                   // rows the top direction was fitted on
  double top_direction = 0;                   // share of the variance along the first principal direction
  std::vector<std::array<Id, 2>> pair_ids;    // with keep_pairs: the pairs, in the order summed
  bool defined() const { return pairs > 0; }  // false: fewer than two rows could take part (every figure 0)
};

// Of E's rows; rows holding NaN/Inf or only zeros are left out. Deterministic for a seed, whatever the thread
// count. With fewer than two rows that can take part there is nothing to measure: the result is not defined().
Anisotropy anisotropy(const Matrix& E, const AnisotropyOptions& options = {});

// A cosine set beside its baseline: (cos - baseline) / (1 - baseline). 0 is "as alike as two random vectors of
// this space", 1 is "the same direction"; negative is less alike than chance. It rescales the baseline correction
// of Ethayarajh (2019, "How Contextual are Contextualized Word Representations?", section 3.4), which subtracts
// the mean cosine of random words, so that 1 stays 1 whatever the baseline (as Cohen's kappa corrects agreement
// for chance). A baseline of 1 (or more) leaves nothing to rescale: the result is 0.
double baseline_adjusted(double cosine, double baseline);

}  // namespace lumen::project
