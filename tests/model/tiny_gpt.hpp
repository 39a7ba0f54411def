#pragma once
// The GPT the model tests train: small enough for a test's time, large enough that its loss falls.
#include "lumen/model/gpt_trainer.hpp"

namespace lumen::model::testing {

inline GptTrainOptions tiny_gpt_options() {
  return {.layers = 2,
          .d_model = 16,
          .heads = 2,
          .context = 8,
          .steps = 12,
          .batch = 4,
          .lr = 3e-3f,
          .min_lr = 3e-4f,
          .eval_every = 4,
          .eval_batches = 2,
          .threads = 1};
}

}  // namespace lumen::model::testing
