// gpt_claims_json.hpp: the tying claim on a transformer as JSON.
#include "lumen/model/gpt_claims_json.hpp"

namespace lumen::model {

namespace {

nlohmann::json spread_json(const SeedSpread& s) {
  return {{"mean", s.mean}, {"sd", s.sd}, {"min", s.min}, {"max", s.max}, {"n", s.n}};
}

nlohmann::json model_json(const GptClaimsModel& m) {
  return {{"params", m.params.total},
          {"embedding_params", m.params.token_embedding},
          {"output_head_params", m.params.output_head},
          {"heldout_perplexity", m.heldout_perplexity},
          {"heldout_loss", m.heldout_loss},
          {"seconds", m.seconds},
          {"perplexity", spread_json(m.perplexity)}};
}

}  // namespace

nlohmann::json gpt_claims_json(const GptClaimsResult& r) {
  return {{"corpus", r.corpus},
          {"tokenizer", r.train.tokenizer},
          {"V", r.V},
          {"layers", r.train.layers},
          {"d_model", r.train.d_model},
          {"heads", r.train.heads},
          {"context", r.train.context},
          {"steps", r.train.steps},
          {"batch", r.train.batch},
          {"lr", r.train.lr},
          {"train_tokens", r.train_tokens},
          {"heldout_tokens", r.heldout_tokens},
          {"seeds", r.seeds},
          {"spread", "sample standard deviation over the seeds"},
          {"tied", model_json(r.tied)},
          {"untied", model_json(r.untied)},
          {"tied_lower_seeds", r.tied_lower_seeds},
          {"verdict", std::string(verdict_name(r.verdict))},
          {"seconds", r.seconds}};
}

}  // namespace lumen::model
