#include "lumen/model/param.hpp"

#include "lumen/core/error.hpp"
#include "model/weight_copy.hpp"

namespace lumen::model {

Param Param::view(Matrix m, bool in_out) {
  if (m.dtype() != DType::f32 || m.owned()) throw Error("Param::view: expected a borrowed f32 matrix");
  Param p;
  p.view_ = std::make_shared<const Matrix>(std::move(m));
  p.in_out_ = in_out;
  return p;
}

std::vector<float> Param::out_in() const {
  if (!in_out_) return {begin(), end()};
  std::vector<float> out;
  append_transposed(out, data(), view_->rows(), view_->cols());  // (in, out) -> (out, in)
  return out;
}

std::vector<float>& Param::values() {
  if (view_) {
    values_ = out_in();
    view_.reset();
    in_out_ = false;
  }
  return values_;
}

void Param::assign(std::size_t n, float v) {
  view_.reset();
  in_out_ = false;
  values_.assign(n, v);
}

}  // namespace lumen::model
