#pragma once
// The chapter's toy table: about thirty words placed by hand on a two-dimensional map, in clusters
// (animals, people and royalty, food, places, politics). Small enough to print, and laid out so that the
// cosine and the vector arithmetic behave as the chapter says: cat is closer to dog than to parliament,
// and king - man + woman lands on queen (with or without normalising the inputs first).
#include <cstddef>

#include "lumen/core/dtype.hpp"
#include "lumen/core/table.hpp"

namespace lumen {

// V = 30, d = 2, f32; tokens carry made-up counts (most frequent first), source and format "toy".
Table toy_table();
// The same, only the first `limit` rows (0: all), stored as `dtype` (as the CLI's --limit and --dtype ask).
Table toy_table(std::size_t limit, DType dtype);

}  // namespace lumen
