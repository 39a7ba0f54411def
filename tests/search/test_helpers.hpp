#pragma once
// Random tables for search tests (lumen::Rng: the same on every platform).
#include <string>

#include "lumen/core/rng.hpp"
#include "lumen/core/table.hpp"

namespace lumen::test {

// V x d normal entries stored as dtype, tokens "w0", "w1", ...; a few exact duplicates of row 0
// (rows 1 and V/2) so ties are exercised.
inline Table random_table(std::size_t V, std::size_t d, DType dtype, std::uint64_t seed, bool duplicates = true) {
  Matrix f(V, d);
  Rng rng(seed);
  auto data = f.f32_mut();
  for (auto& x : data) x = static_cast<float>(rng.normal());
  if (duplicates && V > 4)
    for (std::size_t c = 0; c < d; ++c) {
      f.set(1, c, f.at(0, c));
      f.set(V / 2, c, f.at(0, c));
    }
  Table t;
  t.E = dtype == DType::f32 ? std::move(f) : f.to(dtype);
  for (std::size_t i = 0; i < V; ++i) t.vocab.add("w" + std::to_string(i));
  t.source = "random";
  return t;
}

}  // namespace lumen::test
