// AVX-512 gather: 16 floats at a time (gather_simd.hpp over core/lanes_avx512.hpp).
#include <immintrin.h>

#include "gather_table.hpp"

namespace lumen::nn::kernels {
namespace {

#include "core/lanes_avx512.hpp"
#include "gather_simd.hpp"

}  // namespace

const GatherTable kGatherAvx512 = {gather<Lanes>};

}  // namespace lumen::nn::kernels
