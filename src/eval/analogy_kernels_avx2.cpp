#include <immintrin.h>

#include "analogy_kernel_table.hpp"

namespace lumen::eval::kernels {

namespace {

#include "core/lanes_avx2.hpp"

#include "analogy_kernels_simd.hpp"  // over its Lanes

}  // namespace

const Table kAvx2 = {add_above<Lanes>, mul_above<Lanes>};

}  // namespace lumen::eval::kernels
