// The 16-lane order every dot-product kernel sums in, as plain C++: lanes[l] accumulates elements l, l+16, ...,
// and the lanes meet in the pairwise tree (l, l+8), (l, l+4), (l, l+2), (l, l+1). The kernels_generic.cpp
// files include this inside their anonymous namespace; the SIMD files include lanes_avx2.hpp or
// lanes_avx512.hpp, the same order in registers.

inline constexpr std::size_t kLanes = 16;

inline float reduce16(float* acc) {
  for (std::size_t w = 8; w >= 1; w /= 2)
    for (std::size_t l = 0; l < w; ++l) acc[l] = acc[l] + acc[l + w];
  return acc[0];
}
