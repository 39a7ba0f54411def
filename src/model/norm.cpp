// LayerNorm (GPT-2) and RMSNorm (Llama) over the channels of each position.
#include <cmath>

#include "lumen/model/ops.hpp"

namespace lumen::model {

void layernorm_forward(float* out, float* mean, float* rstd, const float* inp, const float* weight, const float* bias,
                       std::size_t BT, std::size_t C, float eps) {
  for (std::size_t i = 0; i < BT; ++i) {
    const float* x = inp + i * C;  // (C)
    double m = 0;
    for (std::size_t c = 0; c < C; ++c) m += x[c];
    m /= static_cast<double>(C);
    double v = 0;
    for (std::size_t c = 0; c < C; ++c) v += (x[c] - m) * (x[c] - m);
    v /= static_cast<double>(C);  // biased variance, as torch.nn.LayerNorm
    const auto s = static_cast<float>(1.0 / std::sqrt(v + eps));
    const auto mf = static_cast<float>(m);
    float* o = out + i * C;
    for (std::size_t c = 0; c < C; ++c) {
      const float n = (x[c] - mf) * s;
      o[c] = n * weight[c] + (bias != nullptr ? bias[c] : 0.0f);
    }
    if (mean != nullptr) mean[i] = mf;
    if (rstd != nullptr) rstd[i] = s;
  }
}

void rmsnorm_forward(float* out, float* rstd, const float* inp, const float* weight, std::size_t BT, std::size_t C,
                     float eps) {
  for (std::size_t i = 0; i < BT; ++i) {
    const float* x = inp + i * C;  // (C)
    double ms = 0;
    for (std::size_t c = 0; c < C; ++c) ms += static_cast<double>(x[c]) * x[c];
    ms /= static_cast<double>(C);
    const auto s = static_cast<float>(1.0 / std::sqrt(ms + eps));
    float* o = out + i * C;
    for (std::size_t c = 0; c < C; ++c) o[c] = weight[c] * (x[c] * s);  // Llama: weight * (x * rstd)
    if (rstd != nullptr) rstd[i] = s;
  }
}

}  // namespace lumen::model

namespace lumen::model {

// With n = (x - mean) * rstd and dn = dout * weight: dx = rstd * (dn - mean(dn) - n * mean(dn * n)), the two means
// being the gradient through mean and through rstd.
void layernorm_backward(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                        const float* weight, const float* mean, const float* rstd, std::size_t BT, std::size_t C) {
  for (std::size_t i = 0; i < BT; ++i) {
    const float* x = inp + i * C;   // (C)
    const float* d = dout + i * C;  // (C)
    const float m = mean[i], s = rstd[i];
    double dn_mean = 0, dn_n_mean = 0;
    for (std::size_t c = 0; c < C; ++c) {
      const float n = (x[c] - m) * s;
      const float dn = d[c] * weight[c];
      dn_mean += dn;
      dn_n_mean += static_cast<double>(dn) * n;
    }
    const auto a = static_cast<float>(dn_mean / static_cast<double>(C));
    const auto b = static_cast<float>(dn_n_mean / static_cast<double>(C));
    float* dx = dinp + i * C;
    for (std::size_t c = 0; c < C; ++c) {
      const float n = (x[c] - m) * s;
      if (dbias != nullptr) dbias[c] += d[c];
      dweight[c] += n * d[c];
      dx[c] += s * (d[c] * weight[c] - a - n * b);
    }
  }
}

}  // namespace lumen::model
