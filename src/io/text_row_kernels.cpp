#include "io/text_row_kernels.hpp"

#include "lumen/core/dispatch.hpp"

namespace lumen::io::text_row_kernels {

const Table& table(Isa isa) { return dispatch(isa, kGeneric, kAvx2, kAvx512); }
const Table& active() { return dispatch(kGeneric, kAvx2, kAvx512); }

}  // namespace lumen::io::text_row_kernels
