// AVX2 gather: 8 floats at a time (gather_simd.hpp over core/lanes_avx2.hpp).
#include <immintrin.h>

#include "gather_table.hpp"

namespace lumen::nn::kernels {
namespace {

#include "core/lanes_avx2.hpp"
#include "gather_simd.hpp"

}  // namespace

const GatherTable kGatherAvx2 = {gather<Lanes>};

}  // namespace lumen::nn::kernels
