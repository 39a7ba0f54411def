// Next-token tables, sampling, perplexity: everything after the logits.
#include "lumen/model/generate.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numeric>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/nn/loss.hpp"

namespace lumen::model {

namespace {

// log(sum(exp(logits))) in double.
double log_sum_exp(const float* logits, std::size_t V) {
  const float mx = *std::max_element(logits, logits + V);
  double sum = 0;
  for (std::size_t v = 0; v < V; ++v) sum += std::exp(static_cast<double>(logits[v]) - mx);
  return mx + std::log(std::max(sum, 1.0));  // sum >= 1: the top term is exp(0)
}

}  // namespace

std::vector<TokenChoice> top_tokens(const float* logits, std::size_t V, std::size_t k) {
  k = std::min(k, V);
  std::vector<std::int32_t> order(V);
  std::iota(order.begin(), order.end(), 0);
  // NaN (weights that overflow) ranks last, so the order stays a strict weak order.
  const auto key = [&](std::int32_t i) { return std::isnan(logits[i]) ? -INFINITY : logits[i]; };
  const auto before = [&](std::int32_t a, std::int32_t b) {
    if (key(a) != key(b)) return key(a) > key(b);
    return a < b;  // ties: the lower id first
  };
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(), before);
  const double lse = log_sum_exp(logits, V);
  std::vector<TokenChoice> out;
  for (std::size_t i = 0; i < k; ++i)
    out.push_back({order[i], logits[order[i]], std::exp(static_cast<double>(logits[order[i]]) - lse)});
  return out;
}

std::vector<std::int32_t> generate(const Transformer& model, std::vector<std::int32_t> ids, const SampleOptions& opt,
                                   const ProgressFn& progress) {
  if (ids.empty()) throw InputError("no prompt tokens to continue");
  if (!(opt.temperature >= 0) || !std::isfinite(opt.temperature))
    throw UsageError(fmt::format("temperature {} must be a finite number >= 0", opt.temperature));
  const std::size_t V = model.shape().V, context = model.shape().context;
  Rng rng(opt.seed);
  std::vector<std::int32_t> added;
  ForwardOptions fo;
  fo.last_only = true;
  fo.threads = opt.threads;
  std::vector<double> p(V);
  for (std::size_t step = 0; step < opt.tokens; ++step) {
    if (opt.stop != nullptr && opt.stop->load()) break;
    const std::size_t start = ids.size() > context ? ids.size() - context : 0;
    const std::vector<std::int32_t> window(ids.begin() + static_cast<std::ptrdiff_t>(start), ids.end());
    const ForwardResult r = model.forward(window, fo);
    const float* logits = r.logits.data();
    std::int32_t next = 0;
    if (opt.temperature == 0) {
      next = top_tokens(logits, V, 1)[0].id;
    } else {
      const std::size_t k = opt.top_k == 0 ? V : std::min(opt.top_k, V);
      const std::vector<TokenChoice> top = top_tokens(logits, V, k);  // most probable first: a fixed order
      const double mx = top[0].logit;
      double sum = 0;
      for (std::size_t i = 0; i < k; ++i) sum += (p[i] = std::exp((top[i].logit - mx) / opt.temperature));
      double u = rng.uniform() * sum;
      next = top[k - 1].id;
      for (std::size_t i = 0; i < k; ++i) {
        if (u < p[i]) {
          next = top[i].id;
          break;
        }
        u -= p[i];
      }
    }
    ids.push_back(next);
    added.push_back(next);
    if (opt.on_token) opt.on_token(next);
    if (progress) progress("generate", step + 1, opt.tokens);
  }
  return added;
}

Perplexity perplexity(const Transformer& model, const std::vector<std::int32_t>& ids, std::size_t stride,
                      std::size_t threads, const ProgressFn& progress) {
  const std::size_t n = ids.size(), W = model.shape().context, V = model.shape().V;
  if (n < 2) throw InputError(fmt::format("{} token{}; perplexity needs at least 2", n, n == 1 ? "" : "s"));
  if (stride == 0) stride = std::max<std::size_t>(1, W / 2);
  if (stride >= W && n > W)  // a window's first token has nothing before it in the window: it would go unpredicted
    throw UsageError(fmt::format("stride {} must be less than the model's context {}", stride, W));
  Perplexity out;
  out.context = W;
  out.stride = stride;
  const std::size_t total = n <= W ? 1 : 1 + (n - W + stride - 1) / stride;
  std::size_t scored_to = 1;  // tokens [1, scored_to) already predicted
  double nll = 0;
  std::vector<float> losses;
  ForwardOptions fo;
  fo.threads = threads;
  for (std::size_t begin = 0;; begin += stride) {
    const std::size_t end = std::min(n, begin + W);
    const std::vector<std::int32_t> window(ids.begin() + static_cast<std::ptrdiff_t>(begin),
                                           ids.begin() + static_cast<std::ptrdiff_t>(end));
    const ForwardResult r = model.forward(window, fo);  // (T, V)
    // Tokens [first, end) are new: position j-1 predicts token j, so their logits are rows [first-1-begin, ...).
    const std::size_t first = std::max(scored_to, begin + 1), count = end - first;
    const std::span<const float> rows(r.logits.data() + (first - 1 - begin) * V, count * V);  // (count, V)
    const std::span<const std::int32_t> targets(ids.data() + first, count);
    losses.resize(count);
    nn::cross_entropy(rows, targets, V, threads, losses);
    for (const float l : losses) nll += l;
    out.tokens += count;
    scored_to = end;
    ++out.windows;
    if (progress) progress("perplexity", out.windows, total);
    if (end == n) break;
  }
  out.nll = nll / static_cast<double>(out.tokens);
  out.perplexity = std::exp(out.nll);
  return out;
}

}  // namespace lumen::model
