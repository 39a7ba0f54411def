// libFuzzer target: a checkpoint's config.json and model.safetensors from arbitrary bytes (config, a NUL byte, then
// the safetensors file). The loader must build a model or throw lumen::InputError / UsageError; a model that loads
// must run one token forward to V logits (finite weights may still overflow to Inf or NaN: bf16 holds 1e38, so the
// values are not checked).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "lumen/core/error.hpp"
#include "lumen/model/checkpoint.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = bytes.find('\0');
  const std::string_view config = bytes.substr(0, nul);
  const std::string_view weights = nul == std::string_view::npos ? std::string_view() : bytes.substr(nul + 1);
  try {
    const lumen::model::Transformer m = lumen::model::load_checkpoint_from_memory(config, weights);
    const auto r = m.forward({0});
    if (r.logits.size() != m.shape().V) {
      std::fprintf(stderr, "%zu logits for V %zu\n", r.logits.size(), static_cast<std::size_t>(m.shape().V));
      std::abort();
    }
  } catch (const lumen::InputError&) {
  } catch (const lumen::UsageError&) {
  }
  return 0;
}
