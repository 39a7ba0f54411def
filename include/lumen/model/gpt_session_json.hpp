#pragma once
// A GPT training session as JSON: `lumen train gpt --json` and the dict Python's lumen.train.gpt returns (fields
// listed in docs/train.md).
#include <nlohmann/json.hpp>

#include "lumen/model/gpt_session.hpp"

namespace lumen::model {

// {"step", "steps", "loss", "lr", "grad_norm", "seconds", "tokens_per_second"}: one step's report.
nlohmann::json gpt_step_json(const GptStep& s);
// {"step", "train_loss", "heldout_loss", "heldout_perplexity", "seconds"}.
nlohmann::json gpt_eval_json(const GptEval& e);
// {"output", "V", "layers", "d_model", "heads", "context", "tied", "tokenizer", "steps", "batch", "lr", "seed",
// "train_tokens", "heldout_tokens", "evals", "heldout_loss", "heldout_perplexity" (the last evaluation's; null
// when none), "seconds"}.
nlohmann::json gpt_session_json(const GptSessionResult& r);

}  // namespace lumen::model
