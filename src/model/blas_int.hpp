// OpenBLAS takes int dimensions. A model's are checked against its config before any call (config.cpp bounds
// every size), so the narrowing cannot wrap.
#pragma once

#include <cstddef>

namespace lumen::model::detail {

inline int blas_int(std::size_t n) { return static_cast<int>(n); }

}  // namespace lumen::model::detail
