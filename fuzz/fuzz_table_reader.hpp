#pragma once
// The body every table-reader fuzz target shares: read the input as a table of one format (nullopt: the detected
// one), cycling through the --unicode-errors modes; it must load consistently or be refused with an InputError.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "lumen/core/error.hpp"
#include "lumen/io/open.hpp"

inline int fuzz_table_reader(const std::uint8_t* data, std::size_t size, std::optional<lumen::io::Format> format) {
  lumen::io::OpenOptions o;
  o.format = format;
  o.threads = 1;
  o.unicode_errors = size % 3 == 0   ? lumen::io::UnicodeErrors::strict
                     : size % 3 == 1 ? lumen::io::UnicodeErrors::replace
                                     : lumen::io::UnicodeErrors::ignore;
  lumen::io::LoadReport report;
  try {
    const lumen::Table t = lumen::io::open_table_bytes(std::string_view(reinterpret_cast<const char*>(data), size),
                                                       "fuzz-input", o, report);
    // A table that loads is consistent: one token per row, every row readable.
    if (t.vocab.size() != t.V() || t.V() + report.duplicates != report.rows_read) {
      std::fprintf(stderr, "inconsistent table: %zu tokens, %zu rows, %zu read, %zu duplicates\n", t.vocab.size(),
                   t.V(), report.rows_read, report.duplicates);
      std::abort();
    }
    float sum = 0;
    for (std::size_t r = 0; r < t.V(); ++r)
      for (std::size_t c = 0; c < t.d(); ++c) sum += t.E.at(r, c);
    (void)sum;
  } catch (const lumen::InputError&) {
    // refused with a message (ParseError, IoError, ...): fine; anything else escaping is a bug
  }
  return 0;
}
