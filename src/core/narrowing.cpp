#include "lumen/core/narrowing.hpp"

#include <cmath>
#include <fmt/format.h>
#include <vector>

#include "lumen/core/error.hpp"

namespace lumen {

NarrowingLoss narrowing_loss(const Matrix& wide, const Matrix& narrow) {
  if (wide.rows() != narrow.rows() || wide.cols() != narrow.cols())
    throw Error(
        fmt::format("narrowing_loss: {} x {} against {} x {}", wide.rows(), wide.cols(), narrow.rows(), narrow.cols()));
  NarrowingLoss loss;
  std::vector<float> a(wide.cols()), b(wide.cols());
  for (std::size_t r = 0; r < wide.rows(); ++r) {
    wide.row_f32(r, a.data());
    narrow.row_f32(r, b.data());
    for (std::size_t c = 0; c < a.size(); ++c) {
      if (!std::isfinite(a[c])) continue;
      loss.to_inf += std::isinf(b[c]) ? 1 : 0;
      loss.to_zero += a[c] != 0.0f && b[c] == 0.0f ? 1 : 0;
    }
  }
  return loss;
}

Matrix narrow_to(const Matrix& wide, DType dtype, NarrowingLoss& loss) {
  Matrix m = wide.to(dtype);
  loss = narrowing_loss(wide, m);
  return m;
}

}  // namespace lumen
