// The routes over the served model: what it is, and Figure 3 (a token's vector block by block in two contexts) as
// a background job.
#include <atomic>
#include <fmt/format.h>

#include "lumen/model/drift.hpp"
#include "lumen/model/drift_json.hpp"
#include "lumen/model/model_json.hpp"
#include "routes.hpp"

namespace lumen::serve::routes {

namespace {

// "contexts": a JSON array of exactly two strings, each within the text bound.
std::vector<std::string> drift_contexts(const Api::State& s, const nlohmann::json& p) {
  if (!has(p, "contexts")) throw ApiError(400, "missing parameter 'contexts' (two texts that both hold the token)");
  const auto& v = p["contexts"];
  if (!v.is_array()) throw ApiError(400, "parameter 'contexts' must be a list of two texts");
  if (v.size() != 2) throw ApiError(400, fmt::format("drift compares two contexts; got {}", v.size()));
  std::vector<std::string> out;
  for (const auto& c : v) {
    if (!c.is_string()) throw ApiError(400, "parameter 'contexts' must list texts (strings)");
    std::string text = c.get<std::string>();
    if (text.size() > s.limits.max_text_bytes)
      throw ApiError(413, fmt::format("a context is longer than {} bytes", s.limits.max_text_bytes));
    out.push_back(std::move(text));
  }
  return out;
}

}  // namespace

nlohmann::json model(const Api::State& s) {
  const ServedModel& m = s.require_model();
  nlohmann::json j = model::model_json(*m.model, m.source);
  j["tokenizer"] = m.tokenizer->source;
  return j;
}

// The checks that need no forward pass (the token is in both contexts, each fits the model's context) run now, so a
// bad request is refused at once (422) rather than when its job is polled.
nlohmann::json drift(Api::State& s, const nlohmann::json& p) {
  const ServedModel& m = s.require_model();
  const std::string token = get_string(p, "token", s.limits.max_token_bytes);
  std::vector<std::string> contexts = drift_contexts(s, p);
  const auto k = static_cast<std::size_t>(get_int_or(p, "k", 5, 1, static_cast<std::int64_t>(s.limits.max_drift_k)));
  (void)model::drift_sites(*m.model, *m.tokenizer, token, contexts);
  // The key holds the texts whole, each after its length: two requests share a job only if they ask the same bytes.
  const std::string key = fmt::format("drift/{}/{}:{}/{}:{}/{}:{}", k, token.size(), token, contexts[0].size(),
                                      contexts[0], contexts[1].size(), contexts[1]);
  return s.jobs.start(key, [net = m.model, tok = m.tokenizer, token, contexts, k](std::atomic<double>& progress) {
    const model::Drift d = model::drift(*net, *tok, token, contexts, k);
    progress = 1.0;
    return model::drift_json(d, *tok);
  });
}

}  // namespace lumen::serve::routes
