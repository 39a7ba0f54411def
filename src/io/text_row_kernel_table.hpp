#pragma once
// The text reader's row-value scanners one ISA provides (text_row_kernels_<isa>.cpp define one each). Files compiled
// with ISA flags include only this header and intrinsics (see lumen/core/kernel_table.hpp).
//
// scan_values(p, tend, dim, out): `p` is the space before a row's first value; `tend` a '\n' or the end of the
// text, which the row cannot pass (kRowScanPadding bytes must be readable after it). Reads the row's dim values
// into out and returns the row's '\n', or nullptr where the row is not of the common spelling (out then holds
// anything): single spaces between values, each "-d.d" (an optional '-', 1-7 digits, '.', 1-7 digits), a '\n'
// right after the last. The values are parse_float_common's (io/parse_float_fast.hpp), bit for bit, and every
// variant takes and refuses the same rows (tests/io/test_text_row_kernels.cpp); a refused row is read by the
// reader's general scanner.
#include <cstddef>
#include <cstdint>

namespace lumen::io::text_row_kernels {

// Bytes readable past the end of the text a row is scanned in (a 64-byte block loaded at tend, then eight bytes
// loaded at a value's digits).
inline constexpr std::size_t kRowScanPadding = 64 + 16;

// What the SIMD variants see in a block of 64 bytes (text_row_kernels_simd.hpp): bit i is byte i's.
struct BlockMasks {
  std::uint64_t nl = 0;     // '\n'
  std::uint64_t sep = 0;    // ' ' or '\n'
  std::uint64_t point = 0;  // '.'
  std::uint64_t valid = 0;  // a byte a value may hold: a digit, a '.', or a '-' right after a separator
};

struct Table {
  const char* (*scan_values)(const char* p, const char* tend, std::size_t dim, float* out);
};

extern const Table kGeneric;
extern const Table kAvx2;
extern const Table kAvx512;

}  // namespace lumen::io::text_row_kernels
