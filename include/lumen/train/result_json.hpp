#pragma once
// Training results as JSON: one schema per result, written by `lumen train ... --json` and `lumen claims --json`
// (and returned as dicts by Python). The fields are listed in docs/train.md.
#include <nlohmann/json.hpp>

#include "lumen/train/claims.hpp"
#include "lumen/train/lm.hpp"
#include "lumen/train/session.hpp"

namespace lumen::train {

// A progress report: {"words_done", "words_total", "loss", "lr", "epoch", "seconds"}.
nlohmann::json train_status_json(const TrainStatus& st);
// {"epoch", "train_loss", "heldout_loss", "heldout_perplexity", "heldout_tokens", "seconds"}.
nlohmann::json lm_epoch_json(const LmEpoch& e);
// A finished session: what was written, the model's shape and options, and how training went.
nlohmann::json word2vec_result_json(const Word2VecSessionResult& r);
nlohmann::json lm_result_json(const LmSessionResult& r);
// The claims experiment: {"frequency_length", "pairs", "tying" (absent when skipped)}.
nlohmann::json claims_result_json(const ClaimsResult& r);

}  // namespace lumen::train
