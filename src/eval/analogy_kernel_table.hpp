#pragma once
// The analogy scoring kernels one ISA provides (analogy_kernels_<isa>.cpp define one each).
// Files compiled with ISA flags include only this header and intrinsics (see lumen/core/kernel_table.hpp).
//
// For a block of n candidate rows, sa/sb/sc hold the cosines of each row with the inputs a, b, c of one
// question (rows of the GEMM output). A kernel combines them into the question's score for each row and writes
// the positions whose score is > threshold into idx (ascending), returning how many. NaN never qualifies.
// Every variant does the same IEEE operations in the same order, so all agree bit for bit with the reference.
#include <cstddef>
#include <cstdint>

namespace lumen::eval::kernels {

struct Table {
  // 3CosAdd: (sb + sc) - sa  (the ranking of cos(row, b - a + c) over unit rows, without the common scale)
  std::size_t (*add_above)(const float* sa, const float* sb, const float* sc, std::size_t n, float threshold,
                           std::uint32_t* idx);
  // 3CosMul: (pb * pc) / (pa + 1e-6), p = (1 + s) / 2  (gensim's most_similar_cosmul)
  std::size_t (*mul_above)(const float* sa, const float* sb, const float* sc, std::size_t n, float threshold,
                           std::uint32_t* idx);
};

extern const Table kGeneric;
extern const Table kAvx2;
extern const Table kAvx512;

}  // namespace lumen::eval::kernels
