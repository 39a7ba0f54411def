#pragma once
// What `lumen info` shows about a table's values: row norms and non-finite values.
#include <cstddef>
#include <vector>

#include "lumen/core/matrix.hpp"

namespace lumen::io {

struct Summary {
  double norm_min = 0, norm_median = 0, norm_max = 0;  // L2 norms of the rows without NaN/Inf
  std::size_t zero_rows = 0;                           // rows whose norm is 0
  std::size_t nan = 0, inf = 0;                        // non-finite values in E
  std::size_t nonfinite_rows = 0;                      // rows holding any (left out of the norms)
  std::vector<std::size_t> nonfinite_ids;              // the first of those rows (at most max_named), in order
};

// One pass over E (V,d), in parallel (threads 0: lumen::default_threads()). Names at most `max_named` of the
// rows holding NaN/Inf, so a table of NaNs does not make a report as long as the table.
Summary summarize(const Matrix& E, std::size_t threads = 0, std::size_t max_named = 1000);

}  // namespace lumen::io
