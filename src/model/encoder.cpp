// The input layer of the model: token row plus (learned) position row.
#include <cstring>

#include "lumen/model/ops.hpp"

namespace lumen::model {

void encoder_forward(float* out, const std::int32_t* inp, const float* wte, const float* wpe, std::size_t B,
                     std::size_t T, std::size_t C) {
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t t = 0; t < T; ++t) {
      float* o = out + (b * T + t) * C;                                     // (C)
      const float* e = wte + static_cast<std::size_t>(inp[b * T + t]) * C;  // row of E
      if (wpe == nullptr) {
        std::memcpy(o, e, C * sizeof(float));
        continue;
      }
      const float* p = wpe + t * C;  // row t of the positional table
      for (std::size_t i = 0; i < C; ++i) o[i] = e[i] + p[i];
    }
}

}  // namespace lumen::model

namespace lumen::model {

void encoder_backward(float* dwte, float* dwpe, const float* dout, const std::int32_t* inp, std::size_t B,
                      std::size_t T, std::size_t C) {
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t t = 0; t < T; ++t) {
      const float* d = dout + (b * T + t) * C;                         // (C)
      float* e = dwte + static_cast<std::size_t>(inp[b * T + t]) * C;  // the row the token read: scatter-add
      for (std::size_t i = 0; i < C; ++i) e[i] += d[i];
      if (dwpe == nullptr) continue;
      float* p = dwpe + t * C;
      for (std::size_t i = 0; i < C; ++i) p[i] += d[i];
    }
}

}  // namespace lumen::model
