#include "lumen/nn/shape_edit.hpp"

#include "lumen/core/error.hpp"

namespace lumen::nn {

ModelShape edit_shape(ModelShape s, const ShapeEdit& e, const std::string& preset) {
  const bool changed = e.V || e.d || e.layers || e.heads || e.kv_heads || e.ffn || e.context || e.tied || e.biases ||
                       e.positional || e.norm || e.mlp;
  if (e.d && *e.d == 0) throw OptionError("d_model", "{option} must be > 0");
  s.V = e.V.value_or(s.V);
  s.layers = e.layers.value_or(s.layers);
  s.context = e.context.value_or(s.context);
  s.tied = e.tied.value_or(s.tied);
  s.biases = e.biases.value_or(s.biases);
  s.positional = e.positional.value_or(s.positional);
  s.norm = e.norm.value_or(s.norm);
  s.mlp = e.mlp.value_or(s.mlp);
  s.d = e.d.value_or(s.d);
  const std::uint64_t ratio = s.kv_heads ? s.heads / s.kv_heads : 1;  // the base's K/V sharing
  if (e.heads) s.heads = *e.heads;
  else if (e.d && s.heads != 0 && s.d % s.heads != 0) s.heads = s.d % 64 == 0 ? s.d / 64 : 1;
  if (e.kv_heads) s.kv_heads = *e.kv_heads;
  else s.kv_heads = (ratio > 0 && s.heads % ratio == 0) ? s.heads / ratio : s.heads;
  if (e.ffn) s.ffn = *e.ffn;
  else if (e.d || e.mlp) s.ffn = default_ffn(s.d, s.mlp);
  if (changed) s.name = preset.empty() ? "custom" : preset + " (modified)";
  return s;
}

}  // namespace lumen::nn
