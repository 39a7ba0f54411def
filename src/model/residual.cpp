// The residual stream: each block adds its output to what came in.
#include "lumen/model/ops.hpp"

namespace lumen::model {

void residual_forward(float* out, const float* a, const float* b, std::size_t N) {
  for (std::size_t i = 0; i < N; ++i) out[i] = a[i] + b[i];
}

}  // namespace lumen::model

namespace lumen::model {

void residual_backward(float* da, float* db, const float* dout, std::size_t N) {
  for (std::size_t i = 0; i < N; ++i) {
    da[i] += dout[i];
    db[i] += dout[i];
  }
}

}  // namespace lumen::model
