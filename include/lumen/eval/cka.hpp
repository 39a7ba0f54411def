#pragma once
// Linear CKA (Kornblith et al. 2019) of two tables over the same words: ‖XᵀY‖²_F / (‖XᵀX‖_F ‖YᵀY‖_F) on the
// column-centred rows X, Y. 1 when one table is a rotation and scaling of the other; it ignores rotation and
// isotropic scaling, and needs no equal d.
#include "lumen/eval/cross_gram.hpp"

namespace lumen::eval {

// NaN when either table has no variance.
double linear_cka(const CrossGram& g);

}  // namespace lumen::eval
