#pragma once
// The conversion cache (--cache DIR / LUMEN_CACHE): a text table, once parsed, kept as a mapped binary beside a
// fingerprint of its source (size, mtime, a hash of its first 64 KB), so that later opens map it instead of
// parsing. An entry that is stale (the source changed), damaged or of another version is rebuilt, never trusted.
#include <cstdint>
#include <optional>
#include <string>

#include "io/mapped_file.hpp"
#include "lumen/core/table.hpp"
#include "lumen/io/open.hpp"

namespace lumen::io::detail {

struct Fingerprint {
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::uint64_t head_hash = 0;  // hash64 (table_cache.cpp) of the first 64 KB
  bool operator==(const Fingerprint&) const = default;
};

Fingerprint fingerprint(const MappedFile& source, std::int64_t mtime_ns);

// The entry's path for this source and the options that change what a read gives (format, dtype, limit,
// unicode errors).
std::string cache_entry_path(const std::string& cache_dir, const std::string& source_path, Format format,
                             const OpenOptions& options);

// The table the entry holds (E borrowed from its map), if it is complete, undamaged and made from a source with
// this fingerprint; nullopt otherwise (missing, stale or damaged: the caller parses and rewrites it).
// Fills `report` as the original read did.
std::optional<Table> read_cache_entry(const std::string& entry_path, const Fingerprint& fp, LoadReport& report);

// Writes the entry atomically (temporary file, fsync, rename). Throws IoError when the directory cannot be
// created or written.
void write_cache_entry(const std::string& entry_path, const Fingerprint& fp, const Table& t, const LoadReport& report);

}  // namespace lumen::io::detail
