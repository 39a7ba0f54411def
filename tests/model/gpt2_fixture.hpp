#pragma once
// The GPT-2 test checkpoint with its tokenizer, and the chapter's Figure 3 contexts for "bank": what the drift
// tests read.
#include <memory>
#include <string>
#include <vector>

#include "checkpoint_edit.hpp"
#include "lumen/model/checkpoint.hpp"
#include "lumen/model/model_tokenizer.hpp"

namespace lumen::model::testing {

inline const std::vector<std::string> kBankContexts = {"the river bank was muddy", "the bank approved the loan"};

struct Gpt2Fixture {
  Transformer m = load_checkpoint(fixture_dir("gpt2"));
  std::unique_ptr<text::Tokenizer> tok = tokenizer_for(m, fixture_dir("gpt2"));
};

}  // namespace lumen::model::testing
