#include "lumen/core/huge_pages.hpp"

#include <cstdint>
#include <sys/mman.h>

namespace lumen {

void advise_huge_pages(void* p, std::size_t bytes) {
#ifdef MADV_HUGEPAGE
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  const auto begin = reinterpret_cast<std::uintptr_t>(p);  // NOLINT(performance-no-int-to-ptr)
  const std::uintptr_t lo = (begin + kHuge - 1) / kHuge * kHuge, hi = (begin + bytes) / kHuge * kHuge;
  if (hi > lo) ::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);  // NOLINT(performance-no-int-to-ptr)
#else
  (void)p;
  (void)bytes;
#endif
}

}  // namespace lumen
