// gpt_session_json.hpp: a GPT training session as JSON.
#include "lumen/model/gpt_session_json.hpp"

namespace lumen::model {

nlohmann::json gpt_step_json(const GptStep& s) {
  return {{"step", s.step},
          {"steps", s.steps},
          {"loss", s.loss},
          {"lr", s.lr},
          {"grad_norm", s.grad_norm},
          {"seconds", s.seconds},
          {"tokens_per_second", s.tokens_per_second}};
}

nlohmann::json gpt_eval_json(const GptEval& e) {
  return {{"step", e.step},
          {"train_loss", e.train_loss},
          {"heldout_loss", e.heldout_loss},
          {"heldout_perplexity", e.heldout_perplexity},
          {"seconds", e.seconds}};
}

nlohmann::json gpt_session_json(const GptSessionResult& r) {
  nlohmann::json evals = nlohmann::json::array();
  for (const auto& e : r.evals) evals.push_back(gpt_eval_json(e));
  const auto last = [&r](double GptEval::*field) {
    return r.evals.empty() ? nlohmann::json() : nlohmann::json(r.evals.back().*field);
  };
  const nn::ModelShape& s = r.shape;
  const GptTrainOptions& o = r.options;
  return {{"output", r.output},
          {"V", s.V},
          {"layers", s.layers},
          {"d_model", s.d},
          {"heads", s.heads},
          {"context", s.context},
          {"tied", s.tied},
          {"tokenizer", o.tokenizer},
          {"steps", o.steps},
          {"batch", o.batch},
          {"lr", o.lr},
          {"seed", o.seed},
          {"train_tokens", r.train_tokens},
          {"heldout_tokens", r.heldout_tokens},
          {"evals", evals},
          {"heldout_loss", last(&GptEval::heldout_loss)},
          {"heldout_perplexity", last(&GptEval::heldout_perplexity)},
          {"seconds", r.seconds}};
}

}  // namespace lumen::model
