// The conversion cache's entries. One file per (source, options):
//   "LUMEN-TABLE-CACHE 1\n" magic (20 bytes), then little-endian u64 fields:
//   source size, source mtime (ns), source head hash, V, d, dtype, rows_read, duplicates, repaired tokens,
//   bytes of words, bytes of the first duplicate, a checksum (hash64 below over the header before it, the words
//   and the first duplicate); then the words (each a u32 length and its bytes), the first duplicate's bytes, zero
//   padding to 64 bytes, and E (V,d) row-major in its dtype, borrowed from the map. The checksum covers what is
//   parsed; E's bytes are checked by size only (hashing them would cost what the cache saves).
#include "io/table_cache.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>

#include "lumen/core/atomic_file.hpp"
#include "lumen/core/error.hpp"

namespace lumen::io::detail {

namespace {

constexpr std::string_view kMagic = "LUMEN-TABLE-CACHE 2\n";  // 1: FNV-1a checksums (rebuilt when met)
constexpr std::size_t kFields = 12;
constexpr std::size_t kHeaderBytes = 20 + kFields * 8;
constexpr std::size_t kHeadBytes = std::size_t{64} * 1024;

// A checksum at memory speed, 32 bytes a step in four independent lanes (FNV-1a, a byte a step, cost a 50,000-word
// vocabulary about a millisecond: most of a cached open). Detects damage and change, not forgery; chained through
// `h` over several pieces.
std::uint64_t hash64(const void* data, std::size_t n, std::uint64_t h = 0xcbf29ce484222325ull) {
  const auto* p = static_cast<const unsigned char*>(data);
  constexpr std::uint64_t k1 = 0x9e3779b97f4a7c15ull, k2 = 0xbf58476d1ce4e5b9ull;
  std::uint64_t lane[4] = {h ^ n, h + k1, h ^ k2, h - k1};
  const auto step = [&](std::uint64_t& l, std::uint64_t w) {
    l = (l ^ w) * k2;
    l ^= l >> 31;
  };
  for (; n >= 32; n -= 32, p += 32)
    for (std::size_t i = 0; i < 4; ++i) {
      std::uint64_t w = 0;
      std::memcpy(&w, p + 8 * i, 8);
      step(lane[i], w);
    }
  for (std::size_t i = 0; n != 0; i = (i + 1) % 4) {
    std::uint64_t w = 0;
    const std::size_t take = std::min<std::size_t>(n, 8);
    std::memcpy(&w, p, take);
    step(lane[i], w ^ (static_cast<std::uint64_t>(take) << 56));
    p += take;
    n -= take;
  }
  std::uint64_t out = lane[0];
  for (int i = 1; i < 4; ++i) out = (out ^ (lane[i] + k1 * static_cast<std::uint64_t>(i))) * k2, out ^= out >> 29;
  return out;
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

Fingerprint fingerprint(const MappedFile& source, std::int64_t mtime_ns) {
  return {source.size(), mtime_ns, hash64(source.data(), std::min(source.size(), kHeadBytes))};
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

std::optional<Table> read_cache_entry(const std::string& entry_path, const Fingerprint& fp, LoadReport& report) {
  std::shared_ptr<const MappedFile> file;
  try {
    file = MappedFile::open(entry_path);
  } catch (const IoError&) {
    return std::nullopt;  // no entry (or not a regular file): parse
  }
  const char* b = file->data();
  const std::size_t size = file->size();
  if (size < kHeaderBytes || std::string_view(b, kMagic.size()) != kMagic) return std::nullopt;
  std::array<std::uint64_t, kFields> f{};
  for (std::size_t i = 0; i < kFields; ++i) f[i] = get_u64(b + kMagic.size() + 8 * i);
  const Fingerprint stored{f[0], static_cast<std::int64_t>(f[1]), f[2]};
  if (!(stored == fp)) return std::nullopt;  // the source changed since: stale
  const std::uint64_t V = f[3], d = f[4], dt = f[5], words_bytes = f[9], dup_bytes = f[10];
  if (dt > static_cast<std::uint64_t>(DType::bf16) || V == 0 || d == 0) return std::nullopt;
  const DType dtype = static_cast<DType>(dt);
  const std::uint64_t after = size - kHeaderBytes;
  if (words_bytes > after || dup_bytes > after - words_bytes) return std::nullopt;
  const std::size_t data_at = padded(kHeaderBytes + words_bytes + dup_bytes);
  if (d > UINT64_MAX / dtype_size(dtype) / V || data_at > size || size - data_at != V * d * dtype_size(dtype))
    return std::nullopt;  // truncated or padded: damaged
  const char* const words_at = b + kHeaderBytes;
  if (hash64(words_at + words_bytes, dup_bytes, hash64(words_at, words_bytes, hash64(b, kHeaderBytes - 8))) != f[11])
    return std::nullopt;  // the same chain as write_cache_entry: header, words, first duplicate
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
  report.rows_read = static_cast<std::size_t>(f[6]);
  report.duplicates = static_cast<std::size_t>(f[7]);
  report.repaired_tokens = static_cast<std::size_t>(f[8]);
  report.first_duplicate.assign(we, static_cast<std::size_t>(dup_bytes));
  t.E = Matrix::borrow(b + data_at, static_cast<std::size_t>(V), static_cast<std::size_t>(d), dtype, file);
  report.mapped = true;
  return t;
}

void write_cache_entry(const std::string& entry_path, const Fingerprint& fp, const Table& t, const LoadReport& report) {
  const std::filesystem::path dir = std::filesystem::path(entry_path).parent_path();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw IoError(fmt::format("cannot create cache directory {}: {}", dir.string(), ec.message()));
  std::string words;
  for (const auto& tok : t.vocab.tokens()) {
    const auto len = static_cast<std::uint32_t>(tok.size());
    words.append(reinterpret_cast<const char*>(&len), 4);
    words += tok;
  }
  std::string head(kMagic);
  for (std::uint64_t v :
       {fp.size, static_cast<std::uint64_t>(fp.mtime_ns), fp.head_hash, static_cast<std::uint64_t>(t.V()),
        static_cast<std::uint64_t>(t.d()), static_cast<std::uint64_t>(t.E.dtype()),
        static_cast<std::uint64_t>(report.rows_read), static_cast<std::uint64_t>(report.duplicates),
        static_cast<std::uint64_t>(report.repaired_tokens), static_cast<std::uint64_t>(words.size()),
        static_cast<std::uint64_t>(report.first_duplicate.size())})
    put_u64(head, v);
  std::uint64_t sum = hash64(head.data(), head.size());
  sum = hash64(words.data(), words.size(), sum);
  sum = hash64(report.first_duplicate.data(), report.first_duplicate.size(), sum);
  put_u64(head, sum);
  AtomicFile out(entry_path);
  out.write(head);
  out.write(words);
  out.write(report.first_duplicate);
  const std::size_t used = head.size() + words.size() + report.first_duplicate.size();
  out.write(std::string(padded(used) - used, '\0'));
  out.write(t.E.data(), t.E.bytes());
  out.commit();
}

}  // namespace lumen::io::detail
