#include "lumen/model/model_claims.hpp"

#include <cmath>

#include "lumen/eval/label_set.hpp"
#include "lumen/model/model_run.hpp"

namespace lumen::model {

namespace {

ClaimFigure not_measured() {
  ClaimFigure f;
  f.verdict = "not_measured";
  return f;
}

}  // namespace

ClaimFigure probe_gain(const std::vector<DepthScores>& models) {
  std::vector<double> v;
  v.reserve(models.size());
  for (const auto& m : models) v.push_back(m.probe_deeper - m.probe_row0);
  return judge_difference(std::move(v), "models", kDepthVerdicts);
}

ClaimFigure analogy_gain(const std::vector<DepthScores>& models) {
  std::vector<double> v;
  for (const auto& m : models) {
    if (!m.analogies) return not_measured();
    v.push_back(m.analogy_deeper - m.analogy_row0);
  }
  return models.empty() ? not_measured() : judge_difference(std::move(v), "models", kDepthVerdicts);
}

ClaimFigure probe_gain(const DepthScores& m) {
  const double sd = std::sqrt(m.probe_row0_std * m.probe_row0_std + m.probe_deeper_std * m.probe_deeper_std);
  return judge_difference(m.probe_deeper - m.probe_row0, sd, m.folds, "folds", kDepthVerdicts);
}

ClaimFigure analogy_gain(const DepthScores& m) {
  if (!m.analogies || m.analogy_questions == 0) return not_measured();
  const double n = static_cast<double>(m.analogy_questions);
  const auto var = [&](double p) { return p * (1 - p) / n; };
  return judge_difference(m.analogy_deeper - m.analogy_row0, std::sqrt(var(m.analogy_row0) + var(m.analogy_deeper)),
                          m.analogy_questions, "questions (binomial standard error)", kDepthVerdicts);
}

double mean_pair_gap(const std::vector<PairCosine>& pairs) {
  if (pairs.empty()) return std::nan("");
  double sum = 0;
  for (const auto& p : pairs) sum += p.input - p.head;
  return sum / static_cast<double>(pairs.size());
}

ClaimFigure pair_gap(const std::vector<std::vector<PairCosine>>& per_model) {
  std::vector<double> v;
  for (const auto& m : per_model) {
    if (m.empty()) return not_measured();
    v.push_back(mean_pair_gap(m));
  }
  return per_model.empty() ? not_measured() : judge_difference(std::move(v), "seeds", kPairVerdicts);
}

ClaimFigure pair_gap(const std::vector<PairCosine>& pairs) {
  if (pairs.empty()) return not_measured();
  std::vector<double> v;
  v.reserve(pairs.size());
  for (const auto& p : pairs) v.push_back(p.input - p.head);
  return judge_difference(std::move(v), "pairs", kPairVerdicts);
}

ModelClaims run_model_claims(const ModelClaimsRequest& r) {
  const OpenedModel o = open_model(r.checkpoint, r.tokenizer, "");
  const eval::AnalogySet set = eval::read_analogy_set(r.analogies);
  const eval::LabelSet labels = eval::load_label_set(r.labels, r.analogies);
  const nn::ModelShape& s = o.model.shape();
  ModelClaims c;
  c.source = r.checkpoint;
  c.V = s.V;
  c.d = s.d;
  c.layers = s.layers;
  c.tied = o.model.tied();
  c.labels = labels.name;
  c.depth = depth_scores(o.model, *o.tokenizer, labels, &set, r.threads);
  c.probe_gain = probe_gain(c.depth);
  c.analogy_gain = analogy_gain(c.depth);
  if (!c.tied) c.pairs = input_head_cosines(o.model.weights(), s.V, s.d, *o.tokenizer, function_word_pairs());
  c.pair_gap = pair_gap(c.pairs);
  return c;
}

}  // namespace lumen::model
