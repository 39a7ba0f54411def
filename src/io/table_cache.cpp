// The conversion cache's entries. One file per (source, options):
//   "LUMEN-TABLE-CACHE 3\n" magic (20 bytes), then little-endian u64 fields:
//   the source's size, mtime (ns), ctime (ns), device, inode and head hash; V, d, dtype, rows_read, duplicates,
//   repaired tokens, bytes of words, bytes of the first duplicate; E's checksum; and a checksum over the header
//   before it, the words and the first duplicate. Then the words (each a u32 length and its bytes), the first
//   duplicate's bytes, zero padding to 64 bytes, and E (V,d) row-major in its dtype, borrowed from the map.
// Checksums are XXH3 (xxHash): E's is taken over 4 MB chunks in parallel and then over the chunks' hashes, a few
// ms for a 60 MB table, so that a damaged E (zeroed bytes: every score 0) is rebuilt, never served.
#include "io/table_cache.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "lumen/core/atomic_file.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/threads.hpp"

namespace lumen::io::detail {

namespace {

constexpr std::string_view kMagic = "LUMEN-TABLE-CACHE 3\n";  // 1, 2: older checksums and fingerprints (rebuilt)
constexpr std::size_t kFields = 16;
constexpr std::size_t kHeaderBytes = 20 + kFields * 8;
constexpr std::size_t kHeadBytes = std::size_t{64} * 1024;
constexpr std::size_t kHashChunkBytes = std::size_t{4} << 20;

std::uint64_t hash64(const void* data, std::size_t n, std::uint64_t seed = 0) {
  return XXH3_64bits_withSeed(data, n, seed);
}

// E's checksum: the same for any thread count (the chunks do not depend on it).
std::uint64_t payload_hash(const char* data, std::size_t n, std::size_t threads) {
  std::vector<std::uint64_t> chunk((n + kHashChunkBytes - 1) / kHashChunkBytes);
  parallel_for(chunk.size(), threads, [&](std::size_t b, std::size_t e, std::size_t) {
    for (std::size_t i = b; i < e; ++i)
      chunk[i] = hash64(data + i * kHashChunkBytes, std::min(kHashChunkBytes, n - i * kHashChunkBytes));
  });
  return hash64(chunk.data(), chunk.size() * sizeof(std::uint64_t), n);
}

void put_u64(std::string& s, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::uint64_t get_u64(const char* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

std::size_t padded(std::size_t n) { return (n + 63) / 64 * 64; }

}  // namespace

Fingerprint fingerprint(const MappedFile& source) {
  const FileIdentity& id = source.identity();
  return {source.size(), id.mtime_ns, id.ctime_ns,
          id.device,     id.inode,    hash64(source.data(), std::min(source.size(), kHeadBytes))};
}

void prepare_cache_dir(const std::string& cache_dir) {
  std::string dir = cache_dir;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();  // "link/" would have lstat follow the link
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0) {
    if (errno != ENOENT) throw IoError(fmt::format("cannot use the cache directory {}: {}", dir, std::strerror(errno)));
    std::error_code ec;
    const std::filesystem::path parent = std::filesystem::path(dir).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    if (ec) throw IoError(fmt::format("cannot create cache directory {}: {}", dir, ec.message()));
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
      throw IoError(fmt::format("cannot create cache directory {}: {}", dir, std::strerror(errno)));
    if (::lstat(dir.c_str(), &st) != 0)
      throw IoError(fmt::format("cannot use the cache directory {}: {}", dir, std::strerror(errno)));
  }
  if (S_ISLNK(st.st_mode))
    throw IoError(
        fmt::format("the cache directory {} is a symlink, which lumen does not follow (whoever can change "
                    "the link could redirect what lumen writes): name the directory itself",
                    dir));
  if (!S_ISDIR(st.st_mode)) throw IoError(fmt::format("the cache directory {} is not a directory", dir));
  if (st.st_uid != ::geteuid())
    throw IoError(
        fmt::format("the cache directory {} belongs to uid {}, not to you (uid {}): use a directory of "
                    "your own",
                    dir, st.st_uid, ::geteuid()));
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0 && (st.st_mode & S_ISVTX) == 0)
    throw IoError(
        fmt::format("the cache directory {} is writable by {} (mode {:o}), who could plant entries in it: "
                    "`chmod go-w {}`, or use a directory of your own",
                    dir, (st.st_mode & S_IWOTH) != 0 ? "anyone" : "its group", st.st_mode & 07777, dir));
}

std::string cache_entry_path(const std::string& cache_dir, const std::string& source_path, Format format,
                             const OpenOptions& options) {
  std::error_code ec;
  const std::string abs = std::filesystem::absolute(source_path, ec).lexically_normal().string();
  const std::string key =
      fmt::format("{}\n{}\n{}\n{}\n{}", ec ? source_path : abs, format_name(format), dtype_name(options.dtype),
                  options.limit, static_cast<int>(options.unicode_errors));
  const std::string stem = std::filesystem::path(source_path).filename().string();
  return fmt::format("{}/{}.{:016x}.lumencache", cache_dir, stem.substr(0, 64), hash64(key.data(), key.size()));
}

std::optional<Table> read_cache_entry(const std::string& entry_path, const Fingerprint& fp, LoadReport& report,
                                      std::size_t threads) {
  // Only a regular file of this user's is opened: a symlink, FIFO or device planted under the entry's name is
  // never opened (a FIFO would wait for a writer, a device may act on open), but replaced by the rebuilt entry.
  struct stat st {};
  if (::lstat(entry_path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  std::shared_ptr<const MappedFile> file;
  try {
    file = MappedFile::open(entry_path, MappedFile::Symlinks::refuse);  // and if it was swapped since: refused
  } catch (const IoError&) {
    return std::nullopt;
  }
  if (file->identity().owner != ::geteuid()) return std::nullopt;
  const char* b = file->data();
  const std::size_t size = file->size();
  if (size < kHeaderBytes || std::string_view(b, kMagic.size()) != kMagic) return std::nullopt;
  std::array<std::uint64_t, kFields> f{};
  for (std::size_t i = 0; i < kFields; ++i) f[i] = get_u64(b + kMagic.size() + 8 * i);
  const Fingerprint stored{f[0], static_cast<std::int64_t>(f[1]), static_cast<std::int64_t>(f[2]), f[3], f[4], f[5]};
  if (!(stored == fp)) return std::nullopt;  // the source changed since: stale
  const std::uint64_t V = f[6], d = f[7], dt = f[8], words_bytes = f[12], dup_bytes = f[13];
  if (dt > static_cast<std::uint64_t>(DType::bf16) || V == 0 || d == 0) return std::nullopt;
  const DType dtype = static_cast<DType>(dt);
  const std::uint64_t after = size - kHeaderBytes;
  if (words_bytes > after || dup_bytes > after - words_bytes) return std::nullopt;
  const std::size_t data_at = padded(kHeaderBytes + words_bytes + dup_bytes);
  if (d > UINT64_MAX / dtype_size(dtype) / V || data_at > size || size - data_at != V * d * dtype_size(dtype))
    return std::nullopt;  // truncated or padded: damaged
  const char* const words_at = b + kHeaderBytes;
  if (hash64(words_at + words_bytes, dup_bytes, hash64(words_at, words_bytes, hash64(b, kHeaderBytes - 8))) != f[15])
    return std::nullopt;  // the same chain as write_cache_entry: header, words, first duplicate
  if (payload_hash(b + data_at, size - data_at, threads) != f[14]) return std::nullopt;  // E damaged
  Table t;
  std::vector<std::string> tokens;
  tokens.reserve(static_cast<std::size_t>(V));
  const char* w = b + kHeaderBytes;
  const char* const we = w + words_bytes;
  for (std::uint64_t i = 0; i < V; ++i) {
    if (we - w < 4) return std::nullopt;
    std::uint32_t len = 0;
    std::memcpy(&len, w, 4);
    w += 4;
    if (static_cast<std::size_t>(we - w) < len) return std::nullopt;
    tokens.emplace_back(w, len);
    w += len;
  }
  if (w != we) return std::nullopt;
  // The parse kept no duplicates and the checksum says these are its words: no hashing until the first lookup.
  t.vocab = Vocab::from_unique(std::move(tokens));
  report.rows_read = static_cast<std::size_t>(f[9]);
  report.duplicates = static_cast<std::size_t>(f[10]);
  report.repaired_tokens = static_cast<std::size_t>(f[11]);
  report.first_duplicate.assign(we, static_cast<std::size_t>(dup_bytes));
  t.E = Matrix::borrow(b + data_at, static_cast<std::size_t>(V), static_cast<std::size_t>(d), dtype, file);
  report.mapped = true;
  return t;
}

void write_cache_entry(const std::string& entry_path, const Fingerprint& fp, const Table& t, const LoadReport& report,
                       std::size_t threads) {
  std::string words;
  for (const auto& tok : t.vocab.tokens()) {
    const auto len = static_cast<std::uint32_t>(tok.size());
    words.append(reinterpret_cast<const char*>(&len), 4);
    words += tok;
  }
  std::string head(kMagic);
  for (std::uint64_t v :
       {fp.size, static_cast<std::uint64_t>(fp.mtime_ns), static_cast<std::uint64_t>(fp.ctime_ns), fp.device, fp.inode,
        fp.head_hash, static_cast<std::uint64_t>(t.V()), static_cast<std::uint64_t>(t.d()),
        static_cast<std::uint64_t>(t.E.dtype()), static_cast<std::uint64_t>(report.rows_read),
        static_cast<std::uint64_t>(report.duplicates), static_cast<std::uint64_t>(report.repaired_tokens),
        static_cast<std::uint64_t>(words.size()), static_cast<std::uint64_t>(report.first_duplicate.size()),
        payload_hash(reinterpret_cast<const char*>(t.E.data()), t.E.bytes(), threads)})
    put_u64(head, v);
  std::uint64_t sum = hash64(head.data(), head.size());
  sum = hash64(words.data(), words.size(), sum);
  sum = hash64(report.first_duplicate.data(), report.first_duplicate.size(), sum);
  put_u64(head, sum);
  AtomicFile out(entry_path, AtomicFile::Target::replace_name);
  out.write(head);
  out.write(words);
  out.write(report.first_duplicate);
  const std::size_t used = head.size() + words.size() + report.first_duplicate.size();
  out.write(std::string(padded(used) - used, '\0'));
  out.write(t.E.data(), t.E.bytes());
  out.commit();
}

}  // namespace lumen::io::detail
