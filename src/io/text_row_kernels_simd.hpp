// The SIMD row-value scanners' driver, written once over an ISA's block masks and value reader
// (text_row_kernels_avx2.cpp and text_row_kernels_avx512.cpp include this inside their anonymous namespace, so each
// ISA's copy stays its own). The including file defines:
//   Masks block_masks(const char* p): for the 64 bytes at p, bit i of nl ('\n'), sep (' ' or '\n'), point ('.'),
//     valid (a digit, a '.', or a '-' right after a separator);
//   bool read_values(const char* base, const std::int32_t* ends, const std::int32_t* points, std::size_t n,
//     float* out): reads n listed values (value k between the separators at base + ends[k] and base + ends[k + 1],
//     its point at base + points[k]) into out; false where one has no digit, or more than 7, on either side;
//   kQueue (values listed before they are read) and kQueueRoom (entries the arrays hold: kQueue, 16 more that a
//     block can list, and what read_values reads past n).

inline const char* scan_values(const char* p, const char* tend, std::size_t dim, float* out) {
  std::int32_t ends[kQueueRoom + 1];  // ends[0]: the separator before the first listed value (offsets from base)
  std::int32_t points[kQueueRoom];
  const char* base = p;
  ends[0] = 0;
  std::size_t listed = 0, left = dim;  // values listed and not yet read; values not yet listed
  while (true) {
    const BlockMasks m = block_masks(p);
    std::uint64_t sep = m.sep;
    if (tend - p < 63) sep &= (std::uint64_t{2} << (tend - p)) - 1;  // nothing past tend counts
    std::uint64_t value_ends = sep & ~std::uint64_t{1};              // bit 0: the separator before the next value
    if (value_ends == 0) return nullptr;                             // a value of over 62 bytes, or the row passes tend
    auto count = static_cast<std::size_t>(std::popcount(value_ends));
    const bool row_ends = count >= left;
    for (; count > left; --count) value_ends ^= std::uint64_t{1} << (63 - std::countl_zero(value_ends));
    // The block's bytes 1..last hold whole values, each followed by its separator; check their spelling at once.
    const auto last = static_cast<unsigned>(63 - std::countl_zero(value_ends));
    const std::uint64_t region = (std::uint64_t{2} << last) - 2;
    // (Two separators in a row need no test: the empty value between them has no digits, which read_values
    // refuses.)
    if (((sep | m.valid) & region) != region ||                                       // a byte no value holds
        static_cast<std::size_t>(std::popcount(m.point & region)) != count ||         // not one point a value
        (m.nl & region) != (row_ends ? std::uint64_t{1} << last : std::uint64_t{0}))  // '\n' before the last value
      return nullptr;
    const auto off = static_cast<std::int32_t>(p - base);
    std::size_t i = listed;
    for (std::uint64_t e = value_ends; e != 0; e &= e - 1) ends[++i] = off + std::countr_zero(e);
    i = listed;
    for (std::uint64_t q = m.point & region; q != 0; q &= q - 1) points[i++] = off + std::countr_zero(q);
    listed += count;
    if (row_ends) return read_values(base, ends, points, listed, out) ? p + last : nullptr;
    left -= count;
    p += last;
    if (listed >= kQueue) {
      if (!read_values(base, ends, points, listed, out)) return nullptr;
      out += listed;
      base = p;
      listed = 0;
    }
  }
}
