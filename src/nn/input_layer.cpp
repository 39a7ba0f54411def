#include "lumen/nn/input_layer.hpp"

#include <fmt/format.h>

#include "lumen/core/error.hpp"

namespace lumen::nn {

InputLayer::InputLayer(std::size_t V, std::size_t d, std::size_t context, EmbeddingOptions token_options)
    : token_(V, d, token_options), position_(context, d) {}

void InputLayer::init(std::uint64_t seed, float token_std, float position_std) {
  token_.init_normal(token_std, seed);
  position_.init_normal(position_std, seed ^ 0x9e3779b97f4a7c15ull);  // an independent stream for wpe
}

void InputLayer::forward(std::span<const Id> ids, std::size_t B, std::size_t T, std::span<float> x,
                         std::size_t threads) {
  if (T > position_.context())
    throw InputError(fmt::format("sequence length {} exceeds the context {}", T, position_.context()));
  token_.forward(ids, B, T, x, threads);
  position_.add_to(x, B, T, threads);
}

void InputLayer::backward(std::span<const Id> ids, std::span<const float> dX, std::size_t B, std::size_t T,
                          std::size_t threads) {
  // Check everything before either table is touched.
  if (ids.size() != B * T) throw UsageError(fmt::format("ids hold {} values, but B x T = {}", ids.size(), B * T));
  if (T > position_.context())
    throw InputError(fmt::format("sequence length {} exceeds the context {}", T, position_.context()));
  if (dX.size() != B * T * token_.d())
    throw UsageError(fmt::format("dX holds {} floats, expected B*T*d = {}", dX.size(), B * T * token_.d()));
  token_.check_ids(ids);
  token_.backward(ids, dX, threads);
  position_.backward(dX, B, T, threads);
}

void InputLayer::zero_grad() {
  token_.zero_grad();
  position_.zero_grad();
}

}  // namespace lumen::nn
