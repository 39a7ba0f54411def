#pragma once
// One parameter tensor of a transformer, as f32: owned values (initialised, trained, or converted at load), or a
// view of values where they lie in a checkpoint's map (a borrowed Matrix: nothing copied, nothing zero-filled, the
// map kept open by the view). A view may be f16 or bf16 (a linear weight kept at half size: the forward's GEMM
// widens it a tile at a time, from half()); anything that reads it as f32 (data(), span(), out_in()) gets a widened
// copy, made once, on first use, and kept with the view. A stack is several (out, in) matrices as one, their rows
// in order (Llama's q, k and v; gate and up): the forward runs each part where it lies, and reading the stack as f32
// gets the joined copy, made the same way. A linear weight viewed in place may lie as (in, out), GPT-2's
// Conv1D layout, rather than nn.Linear's (out, in); the forward's GEMM reads it with the transpose flag that fits
// (in_out()).
//
// Reading is the same either way. Anything that writes (training, tests editing a weight) goes through the non-const
// accessors, which first copy a view into owned values in (out, in) layout: a view is never written through.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "lumen/core/matrix.hpp"

namespace lumen::model {

class Param {
 public:
  Param() = default;
  Param(std::vector<float> values) : values_(std::move(values)) {}  // NOLINT(google-explicit-constructor)
  // A view of `m` (f32, f16 or bf16, borrowed); in_out: a linear weight stored (in, out) = (m.rows(), m.cols()).
  static Param view(Matrix m, bool in_out = false);
  // The rows of `parts` in order, as one (out, in) matrix; no part may be in_out. Nothing is copied.
  static Param stack(std::vector<Param> parts);

  std::size_t size() const { return view_ ? view_->size() : parts_ ? stacked_size_ : values_.size(); }
  bool empty() const { return size() == 0; }
  // The values as f32 (for a half view: its widened copy, made on the first call; thread-safe).
  const float* data() const;
  const float* begin() const { return data(); }
  const float* end() const { return data() + size(); }
  float operator[](std::size_t i) const { return data()[i]; }
  std::span<const float> span() const { return {data(), size()}; }
  operator std::span<const float>() const { return span(); }  // NOLINT(google-explicit-constructor)

  bool borrowed() const;  // a view, or a stack with a view among its parts
  bool in_out() const { return in_out_; }
  DType dtype() const { return view_ ? view_->dtype() : DType::f32; }  // a stack: f32 (its parts say their own)
  const std::vector<Param>* parts() const { return parts_.get(); }     // a stack's parts; nullptr otherwise
  // A half view's stored bits (f16 or bf16, as dtype() says), in the view's layout; nullptr for f32.
  const std::uint16_t* half() const;
  // Whether data() has widened a half view or joined a stack (tests: the forward must not).
  bool widened() const { return wide_ != nullptr && wide_->made; }

  // The values in nn.Linear's (out, in) layout (for a view stored (in, out), the transpose), as a copy.
  std::vector<float> out_in() const;

  // Writable values in (out, in) layout: a view is copied (transposed if (in, out)) into owned values first.
  std::vector<float>& values();
  float* data() { return values().data(); }
  float* begin() { return data(); }
  float* end() { return data() + size(); }
  float& operator[](std::size_t i) { return values()[i]; }
  void assign(std::size_t n, float v);
  void clear() { assign(0, 0.0f); }

 private:
  struct Wide {  // a half view's f32 copy (or a stack's joined one), shared by the Params that share it
    std::once_flag once;
    std::atomic<bool> made{false};
    std::vector<float> values;
  };
  std::vector<float> values_;
  std::shared_ptr<const Matrix> view_;  // shared: a Weights copy (zeros_like) shares the view, never the map's bytes
  std::shared_ptr<const std::vector<Param>> parts_;  // stacks only
  std::size_t stacked_size_ = 0;
  std::shared_ptr<Wide> wide_;  // half views and stacks
  bool in_out_ = false;
};

}  // namespace lumen::model
