// The exp-based activations, written once over a lane type L: core/lanes_avx2.hpp's or core/lanes_avx512.hpp's
// Lanes, or One (below), the plain scalar lane of activations_generic.cpp. Each file includes this inside its
// anonymous namespace, so every ISA's instances stay its own. The same operations in the same order, lane by lane:
// every variant gives the same bits (the ISA flags' -ffp-contract=off keeps a * b + c two roundings).
//
// e^x is the polynomial below, not libm's: libm's scalar expf and tanhf were a fifth of GPT-2's forward. Within
// 3 ulp of e^x on [-87, 88] (tests/nn/test_activations.cpp measures it against double precision).

// One float as a lane, with the SIMD lanes' semantics: max(a, b) = a > b ? a : b, as maxps (b when either is NaN).
struct One {
  using V = float;
  static constexpr std::size_t kWidth = 1;
  static V set1(float x) { return x; }
  static V load(const float* p) { return *p; }
  static void store(float* p, V v) { *p = v; }
  static V max(V a, V b) { return a > b ? a : b; }
  static V min(V a, V b) { return a < b ? a : b; }
  static V from_exponent(V k, unsigned bias) {
    return std::bit_cast<float>((std::bit_cast<std::uint32_t>(k) - bias) << 23);
  }
};

// 1.5 * 2^23: x + kRound rounds x to an integer held in the low mantissa bits (|x| < 2^22), the current rounding
// mode's way (to nearest).
inline constexpr float kRound = 12582912.0f;
// bits(kRound + n) - bias = n + 127, the biased exponent of 2^n.
inline constexpr unsigned kExpBias = 0x4B400000u - 127u;

// e^x: x = n ln2 + r with |r| <= ln2/2 (ln2 in two parts, so n ln2_hi is exact), e^r by Taylor to r^7 (the
// remainder is below 6e-9 relative), times 2^n from the exponent bits. x is clamped to [-87, 88], which keeps 2^n
// normal; NaN stays NaN (the clamp passes it through, as max(lo, x) returns x).
template <class L>
typename L::V exp(typename L::V x) {
  using V = typename L::V;
  x = L::min(L::set1(88.0f), L::max(L::set1(-87.0f), x));
  const V k = x * L::set1(1.44269504088896341f) + L::set1(kRound);
  const V n = k - L::set1(kRound);
  const V r = (x - n * L::set1(0.693359375f)) - n * L::set1(-2.12194440e-4f);
  V p = L::set1(1.0f / 5040.0f);
  p = p * r + L::set1(1.0f / 720.0f);
  p = p * r + L::set1(1.0f / 120.0f);
  p = p * r + L::set1(1.0f / 24.0f);
  p = p * r + L::set1(1.0f / 6.0f);
  p = p * r + L::set1(0.5f);
  p = p * r + L::set1(1.0f);
  p = p * r + L::set1(1.0f);
  return p * L::from_exponent(k, kExpBias);
}

template <class L>
typename L::V gelu_of(typename L::V x) {
  using V = typename L::V;
  const V u = L::set1(0.7978845608028654f) * (x + L::set1(0.044715f) * x * x * x);
  return x / (L::set1(1.0f) + exp<L>(L::set1(-2.0f) * u));
}

template <class L>
void gelu(float* out, const float* in, std::size_t n) {
  std::size_t i = 0;
  for (; i + L::kWidth <= n; i += L::kWidth) L::store(out + i, gelu_of<L>(L::load(in + i)));
  for (; i < n; ++i) out[i] = gelu_of<One>(in[i]);
}

template <class L>
void silu_mul(float* out, const float* gate, const float* up, std::size_t n) {
  std::size_t i = 0;
  for (; i + L::kWidth <= n; i += L::kWidth) {
    const auto g = L::load(gate + i);
    L::store(out + i, g / (L::set1(1.0f) + exp<L>(L::set1(0.0f) - g)) * L::load(up + i));
  }
  for (; i < n; ++i) out[i] = gate[i] / (1.0f + exp<One>(0.0f - gate[i])) * up[i];
}

// The softmax's max and sum in 16 lanes, element i in lane i % 16 (the last n % 16 one by one), the lanes met in
// lanes_generic.hpp's tree for the sum and left to right for the max.
template <class L>
void softmax(float* p, std::size_t n) {
  using V = typename L::V;
  constexpr std::size_t R = 16 / L::kWidth;  // registers per 16 lanes
  const std::size_t full = n - n % 16;
  float lanes[16];
  V acc[R];
  for (auto& a : acc) a = L::set1(-INFINITY);
  for (std::size_t i = 0; i < full; i += 16)
    for (std::size_t r = 0; r < R; ++r) acc[r] = L::max(acc[r], L::load(p + i + r * L::kWidth));
  for (std::size_t r = 0; r < R; ++r) L::store(lanes + r * L::kWidth, acc[r]);
  for (std::size_t i = full; i < n; ++i) lanes[i % 16] = One::max(lanes[i % 16], p[i]);
  float top = lanes[0];
  for (std::size_t l = 1; l < 16; ++l) top = One::max(top, lanes[l]);

  const V t = L::set1(top);
  for (auto& a : acc) a = L::set1(0.0f);
  for (std::size_t i = 0; i < full; i += 16)
    for (std::size_t r = 0; r < R; ++r) {
      const V e = exp<L>(L::load(p + i + r * L::kWidth) - t);
      L::store(p + i + r * L::kWidth, e);
      acc[r] = acc[r] + e;
    }
  for (std::size_t r = 0; r < R; ++r) L::store(lanes + r * L::kWidth, acc[r]);
  for (std::size_t i = full; i < n; ++i) lanes[i % 16] = lanes[i % 16] + (p[i] = exp<One>(p[i] - top));
  for (std::size_t w = 8; w >= 1; w /= 2)
    for (std::size_t l = 0; l < w; ++l) lanes[l] = lanes[l] + lanes[l + w];

  const float inv = 1.0f / lanes[0];
  const V s = L::set1(inv);
  std::size_t i = 0;
  for (; i + L::kWidth <= n; i += L::kWidth) L::store(p + i, L::load(p + i) * s);
  for (; i < n; ++i) p[i] = p[i] * inv;
}
