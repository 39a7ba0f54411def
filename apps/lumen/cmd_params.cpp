// lumen params: how a transformer's parameters split between the embedding and the rest.
#include <fmt/format.h>

#include "command.hpp"
#include "common.hpp"
#include "lumen/core/error.hpp"
#include "lumen/model/config.hpp"
#include "lumen/nn/params.hpp"
#include "lumen/nn/shape_edit.hpp"
#include "nn_views.hpp"
#include "option_checks.hpp"

namespace lumen::cli::cmd_params {
namespace {

struct ParamsArgs {
  std::string preset;
  std::uint64_t vocab = 0, d = 0, layers = 0, heads = 0, kv_heads = 0, ffn = 0, context = 0;
  bool tied = true, biases = true, sweep = false, json = false;
  std::string positional, norm, mlp;
};

Action setup(CLI::App& cmd) {
  auto a = std::make_shared<ParamsArgs>();
  std::string presets;
  for (const auto& n : nn::preset_names()) presets += (presets.empty() ? "" : ", ") + n;
  cmd.add_option("preset", a->preset,
                 "Start from a preset: " + presets +
                     " (default: gpt2), or a checkpoint directory / config.json (Hugging Face GPT-2 or Llama)");
  auto* o_vocab = cmd.add_option("--vocab", a->vocab, "Vocabulary size V")->check(at_least(0));
  auto* o_d = cmd.add_option("--d-model,-d", a->d, "Model width d")->check(at_least(0));
  auto* o_layers = cmd.add_option("--layers,-N", a->layers, "Number of blocks N")->check(at_least(0));
  auto* o_heads = cmd.add_option("--heads", a->heads, "Attention heads")->check(at_least(0));
  auto* o_kv = cmd.add_option("--kv-heads", a->kv_heads, "Key/value heads (fewer than heads: grouped-query attention)")
                   ->check(at_least(0));
  auto* o_ffn =
      cmd.add_option("--ffn", a->ffn, "MLP hidden width (default: 4d for gelu, ~8d/3 rounded to 256 for swiglu)")
          ->check(at_least(0));
  auto* o_ctx = cmd.add_option("--context", a->context, "Context length (rows of a learned positional table)")
                    ->check(at_least(0));
  auto* o_tied = cmd.add_flag("--tied,!--untied", a->tied, "Output head shares E (--untied: its own V x d matrix)");
  auto* o_pos = cmd.add_option("--positional", a->positional, "Positions: learned, rope, none");
  auto* o_norm = cmd.add_option("--norm", a->norm, "Normalisation: layernorm, rmsnorm");
  auto* o_mlp = cmd.add_option("--mlp", a->mlp, "MLP: gelu, swiglu");
  auto* o_bias = cmd.add_flag("--bias,!--no-bias", a->biases, "Biases in linear layers and LayerNorm");
  cmd.add_flag("--sweep", a->sweep, "Show the embedding's share as d and N grow (V x d against N x d^2)");
  add_json_flag(cmd, a->json);
  const std::string custom =
      "lumen params --vocab 32000 --d-model 4096 --layers 32 --heads 32 --mlp swiglu --norm rmsnorm "
      "--positional rope --no-bias --untied";
  set_example(cmd, {"lumen params gpt2", "lumen params llama-3-8b --json", custom, "lumen params gpt2 --sweep",
                    "lumen params models/gpt2  (a checkpoint's config.json)"});

  return [a, o_vocab, o_d, o_layers, o_heads, o_kv, o_ffn, o_ctx, o_tied, o_pos, o_norm, o_mlp, o_bias]() {
    nn::ShapeEdit e;
    const auto given = [](CLI::Option* o) { return o->count() > 0; };
    if (given(o_vocab)) e.V = a->vocab;
    if (given(o_d)) e.d = a->d;
    if (given(o_layers)) e.layers = a->layers;
    if (given(o_heads)) e.heads = a->heads;
    if (given(o_kv)) e.kv_heads = a->kv_heads;
    if (given(o_ffn)) e.ffn = a->ffn;
    if (given(o_ctx)) e.context = a->context;
    if (given(o_tied)) e.tied = a->tied;
    if (given(o_bias)) e.biases = a->biases;
    if (given(o_pos)) e.positional = nn::parse_positional(a->positional);
    if (given(o_norm)) e.norm = nn::parse_norm(a->norm);
    if (given(o_mlp)) e.mlp = nn::parse_mlp(a->mlp);
    const nn::ModelShape s = nn::edit_shape(model::shape_named(a->preset), e, a->preset);

    if (a->sweep) {
      nn::count_params(s);  // validate the base shape first
      if (a->json) print_json(sweep_json(s));
      else fmt::print("{}", sweep_text(s));
      return kOk;
    }
    const nn::ParamCount c = nn::count_params(s);
    if (a->json) print_json(params_json(s, c));
    else fmt::print("{}", params_text(s, c));
    return kOk;
  };
}

const Register reg("params", "Parameter calculator: how a model's parameters split between E and the rest", setup, 20);

}  // namespace
}  // namespace lumen::cli::cmd_params
