// AVX-512 training kernels: kernels_simd.hpp over core/lanes_avx512.hpp; equal to kernels_generic.cpp bit for bit.
#include <immintrin.h>

#include "lumen/train/kernel_table.hpp"

namespace lumen::train::kernels {
namespace {

#include "core/lanes_avx512.hpp"
#include "kernels_simd.hpp"

}  // namespace

const Table kAvx512 = {pair_update<Lanes>, scale<Lanes>};

}  // namespace lumen::train::kernels
