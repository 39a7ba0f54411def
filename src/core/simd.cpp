#include "lumen/core/simd.hpp"

#include <atomic>
#include <cpuid.h>
#include <cstdlib>
#include <fmt/format.h>
#include <string>

#include "lumen/core/dispatch.hpp"
#include "lumen/core/error.hpp"

namespace lumen {

std::string_view isa_name(Isa isa) {
  switch (isa) {
    case Isa::generic: return "generic";
    case Isa::avx2: return "avx2";
    case Isa::avx512: return "avx512";
  }
  return "?";
}

namespace {
// CPUID leaf 1, ECX bit 29: clang 14's __builtin_cpu_supports does not know "f16c".
bool cpu_has_f16c() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  return __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_F16C) != 0;
}
}  // namespace

Isa detected_isa() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("fma") && cpu_has_f16c() &&
      __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi"))
    return Isa::avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && cpu_has_f16c() &&
      __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi"))
    return Isa::avx2;
  return Isa::generic;
}

namespace {
std::vector<Isa> available_isas_up_to(Isa best) {
  std::vector<Isa> out;
  for (int i = 0; i <= static_cast<int>(best); ++i) out.push_back(static_cast<Isa>(i));
  return out;
}
}  // namespace

std::vector<Isa> available_isas() { return available_isas_up_to(detected_isa()); }

Isa requested_isa(std::string_view value, Isa best) {
  if (value.empty()) return best;
  std::string have;
  for (Isa i : available_isas_up_to(best)) have += fmt::format("{}{}", have.empty() ? "" : ", ", isa_name(i));
  for (Isa i : {Isa::generic, Isa::avx2, Isa::avx512}) {
    if (value != isa_name(i)) continue;
    if (static_cast<int>(i) > static_cast<int>(best))
      throw UsageError(
          fmt::format("LUMEN_ISA={}: this CPU lacks {} (it runs: {}); unset LUMEN_ISA or pick one of those", value,
                      isa_name(i), have));
    return i;
  }
  throw UsageError(
      fmt::format("LUMEN_ISA={}: not an ISA lumen knows (generic, avx2, avx512; this CPU runs: {})", value, have));
}

namespace {
Isa initial_isa() {
  const char* env = std::getenv("LUMEN_ISA");
  return requested_isa(env == nullptr ? std::string_view() : std::string_view(env), detected_isa());
}

std::atomic<int>& current() {
  static std::atomic<int> isa{static_cast<int>(initial_isa())};
  return isa;
}
}  // namespace

Isa active_isa() { return static_cast<Isa>(current().load(std::memory_order_relaxed)); }

void require_isa(Isa isa) {
  if (static_cast<int>(isa) > static_cast<int>(detected_isa()))
    throw UsageError(fmt::format("this CPU does not support {}", isa_name(isa)));
}

void force_isa(Isa isa) {
  require_isa(isa);
  current().store(static_cast<int>(isa), std::memory_order_relaxed);
}

}  // namespace lumen
