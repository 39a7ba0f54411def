// The SIMD analogy kernels, written once over a vector type V. analogy_kernels_avx2.cpp and
// analogy_kernels_avx512.cpp define V and include this inside their anonymous namespace, so that each ISA's
// instances stay its own (nothing compiled with AVX-512 flags can be picked for another ISA's build).
// V gives: kLanes, set1, load, add, sub, mul, div, and above(s, t), the bit mask of lanes where s > t (NaN: 0).
// The operations and their order are analogy_kernels_generic.cpp's, lane by lane, so the results agree bit for bit.

inline std::size_t emit(unsigned mask, std::size_t base, std::uint32_t* idx, std::size_t m) {
  while (mask) {
    idx[m++] = static_cast<std::uint32_t>(base + static_cast<std::size_t>(__builtin_ctz(mask)));
    mask &= mask - 1;
  }
  return m;
}

template <class V>
std::size_t add_above(const float* sa, const float* sb, const float* sc, std::size_t n, float threshold,
                      std::uint32_t* idx) {
  std::size_t m = 0, i = 0;
  const auto t = V::set1(threshold);
  for (; i + V::kLanes <= n; i += V::kLanes) {
    const auto s = V::sub(V::add(V::load(sb + i), V::load(sc + i)), V::load(sa + i));
    if (const unsigned mask = V::above(s, t)) m = emit(mask, i, idx, m);
  }
  for (; i < n; ++i)
    if ((sb[i] + sc[i]) - sa[i] > threshold) idx[m++] = static_cast<std::uint32_t>(i);
  return m;
}

template <class V>
std::size_t mul_above(const float* sa, const float* sb, const float* sc, std::size_t n, float threshold,
                      std::uint32_t* idx) {
  std::size_t m = 0, i = 0;
  const auto t = V::set1(threshold);
  const auto one = V::set1(1.0f), two = V::set1(2.0f), eps = V::set1(1e-6f);
  for (; i + V::kLanes <= n; i += V::kLanes) {
    const auto pa = V::div(V::add(one, V::load(sa + i)), two);
    const auto pb = V::div(V::add(one, V::load(sb + i)), two);
    const auto pc = V::div(V::add(one, V::load(sc + i)), two);
    const auto s = V::div(V::mul(pb, pc), V::add(pa, eps));
    if (const unsigned mask = V::above(s, t)) m = emit(mask, i, idx, m);
  }
  for (; i < n; ++i) {
    const float pa = (1.0f + sa[i]) / 2.0f, pb = (1.0f + sb[i]) / 2.0f, pc = (1.0f + sc[i]) / 2.0f;
    if ((pb * pc) / (pa + 1e-6f) > threshold) idx[m++] = static_cast<std::uint32_t>(i);
  }
  return m;
}
