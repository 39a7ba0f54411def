// The backward pass of causal attention by plain loops in double: what attention_backward (BLAS, threads) is
// tested against. The same formulas, element by element (see attention_backward.cpp).
#include <cmath>
#include <vector>

#include "lumen/model/ops.hpp"

namespace lumen::model {

void attention_backward_reference(float* dqkv, const float* dout, const float* qkv, const float* att, std::size_t B,
                                  std::size_t T, std::size_t NH, std::size_t NKV, std::size_t hs) {
  const std::size_t ld = (NH + 2 * NKV) * hs, C = NH * hs, group = NH / NKV;
  const double scale = 1.0 / std::sqrt(static_cast<double>(hs));
  std::vector<double> dp(T);
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t h = 0; h < NH; ++h) {
      const std::size_t kvh = h / group;
      const std::size_t qo = h * hs, ko = (NH + kvh) * hs, vo = (NH + NKV + kvh) * hs;
      for (std::size_t t = 0; t < T; ++t) {
        const float* p = att + ((b * NH + h) * T + t) * T;
        const float* dO = dout + (b * T + t) * C + h * hs;
        double dot = 0;
        for (std::size_t u = 0; u <= t; ++u) {
          const float* v = qkv + (b * T + u) * ld + vo;
          float* dv = dqkv + (b * T + u) * ld + vo;
          double s = 0;
          for (std::size_t i = 0; i < hs; ++i) {
            s += static_cast<double>(dO[i]) * v[i];
            dv[i] += static_cast<float>(p[u] * static_cast<double>(dO[i]));
          }
          dp[u] = s;
          dot += p[u] * s;
        }
        const float* q = qkv + (b * T + t) * ld + qo;
        float* dq = dqkv + (b * T + t) * ld + qo;
        for (std::size_t u = 0; u <= t; ++u) {
          const double ds = p[u] * (dp[u] - dot) * scale;
          const float* k = qkv + (b * T + u) * ld + ko;
          float* dk = dqkv + (b * T + u) * ld + ko;
          for (std::size_t i = 0; i < hs; ++i) {
            dq[i] += static_cast<float>(ds * k[i]);
            dk[i] += static_cast<float>(ds * q[i]);
          }
        }
      }
    }
}

}  // namespace lumen::model
