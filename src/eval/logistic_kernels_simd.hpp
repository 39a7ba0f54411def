// The SIMD logistic-regression row kernels, written once over a lane type L of doubles (`Lanes`, defined by
// logistic_kernels_avx2.cpp and logistic_kernels_avx512.cpp, which include this inside their anonymous namespace, so
// each ISA's instances stay its own, and take the table's entries rows_f64 and rows_f32 from its end): kWidth doubles
// per register V (+ * on V element-wise), kGroup classes whose logits one pass over the row sums, zero(), set1, load /
// load_first (double or float, widened), store, and reduce16 over the 16 / kWidth registers that hold lanes 0-15 in
// order. The operations and their order are logistic_kernels_generic.cpp's, lane by lane, so the results agree bit for
// bit.

// z[g] = W_{k+g} · x + b_{k+g} for the G classes from k: one read of the row for all G dot products.
template <class L, std::size_t G, typename T>
void logits(const double* W, const double* b, const T* x, std::size_t d, std::size_t k, double* z) {
  constexpr std::size_t R = 16 / L::kWidth;  // registers per 16 lanes
  typename L::V acc[G][R];
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t r = 0; r < R; ++r) acc[g][r] = L::zero();
  const double* w = W + k * d;
  std::size_t i = 0;
  for (; i + 16 <= d; i += 16)
    for (std::size_t r = 0; r < R; ++r) {
      const auto xv = L::load(x + i + r * L::kWidth);
      for (std::size_t g = 0; g < G; ++g) acc[g][r] = acc[g][r] + L::load(w + g * d + i + r * L::kWidth) * xv;
    }
  if (i < d)  // the missing lanes load as zeros and add +0, which leaves every sum as it is
    for (std::size_t r = 0; r < R; ++r) {
      const std::size_t base = r * L::kWidth, m = d - i > base ? d - i - base : 0;
      const std::size_t lanes = m < L::kWidth ? m : L::kWidth;
      const auto xv = L::load_first(x + i + base, lanes);
      for (std::size_t g = 0; g < G; ++g) acc[g][r] = acc[g][r] + L::load_first(w + g * d + i + base, lanes) * xv;
    }
  for (std::size_t g = 0; g < G; ++g) z[g] = L::reduce16(acc[g]) + b[k + g];
}

// gW_{k+g} += Σ_r A_{r,k+g} x_r over a block of rows, in row order (the reference's order for each entry), for the G
// classes from k: each gradient register is loaded and stored once per block, not once per row.
template <class L, std::size_t G, typename T>
void gradient(const double* A, std::size_t K, const T* X, std::size_t rows, std::size_t d, std::size_t k, double* gW) {
  double* g0 = gW + k * d;
  std::size_t j = 0;
  for (; j + L::kWidth <= d; j += L::kWidth) {
    typename L::V acc[G];
    for (std::size_t g = 0; g < G; ++g) acc[g] = L::load(g0 + g * d + j);
    for (std::size_t r = 0; r < rows; ++r) {
      const auto xv = L::load(X + r * d + j);
      for (std::size_t g = 0; g < G; ++g) acc[g] = acc[g] + L::set1(A[r * K + k + g]) * xv;
    }
    for (std::size_t g = 0; g < G; ++g) L::store(g0 + g * d + j, acc[g]);
  }
  for (; j < d; ++j)
    for (std::size_t g = 0; g < G; ++g) {
      double s = g0[g * d + j];
      for (std::size_t r = 0; r < rows; ++r) s = s + A[r * K + k + g] * static_cast<double>(X[r * d + j]);
      g0[g * d + j] = s;
    }
}

template <class L, typename T>
double rows(const T* X, const int* y, std::size_t n, std::size_t d, std::size_t K, const double* W, const double* b,
            double* z, double* gW, double* gb) {
  double loss = 0.0;
  for (std::size_t i0 = 0; i0 < n; i0 += kScratchRows) {
    const std::size_t block = n - i0 < kScratchRows ? n - i0 : kScratchRows;
    const T* Xb = X + i0 * d;
    // Each row's logits and softmax: row r of the block leaves p − y in z[r K, (r + 1) K).
    for (std::size_t r = 0; r < block; ++r) {
      const T* x = Xb + r * d;
      double* zr = z + r * K;
      const auto label = static_cast<std::size_t>(y[i0 + r]);
      std::size_t k = 0;
      for (; k + L::kGroup <= K; k += L::kGroup) logits<L, L::kGroup>(W, b, x, d, k, zr + k);
      for (; k < K; ++k) logits<L, 1>(W, b, x, d, k, zr + k);
      // The softmax, as the reference: each exp once, the sum >= 1 (its top term is exp(0)).
      double top = -__builtin_inf();
      for (std::size_t c = 0; c < K; ++c)
        if (zr[c] > top) top = zr[c];
      const double zy = zr[label];
      double sum = 0.0;
      for (std::size_t c = 0; c < K; ++c) {
        zr[c] = __builtin_exp(zr[c] - top);
        sum = sum + zr[c];
      }
      loss = loss + ((top + __builtin_log(sum < 1.0 ? 1.0 : sum)) - zy);
      for (std::size_t c = 0; c < K; ++c) {
        zr[c] = zr[c] / sum - (c == label ? 1.0 : 0.0);  // p_c − y_c
        gb[c] = gb[c] + zr[c];
      }
    }
    // gW += (P − Y)ᵀ X over the block, while its rows are still in L1.
    std::size_t k = 0;
    for (; k + L::kGroup <= K; k += L::kGroup) gradient<L, L::kGroup>(z, K, Xb, block, d, k, gW);
    for (; k < K; ++k) gradient<L, 1>(z, K, Xb, block, d, k, gW);
  }
  return loss;
}

// The table's entries, over the including file's Lanes.
inline double rows_f64(const double* X, const int* y, std::size_t n, std::size_t d, std::size_t K, const double* W,
                       const double* b, double* z, double* gW, double* gb) {
  return rows<Lanes>(X, y, n, d, K, W, b, z, gW, gb);
}

inline double rows_f32(const float* X, const int* y, std::size_t n, std::size_t d, std::size_t K, const double* W,
                       const double* b, double* z, double* gW, double* gb) {
  return rows<Lanes>(X, y, n, d, K, W, b, z, gW, gb);
}
