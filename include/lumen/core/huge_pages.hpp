#pragma once
// Advice that a large buffer be backed by 2 MB transparent huge pages (where the kernel grants them on request,
// THP "madvise"): its first touch then takes one page fault per 2 MB instead of one per 4 kB, which on a virtual
// machine costs more than the copy that touches it. Advice only: without it the pages are ordinary ones.
#include <cstddef>

namespace lumen {

// The 2 MB-aligned part of [p, p + bytes) is advised; a buffer under 2 MB is left alone.
void advise_huge_pages(void* p, std::size_t bytes);

}  // namespace lumen
