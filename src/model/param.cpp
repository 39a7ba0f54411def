#include "lumen/model/param.hpp"

#include "lumen/core/error.hpp"
#include "lumen/core/kernels.hpp"
#include "model/weight_copy.hpp"

namespace lumen::model {

Param Param::view(Matrix m, bool in_out) {
  if (m.owned()) throw Error("Param::view: expected a borrowed matrix");
  Param p;
  if (m.dtype() != DType::f32) p.wide_ = std::make_shared<Wide>();
  p.view_ = std::make_shared<const Matrix>(std::move(m));
  p.in_out_ = in_out;
  return p;
}

namespace {
std::vector<float> widen(const Matrix& m, const std::uint16_t* bits) {
  std::vector<float> out(m.size());
  if (m.dtype() == DType::f16) kernels::f16_to_f32(bits, out.data(), out.size());
  else kernels::bf16_to_f32(bits, out.data(), out.size());
  return out;
}
}  // namespace

const float* Param::data() const {
  if (!view_) return values_.data();
  if (!wide_) return view_->f32().data();
  std::call_once(wide_->once, [this] {
    wide_->values = widen(*view_, half());
    wide_->made = true;
  });
  return wide_->values.data();
}

const std::uint16_t* Param::half() const {
  if (!wide_) return nullptr;
  return reinterpret_cast<const std::uint16_t*>(view_->data());  // NOLINT: f16/bf16 bits, 2-byte aligned
}

std::vector<float> Param::out_in() const {
  // A half view is widened here, not through data()'s kept copy: this copy is the caller's.
  if (wide_ && !wide_->made) {
    std::vector<float> wide = widen(*view_, half());
    if (!in_out_) return wide;
    std::vector<float> out;
    append_transposed(out, wide.data(), view_->rows(), view_->cols());
    return out;
  }
  if (!in_out_) return {begin(), end()};
  std::vector<float> out;
  append_transposed(out, data(), view_->rows(), view_->cols());  // (in, out) -> (out, in)
  return out;
}

std::vector<float>& Param::values() {
  if (view_) {
    values_ = out_in();
    view_.reset();
    wide_.reset();
    in_out_ = false;
  }
  return values_;
}

void Param::assign(std::size_t n, float v) {
  view_.reset();
  wide_.reset();
  in_out_ = false;
  values_.assign(n, v);
}

}  // namespace lumen::model
