#pragma once
// Run-time ISA dispatch. The default build targets baseline x86-64; kernels compiled for AVX2 and AVX-512
// live in files named *_avx2.cpp / *_avx512.cpp and are chosen here, once, from what the CPU supports.
// LUMEN_ISA=generic|avx2|avx512 in the environment (or force_isa) overrides, for tests and benchmarks; a value
// that is not an ISA, or one this CPU lacks, is refused (UsageError) rather than quietly replaced.
#include <string_view>
#include <vector>

namespace lumen {

enum class Isa { generic = 0, avx2 = 1, avx512 = 2 };

std::string_view isa_name(Isa isa);
Isa detected_isa();                 // the best the CPU supports
std::vector<Isa> available_isas();  // every variant that can run here, generic first
Isa active_isa();                   // what dispatch uses now; throws UsageError for a bad LUMEN_ISA
// The ISA that LUMEN_ISA's value asks for on a CPU whose best is `best` (empty value: `best`); throws UsageError
// naming the value and what the CPU has when it is unknown or beyond `best`.
Isa requested_isa(std::string_view value, Isa best);
void force_isa(Isa isa);  // throws UsageError if the CPU lacks it

}  // namespace lumen
