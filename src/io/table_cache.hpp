#pragma once
// The conversion cache (--cache DIR / LUMEN_CACHE): a text table, once parsed, kept as a mapped binary beside a
// fingerprint of its source, so that later opens map it instead of parsing. An entry that is stale (the source
// changed), damaged or of another version is rebuilt, never trusted.
//
// The directory may be shared, so nothing in it is trusted by name: a directory that is a symlink, owned by
// someone else, or writable by others without the sticky bit is not used at all; an entry that is not a regular
// file of ours (a symlink, a FIFO) is never opened but rebuilt, and entries are written beside their name and
// renamed onto it, never through it.
#include <cstdint>
#include <optional>
#include <string>

#include "io/mapped_file.hpp"
#include "lumen/core/table.hpp"
#include "lumen/io/open.hpp"

namespace lumen::io::detail {

// The source as it was parsed. A change to its bytes changes its mtime and ctime (ctime cannot be set back by
// hand) or its inode (a file replaced by rename); the hash of its first 64 KB catches a change on a file system
// whose times are coarse.
struct Fingerprint {
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::int64_t ctime_ns = 0;
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::uint64_t head_hash = 0;
  bool operator==(const Fingerprint&) const = default;
};

Fingerprint fingerprint(const MappedFile& source);

// Makes the cache directory if it does not exist (mode 0700) and checks that it is safe to read entries from and
// write them into: a directory, not a symlink, owned by this user, and not writable by group or others unless
// sticky. Throws IoError saying which it is not.
void prepare_cache_dir(const std::string& cache_dir);

// The entry's path for this source and the options that change what a read gives (format, dtype, limit,
// unicode errors).
std::string cache_entry_path(const std::string& cache_dir, const std::string& source_path, Format format,
                             const OpenOptions& options);

// The table the entry holds (E borrowed from its map), if it is a regular file of this user's, complete, undamaged
// (its words and E match their checksums) and made from a source with this fingerprint; nullopt otherwise
// (missing, stale, damaged or not a file of ours: the caller parses and rewrites it). Fills `report` as the
// original read did. `threads` check E's checksum.
std::optional<Table> read_cache_entry(const std::string& entry_path, const Fingerprint& fp, LoadReport& report,
                                      std::size_t threads);

// Writes the entry beside its name and renames it onto the name (AtomicFile::Target::replace_name). Throws
// IoError when it cannot be written.
void write_cache_entry(const std::string& entry_path, const Fingerprint& fp, const Table& t, const LoadReport& report,
                       std::size_t threads);

}  // namespace lumen::io::detail
