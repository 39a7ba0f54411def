#pragma once
// The chapter's claims about the model around the table, judged on trained models: concepts deeper than row 0
// (depth_claim.hpp) and function-word pairs in an untied model's two tables (function_words.hpp). run_gpt_claims
// judges them over the seeds of its small GPTs; run_model_claims on one checkpoint (`lumen claims --model`).
#include <cstddef>
#include <string>
#include <vector>

#include "lumen/eval/analogy_set.hpp"
#include "lumen/eval/label_set.hpp"
#include "lumen/model/claim_figure.hpp"
#include "lumen/model/depth_claim.hpp"
#include "lumen/model/function_words.hpp"

namespace lumen::model {

inline const VerdictNames kDepthVerdicts{"deeper_higher", "row0_higher"};
inline const VerdictNames kPairVerdicts{"input_closer", "head_closer"};

// Deeper minus row 0, over several models (one value each): probe selectivity, and analogy accuracy where every
// model measured it (else `over` is empty and the verdict "not_measured").
ClaimFigure probe_gain(const std::vector<DepthScores>& models);
ClaimFigure analogy_gain(const std::vector<DepthScores>& models);
// One model: the probe's gain judged against its folds' spread (the two layers' accuracy sds combined), the
// analogies' against their binomial standard error.
ClaimFigure probe_gain(const DepthScores& model);
ClaimFigure analogy_gain(const DepthScores& model);

// The mean over pairs of input - head cosine: one value per model (over seeds), or one per pair for a single model.
double mean_pair_gap(const std::vector<PairCosine>& pairs);
ClaimFigure pair_gap(const std::vector<std::vector<PairCosine>>& per_model);
ClaimFigure pair_gap(const std::vector<PairCosine>& pairs);

struct ModelClaimsRequest {
  std::string checkpoint;
  std::string tokenizer;  // empty: the one beside the checkpoint
  std::string labels = "plural";
  std::string analogies;  // the benchmark the label set is made from and the analogies scored on (required)
  std::size_t threads = 0;
};

struct ModelClaims {
  std::string source;  // the checkpoint as named
  std::size_t V = 0, d = 0, layers = 0;
  bool tied = false;
  std::string labels;
  DepthScores depth;
  ClaimFigure probe_gain, analogy_gain;
  std::vector<PairCosine> pairs;  // empty for a tied model
  ClaimFigure pair_gap;           // "not_measured" for a tied model
};

// Throws what open_model, load_label_set and depth_scores throw.
ModelClaims run_model_claims(const ModelClaimsRequest& request);

}  // namespace lumen::model
