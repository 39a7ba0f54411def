// gpt_claims_json.hpp: the tying claim on a transformer as JSON.
#include "lumen/model/gpt_claims_json.hpp"

#include "lumen/model/model_claims_json.hpp"

namespace lumen::model {

namespace {

nlohmann::json model_json(const GptClaimsModel& m) {
  return {{"params", m.params.total},
          {"embedding_params", m.params.token_embedding},
          {"output_head_params", m.params.output_head},
          {"heldout_perplexity", m.heldout_perplexity},
          {"heldout_loss", m.heldout_loss},
          {"seconds", m.seconds},
          {"perplexity", spread_json(m.perplexity)},
          {"rare_loss", m.rare_loss},
          {"rare", spread_json(m.rare)}};
}

nlohmann::json depth_list(const GptClaimsModel& m) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& d : m.depth) j.push_back(depth_json(d));
  return j;
}

nlohmann::json pairs_list(const GptClaimsResult& r) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& seed : r.pairs) j.push_back(pairs_json(seed));
  return j;
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
          {"rare_targets",
           {{"fraction", r.rare_fraction},
            {"tokens", r.rare_tokens},
            {"seen_tokens", r.seen_tokens},
            {"max_count", r.rare_max_count},
            {"heldout_targets", r.rare_targets},
            {"heldout_positions", r.heldout_positions},
            {"verdict", std::string(verdict_name(r.rare_verdict))}}},
          {"function_words", {{"pairs", pairs_list(r)}, {"gap", claim_figure_json(r.pair_gap)}}},
          {"depth", r.depth ? nlohmann::json{{"labels", r.labels},
                                             {"tied", depth_list(r.tied)},
                                             {"untied", depth_list(r.untied)},
                                             {"probe_gain", claim_figure_json(r.probe_gain)},
                                             {"analogy_gain", claim_figure_json(r.analogy_gain)}}
                            : nlohmann::json(nullptr)},
          {"seconds", r.seconds}};
}

}  // namespace lumen::model
