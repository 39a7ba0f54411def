#include "nn_views.hpp"

#include <cmath>
#include <fmt/format.h>

namespace lumen::cli {

std::string grouped(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string bytes_human(double b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (b >= 1024 && u < 4) {
    b /= 1024;
    ++u;
  }
  return u == 0 ? fmt::format("{:.0f} B", b) : fmt::format("{:.1f} {}", b, units[u]);
}

std::string vector_text(std::span<const float> v, std::size_t show) {
  const std::size_t n = (show == 0 || show >= v.size()) ? v.size() : show;
  std::string out = "[";
  for (std::size_t i = 0; i < n; ++i) out += fmt::format(" {:8.4f}", v[i]);
  if (n < v.size()) out += fmt::format("  ... ({} more)", v.size() - n);
  return out + " ]";
}

std::string onehot_text(std::size_t V, std::size_t id) {
  constexpr std::size_t kAll = 24, kAround = 3;
  std::string out = "[";
  auto put = [&](std::size_t i) { out += i == id ? " 1" : " 0"; };
  if (V <= kAll) {
    for (std::size_t i = 0; i < V; ++i) put(i);
    return out + " ]";
  }
  const std::size_t lo = id > kAround ? id - kAround : 0, hi = std::min(V, id + kAround + 1);
  if (lo > 0) out += fmt::format(" ({} zeros)", lo);
  for (std::size_t i = lo; i < hi; ++i) put(i);
  if (hi < V) out += fmt::format(" ({} zeros)", V - hi);
  return out + " ]";
}

std::string shape_text(const nn::ModelShape& s) {
  return fmt::format("V={} d={} N={} heads={} (kv {}) ffn={} context={}, {}, {} positions, {}, {}, {}", s.V, s.d,
                     s.layers, s.heads, s.kv_heads, s.ffn, s.context, s.tied ? "tied" : "untied",
                     nn::positional_name(s.positional), nn::norm_name(s.norm), nn::mlp_name(s.mlp),
                     s.biases ? "biases" : "no biases");
}

std::string params_text(const nn::ModelShape& s, const nn::ParamCount& c) {
  const double total = static_cast<double>(c.total);
  auto pct = [&](std::uint64_t n) { return fmt::format("{:7.2f}%", 100.0 * static_cast<double>(n) / total); };
  std::string t = fmt::format("{}: {}\n\n", s.name, shape_text(s));
  auto line = [&](const std::string& part, const std::string& how, std::uint64_t n, bool share) {
    t += fmt::format("  {:<18} {:<16} {:>15}  {}\n", part, how, grouped(n), share ? pct(n) : "");
  };
  line("token embedding", "V x d", c.token_embedding, true);
  line("positional",
       s.positional == nn::Positional::learned ? "context x d" : std::string(nn::positional_name(s.positional)),
       c.positional, true);
  line("per block", "", c.block, false);
  line("  attention", s.kv_heads == s.heads ? "Q,K,V,O" : fmt::format("Q,K,V,O (GQA {})", s.kv_heads), c.attention,
       false);
  line("  MLP", fmt::format("{} d x {}", nn::mlp_name(s.mlp), s.ffn), c.mlp, false);
  line("  norms", std::string(nn::norm_name(s.norm)) + " x 2", c.norms, false);
  line(fmt::format("{} blocks", s.layers), "N x block", c.blocks, true);
  line("final norm", std::string(nn::norm_name(s.norm)), c.final_norm, true);
  line("output head", s.tied ? "tied: uses E" : "V x d", c.output_head, true);
  line("total", "", c.total, true);
  t += fmt::format("\n  embedding share: {:.2f}% of the parameters are the token table E (V x d)",
                   100 * c.embedding_share);
  if (!s.tied) t += fmt::format("; {:.2f}% with the untied head", 100 * c.vocab_share);
  t += "\n  memory for the weights:";
  const auto& ps = nn::precisions();
  for (std::size_t i = 0; i < ps.size(); ++i)
    t += fmt::format("{} {} {}", i ? " |" : "", ps[i].name, bytes_human(total * ps[i].bytes));
  return t + "\n";
}

std::string sweep_text(const nn::ModelShape& base) {
  std::string t = fmt::format(
      "The embedding's share as d and N grow (V={}, {}, {} positions, {}, {}):\n"
      "the table grows like V x d, the blocks like N x d^2.\n\n"
      "  {:>6} {:>4} {:>16} {:>18} {:>18} {:>8}\n",
      base.V, base.tied ? "tied" : "untied", nn::positional_name(base.positional), nn::norm_name(base.norm),
      nn::mlp_name(base.mlp), "d", "N", "V x d", "N x block", "total", "share");
  for (const auto& s : nn::sweep_shapes(base)) {
    const auto c = nn::count_params(s);
    t += fmt::format("  {:>6} {:>4} {:>16} {:>18} {:>18} {:>7.2f}%\n", s.d, s.layers, grouped(c.token_embedding),
                     grouped(c.blocks), grouped(c.total), 100 * c.embedding_share);
  }
  return t;
}

std::string init_stats_text(const nn::InitStats& s) {
  const auto& o = s.options;
  std::string t = fmt::format(
      "Init statistics: E ~ N(0, {}^2), d = {}, {} pairs of distinct rows of a {}-row table (seed {})\n\n"
      "  {:<36} {:>12} {:>12}\n",
      o.std, o.d, grouped(o.samples), grouped(o.V), o.seed, "", "predicted", "measured");
  auto line = [&](const std::string& what, double pred, double meas) {
    t += fmt::format("  {:<36} {:>12.6g} {:>12.6g}  ({:+.1f}%)\n", what, pred, meas, 100 * (meas / pred - 1));
  };
  line("row norm            std*sqrt(d)", s.predicted_row_norm, s.measured_row_norm);
  line("std of row . row    std^2*sqrt(d)", s.predicted_dot_std, s.measured_dot_std);
  line("  with sqrt(d) scale std^2*d*sqrt(d)", s.predicted_scaled_dot_std, s.measured_scaled_dot_std);
  t += fmt::format("  mean of row . row (expected 0): {:.3g}\n", s.measured_dot_mean);
  t += fmt::format(
      "\n  Unscaled, dot products (the logits of a tied head) are about {:.3g}: the softmax starts near uniform.\n",
      s.measured_dot_std);
  t += fmt::format("  Scaled by sqrt(d) = {:.3g} (the original transformer's trick), they are about {:.3g}{}\n",
                   std::sqrt(static_cast<double>(o.d)), s.measured_scaled_dot_std,
                   s.measured_scaled_dot_std > 1 ? ": a softmax over them is far from uniform." : ".");
  return t;
}

nlohmann::json init_stats_json(const nn::InitStats& s) {
  const auto& o = s.options;
  return {{"dim", o.d},
          {"std", o.std},
          {"samples", o.samples},
          {"rows", o.V},
          {"seed", o.seed},
          {"predicted_dot_std", s.predicted_dot_std},
          {"measured_dot_std", s.measured_dot_std},
          {"measured_dot_mean", s.measured_dot_mean},
          {"predicted_scaled_dot_std", s.predicted_scaled_dot_std},
          {"measured_scaled_dot_std", s.measured_scaled_dot_std},
          {"predicted_row_norm", s.predicted_row_norm},
          {"measured_row_norm", s.measured_row_norm}};
}

}  // namespace lumen::cli
