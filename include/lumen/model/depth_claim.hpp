#pragma once
// "The cleanest concept directions in a modern model tend to live in the residual stream deeper in the network, not
// in row 0": a model's probe selectivity and analogy accuracy at layer 0 (the lookup) against its best deeper
// layer. The best deeper layer is chosen among layers 1..N only, so row 0 can come out ahead.
#include <cstddef>
#include <limits>

#include "lumen/eval/analogy_set.hpp"
#include "lumen/eval/label_set.hpp"
#include "lumen/model/transformer.hpp"
#include "lumen/text/tokenizer.hpp"

namespace lumen::model {

struct DepthScores {
  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  std::size_t layers = 0;  // N + 1
  // The linear probe (eval::run_probe, its folds and control task) on the labelled words' states.
  std::size_t probe_words = 0, folds = 0;
  double probe_row0 = kNone, probe_deeper = kNone;  // selectivity: accuracy - control
  double probe_row0_std = 0, probe_deeper_std = 0;  // the accuracy's standard deviation over the folds
  std::size_t probe_layer = 0;                      // the best deeper layer (1..N)
  // 3CosAdd on the analogy set's one-token words (model::analogy_layers); absent when none of its questions has
  // four of them.
  bool analogies = false;
  std::size_t analogy_questions = 0;  // answered
  double analogy_row0 = kNone, analogy_deeper = kNone;
  std::size_t analogy_layer = 0;
};

// Both scores on one model. `analogies` may be null (probe only). Throws what probe_layers throws.
DepthScores depth_scores(const Transformer& model, const text::Tokenizer& tokenizer, const eval::LabelSet& labels,
                         const eval::AnalogySet* analogies, std::size_t threads = 0);

}  // namespace lumen::model
