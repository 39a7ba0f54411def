// The SIMD analogy kernels, written once over a lane type L (core/lanes_avx2.hpp, core/lanes_avx512.hpp: kWidth,
// set1, load, above(s, t), the bit mask of lanes where s > t with NaN 0; + - * / on L::V). analogy_kernels_avx2.cpp
// and analogy_kernels_avx512.cpp include it inside their anonymous namespace, so that each ISA's instances stay its
// own (nothing compiled with AVX-512 flags can be picked for another ISA's build).
// The operations and their order are analogy_kernels_generic.cpp's, lane by lane, so the results agree bit for bit.

inline std::size_t emit(unsigned mask, std::size_t base, std::uint32_t* idx, std::size_t m) {
  while (mask) {
    idx[m++] = static_cast<std::uint32_t>(base + static_cast<std::size_t>(__builtin_ctz(mask)));
    mask &= mask - 1;
  }
  return m;
}

// Writes the indices i < n whose score is above the threshold to idx, in order, and returns how many:
// whole(i) scores the L::kWidth rows from i, one(i) row i alone (the tail).
template <class L, class Whole, class One>
std::size_t indices_above(std::size_t n, float threshold, std::uint32_t* idx, Whole whole, One one) {
  std::size_t m = 0, i = 0;
  const auto t = L::set1(threshold);
  for (; i + L::kWidth <= n; i += L::kWidth)
    if (const unsigned mask = L::above(whole(i), t)) m = emit(mask, i, idx, m);
  for (; i < n; ++i)
    if (one(i) > threshold) idx[m++] = static_cast<std::uint32_t>(i);
  return m;
}

// 3CosAdd: (b + c) - a.
template <class L>
std::size_t add_above(const float* sa, const float* sb, const float* sc, std::size_t n, float threshold,
                      std::uint32_t* idx) {
  return indices_above<L>(
      n, threshold, idx, [&](std::size_t i) { return (L::load(sb + i) + L::load(sc + i)) - L::load(sa + i); },
      [&](std::size_t i) { return (sb[i] + sc[i]) - sa[i]; });
}

// 3CosMul: with p = (1 + s) / 2, (pb * pc) / (pa + 1e-6).
template <class L>
std::size_t mul_above(const float* sa, const float* sb, const float* sc, std::size_t n, float threshold,
                      std::uint32_t* idx) {
  const auto one = L::set1(1.0f), two = L::set1(2.0f), eps = L::set1(1e-6f);
  return indices_above<L>(
      n, threshold, idx,
      [&](std::size_t i) {
        const auto pa = (one + L::load(sa + i)) / two, pb = (one + L::load(sb + i)) / two,
                   pc = (one + L::load(sc + i)) / two;
        return (pb * pc) / (pa + eps);
      },
      [&](std::size_t i) {
        const float pa = (1.0f + sa[i]) / 2.0f, pb = (1.0f + sb[i]) / 2.0f, pc = (1.0f + sc[i]) / 2.0f;
        return (pb * pc) / (pa + 1e-6f);
      });
}
