#include "logistic_kernels.hpp"

#include "lumen/core/dispatch.hpp"

namespace lumen::eval::logistic_kernels {

const Table& table(Isa isa) { return dispatch(isa, kGeneric, kAvx2, kAvx512); }
const Table& active() { return dispatch(kGeneric, kAvx2, kAvx512); }

}  // namespace lumen::eval::logistic_kernels
