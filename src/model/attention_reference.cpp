// Causal multi-head attention by plain loops: what attention_forward (BLAS, threads) is tested against.
#include <algorithm>
#include <cmath>
#include <vector>

#include "lumen/model/ops.hpp"

namespace lumen::model {

void attention_forward_reference(float* out, const float* qkv, std::size_t B, std::size_t T, std::size_t NH,
                                 std::size_t NKV, std::size_t hs) {
  const std::size_t ld = (NH + 2 * NKV) * hs, C = NH * hs, group = NH / NKV;
  const double scale = 1.0 / std::sqrt(static_cast<double>(hs));
  std::vector<double> w(T);
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t h = 0; h < NH; ++h) {
      const std::size_t kvh = h / group;
      for (std::size_t t = 0; t < T; ++t) {
        const float* q = qkv + (b * T + t) * ld + h * hs;
        double mx = -INFINITY;
        for (std::size_t u = 0; u <= t; ++u) {  // causal: only positions up to t
          const float* k = qkv + (b * T + u) * ld + (NH + kvh) * hs;
          double dot = 0;
          for (std::size_t i = 0; i < hs; ++i) dot += static_cast<double>(q[i]) * k[i];
          w[u] = dot * scale;
          mx = std::max(mx, w[u]);
        }
        double sum = 0;
        for (std::size_t u = 0; u <= t; ++u) sum += (w[u] = std::exp(w[u] - mx));
        float* o = out + (b * T + t) * C + h * hs;
        for (std::size_t i = 0; i < hs; ++i) {
          double acc = 0;
          for (std::size_t u = 0; u <= t; ++u) acc += w[u] / sum * qkv[(b * T + u) * ld + (NH + NKV + kvh) * hs + i];
          o[i] = static_cast<float>(acc);
        }
      }
    }
}

}  // namespace lumen::model
