#pragma once
// Run-time ISA dispatch. The default build targets baseline x86-64; kernels compiled for AVX2 and AVX-512
// live in files named *_avx2.cpp / *_avx512.cpp and are chosen here, once, from what the CPU supports.
// LUMEN_ISA=generic|avx2|avx512 in the environment (or force_isa) overrides, for tests and benchmarks.
#include <string_view>
#include <vector>

namespace lumen {

enum class Isa { generic = 0, avx2 = 1, avx512 = 2 };

std::string_view isa_name(Isa isa);
Isa detected_isa();                 // the best the CPU supports
std::vector<Isa> available_isas();  // every variant that can run here, generic first
Isa active_isa();                   // what dispatch uses now
void force_isa(Isa isa);            // throws UsageError if the CPU lacks it

}  // namespace lumen
