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

Param Param::stack(std::vector<Param> parts) {
  Param p;
  for (const Param& part : parts) {
    if (part.in_out()) throw Error("Param::stack: a part lies (in, out); stacks join (out, in) rows");
    p.stacked_size_ += part.size();
  }
  p.parts_ = std::make_shared<const std::vector<Param>>(std::move(parts));
  p.wide_ = std::make_shared<Wide>();
  return p;
}

bool Param::borrowed() const {
  if (view_) return true;
  if (parts_)
    for (const Param& part : *parts_)
      if (part.borrowed()) return true;
  return false;
}

namespace {
std::vector<float> widen(const Matrix& m, const std::uint16_t* bits) {
  std::vector<float> out(m.size());
  kernels::half_to_f32(m.dtype(), bits, out.data(), out.size());
  return out;
}
}  // namespace

const float* Param::data() const {
  if (!view_ && !parts_) return values_.data();
  if (!wide_) return view_->f32().data();
  std::call_once(wide_->once, [this] {
    wide_->values = view_ ? widen(*view_, half()) : out_in();
    wide_->made = true;
  });
  return wide_->values.data();
}

const std::uint16_t* Param::half() const {
  if (!wide_ || !view_) return nullptr;
  return reinterpret_cast<const std::uint16_t*>(view_->data());  // NOLINT: f16/bf16 bits, 2-byte aligned
}

std::vector<float> Param::out_in() const {
  // A half view is widened here, and a stack joined, not through data()'s kept copy: this copy is the caller's.
  if (parts_ && !wide_->made) {
    std::vector<float> out;
    reserve_more(out, stacked_size_);
    for (const Param& part : *parts_) {
      const std::vector<float> rows = part.out_in();
      out.insert(out.end(), rows.begin(), rows.end());
    }
    return out;
  }
  if (parts_) return {begin(), end()};
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
  if (view_ || parts_) {
    values_ = out_in();
    view_.reset();
    parts_.reset();
    wide_.reset();
    in_out_ = false;
  }
  return values_;
}

void Param::assign(std::size_t n, float v) {
  view_.reset();
  parts_.reset();
  wide_.reset();
  in_out_ = false;
  values_.assign(n, v);
}

}  // namespace lumen::model
