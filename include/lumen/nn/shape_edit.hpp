#pragma once
// A model shape changed field by field, as the parameter calculator does (`lumen params PRESET --d-model 256`, the
// explorer's /api/params): what the user did not give follows the fields that were.
#include <cstdint>
#include <optional>
#include <string>

#include "lumen/nn/params.hpp"

namespace lumen::nn {

struct ShapeEdit {
  std::optional<std::uint64_t> V, d, layers, heads, kv_heads, ffn, context;
  std::optional<bool> tied, biases;
  std::optional<Positional> positional;
  std::optional<Norm> norm;
  std::optional<Mlp> mlp;
};

// The shape s with the edit e applied. A new width keeps the heads where they still divide it, else heads of 64 (or
// one); the key/value heads keep their sharing ratio; the FFN follows a new width or MLP as the family's default. The
// name becomes "custom" (preset empty) or "PRESET (modified)" when anything was given. OptionError "d_model" for d = 0.
ModelShape edit_shape(ModelShape s, const ShapeEdit& e, const std::string& preset);

}  // namespace lumen::nn
