#include "lumen/core/dtype.hpp"

#include <fmt/format.h>

#include "lumen/core/error.hpp"

namespace lumen {

std::string_view dtype_name(DType t) {
  switch (t) {
    case DType::f32: return "f32";
    case DType::f16: return "f16";
    case DType::bf16: return "bf16";
  }
  return "?";
}

DType parse_dtype(std::string_view name) {
  if (name == "f32" || name == "float32" || name == "float") return DType::f32;
  if (name == "f16" || name == "float16" || name == "half" || name == "fp16") return DType::f16;
  if (name == "bf16" || name == "bfloat16") return DType::bf16;
  throw UsageError(fmt::format("unknown dtype '{}' (expected f32, f16 or bf16)", name));
}

}  // namespace lumen
