// One element step of the SIMD scan kernels' accumulators, written once for both vector types: acc + q * x for
// dot products, acc + (q - x)^2 for squared distances; mul then add, as kernels_generic.cpp (the ISA flags'
// -ffp-contract=off keeps it two roundings). + - * on __m256 and __m512 are the element-wise IEEE operations
// (GCC's and Clang's vector extensions). kernels_avx2.cpp and kernels_avx512.cpp include it inside their
// anonymous namespace, so that each ISA's instances stay its own.

template <bool kL2, class V>
inline V term(V acc, V q, V x) {
  if constexpr (kL2) {
    const V diff = q - x;
    return acc + diff * diff;
  } else {
    return acc + q * x;
  }
}
