#include "lumen/train/result_json.hpp"

#include "lumen/io/open.hpp"
#include "lumen/train/optimizer.hpp"

namespace lumen::train {

namespace {
nlohmann::json path_or_null(const std::string& path) { return path.empty() ? nlohmann::json() : nlohmann::json(path); }

nlohmann::json lm_run_json(const ClaimsLmRun& r) {
  return {{"heldout_perplexity", r.heldout_perplexity},
          {"train_loss", r.train_loss},
          {"heldout_tokens", r.heldout_tokens},
          {"V", r.V}};
}
}  // namespace

nlohmann::json train_status_json(const TrainStatus& st) {
  return {{"words_done", st.words_done}, {"words_total", st.words_total}, {"loss", st.loss}, {"lr", st.lr},
          {"epoch", st.epoch},           {"seconds", st.seconds}};
}

nlohmann::json lm_epoch_json(const LmEpoch& e) {
  return {{"epoch", e.epoch},
          {"train_loss", e.train_loss},
          {"heldout_loss", e.heldout_loss},
          {"heldout_perplexity", e.heldout_perplexity},
          {"heldout_tokens", e.heldout_tokens},
          {"seconds", e.seconds}};
}

nlohmann::json word2vec_result_json(const Word2VecSessionResult& r) {
  const auto& o = r.options;
  return {{"output", path_or_null(r.table_path)},
          {"format", io::format_name(r.format)},
          {"vocab_file", path_or_null(r.vocab_path)},
          {"V", r.table.V()},
          {"d", r.table.d()},
          {"model", w2v_model_name(o.model)},
          {"epochs", o.epochs},
          {"threads", o.threads},
          {"words", r.words_done},
          {"corpus_tokens", r.corpus_tokens},
          {"seconds", r.seconds},
          {"words_per_sec_per_thread", r.words_per_sec_per_thread},
          {"loss", r.loss}};
}

nlohmann::json lm_result_json(const LmSessionResult& r) {
  const auto& o = r.options;
  nlohmann::json epochs = nlohmann::json::array();
  for (const auto& e : r.epochs) epochs.push_back(lm_epoch_json(e));
  return {
      {"output", path_or_null(r.table_path)},
      {"output_head", path_or_null(r.head_path)},
      {"vocab_file", path_or_null(r.vocab_path)},
      {"V", r.table.V()},
      {"d", o.dim},
      {"hidden", o.hidden},
      {"context", o.context},
      {"tied", o.tie},
      {"optimizer", optimizer_name(o.optimizer)},
      {"lr", o.lr},
      {"seed", o.seed},
      {"epochs", epochs},
      {"heldout_perplexity", r.epochs.empty() ? nlohmann::json() : nlohmann::json(r.epochs.back().heldout_perplexity)}};
}

nlohmann::json claims_result_json(const ClaimsResult& r) {
  nlohmann::json out;
  out["frequency_length"] = {{"spearman", r.spearman}, {"rows", r.rows}, {"table", r.table}};
  nlohmann::json pairs = nlohmann::json::array();
  for (const auto& p : r.pairs)
    pairs.push_back({{"a", p.a}, {"b", p.b}, {"related", p.related}, {"init", p.init}, {"trained", p.trained}});
  out["pairs"] = pairs;
  if (r.tying) {
    const auto& t = *r.tying;
    out["tying"] = {{"corpus", t.corpus},
                    {"context", t.context},
                    {"d", t.dim},
                    {"hidden", t.hidden},
                    {"epochs", t.epochs},
                    {"train_tokens", t.train_tokens},
                    {"optimizer", optimizer_name(t.optimizer)},
                    {"seed", t.seed},
                    {"tied", lm_run_json(t.tied)},
                    {"untied", lm_run_json(t.untied)}};
  }
  return out;
}

}  // namespace lumen::train
