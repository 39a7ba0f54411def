// The SIMD training kernels, written once over a lane type L (core/lanes_avx2.hpp, core/lanes_avx512.hpp).
// kernels_avx2.cpp and kernels_avx512.cpp include it inside their anonymous namespace, so that each ISA's
// instances stay its own. Each element is kernels_generic.cpp's one multiply then one add (no FMA), lane by
// lane, so the results agree bit for bit; the last n % kWidth elements are one masked step, not a scalar loop.

// Runs step(i, access) over [0, n) in blocks of L::kWidth: access loads and stores a whole block, or, for the
// last partial one, its first lanes only.
template <class L, class Step>
void blocks(std::size_t n, Step step) {
  struct Whole {
    static typename L::V load(const float* p) { return L::load(p); }
    static void store(float* p, typename L::V v) { L::store(p, v); }
  };
  struct First {
    std::size_t m;
    typename L::V load(const float* p) const { return L::load_first(p, m); }
    void store(float* p, typename L::V v) const { L::store_first(p, m, v); }
  };
  std::size_t i = 0;
  for (; i + L::kWidth <= n; i += L::kWidth) step(i, Whole{});
  if (i < n) step(i, First{n - i});
}

template <class L>
void pair_update(float* g, float* o, const float* h, float a, std::size_t n) {
  const auto va = L::set1(a);
  blocks<L>(n, [&](std::size_t i, auto x) {
    const auto vo = x.load(o + i);
    x.store(g + i, x.load(g + i) + va * vo);
    x.store(o + i, vo + va * x.load(h + i));
  });
}

template <class L>
void scale(float* y, float a, std::size_t n) {
  const auto va = L::set1(a);
  blocks<L>(n, [&](std::size_t i, auto x) { x.store(y + i, va * x.load(y + i)); });
}
