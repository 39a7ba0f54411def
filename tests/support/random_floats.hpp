#pragma once
// Random inputs for kernel tests and the bits to compare their results by: lumen::Rng's normal values (the same
// on every platform), and a float's IEEE bit pattern (so NaNs compare, and -0 differs from +0).
#include <cstdint>
#include <cstring>
#include <vector>

#include "lumen/core/rng.hpp"

namespace lumen::test {

// n standard normal values from Rng(seed).
inline std::vector<float> randn(std::size_t n, std::uint64_t seed) {
  Rng r(seed);
  std::vector<float> v(n);
  for (auto& x : v) x = static_cast<float>(r.normal());
  return v;
}

inline std::uint32_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

inline std::vector<std::uint32_t> bits(const std::vector<float>& v) {
  std::vector<std::uint32_t> u(v.size());
  if (!v.empty()) std::memcpy(u.data(), v.data(), v.size() * sizeof(float));
  return u;
}

}  // namespace lumen::test
