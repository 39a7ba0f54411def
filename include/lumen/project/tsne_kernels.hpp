#pragma once
// The function table of t-SNE's O(N^2) loops, one per ISA (tsne_kernels_<isa>.cpp).
// Kernel files compiled with ISA flags include only this header and intrinsics (see kernel_table.hpp in core).
#include <cstddef>

namespace lumen::project::kernels {

struct TsneTable {
  // Student-t kernel q_j = 1 / (1 + |p - y_j|^2) of point p = (px, py) against n map points stored as
  // columns xs, ys: returns sum_j q_j and adds sum_j q_j^2 (p - y_j) to fx, fy. A point equal to p adds q = 1 and
  // no force: the caller takes its own term (1) off.
  double (*repulse)(const float* xs, const float* ys, std::size_t n, float px, float py, float* fx, float* fy);
  // The same with a mass m_j per entry (Barnes-Hut interaction lists: cells as points of mass m_j):
  // returns sum_j m_j q_j and adds sum_j m_j q_j^2 (p - y_j) to fx, fy.
  double (*repulse_mass)(const float* xs, const float* ys, const float* ms, std::size_t n, float px, float py,
                         float* fx, float* fy);
  // sum_j q_j only (the normalisation Z, row by row).
  double (*kernel_sum)(const float* xs, const float* ys, std::size_t n, float px, float py);
};

extern const TsneTable kTsneGeneric;
extern const TsneTable kTsneAvx2;
extern const TsneTable kTsneAvx512;

}  // namespace lumen::project::kernels
