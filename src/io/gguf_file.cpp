#include "io/gguf_file.hpp"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <unordered_set>

#include "io/byte_cursor.hpp"
#include "lumen/core/error.hpp"

namespace lumen::io {

namespace {

constexpr std::uint32_t kString = 8, kArray = 9;
constexpr int kMaxNesting = 8;         // arrays of arrays: deeper is refused, never recursed into without bound
constexpr std::uint32_t kMaxDims = 4;  // GGML_MAX_DIMS

// Bytes a scalar of GGUF value type `t` takes; 0 for string, array or an unknown type.
std::size_t scalar_bytes(std::uint32_t t) {
  switch (t) {
    case 0:
    case 1:
    case 7: return 1;
    case 2:
    case 3: return 2;
    case 4:
    case 5:
    case 6: return 4;
    case 10:
    case 11:
    case 12: return 8;
    default: return 0;
  }
}

GgufValue read_value(ByteCursor& c, std::uint32_t type, std::string_view key, int depth);

GgufValue read_scalar(ByteCursor& c, std::uint32_t type, std::string_view key) {
  GgufValue v;
  v.type = type;
  v.offset = c.pos;
  const std::string what = fmt::format("metadata '{}'", key);
  switch (type) {
    case 0: v.value = std::uint64_t{c.get<std::uint8_t>(what)}; break;
    case 2: v.value = std::uint64_t{c.get<std::uint16_t>(what)}; break;
    case 4: v.value = std::uint64_t{c.get<std::uint32_t>(what)}; break;
    case 10: v.value = c.get<std::uint64_t>(what); break;
    case 1: v.value = std::int64_t{c.get<std::int8_t>(what)}; break;
    case 3: v.value = std::int64_t{c.get<std::int16_t>(what)}; break;
    case 5: v.value = std::int64_t{c.get<std::int32_t>(what)}; break;
    case 11: v.value = c.get<std::int64_t>(what); break;
    case 6: v.value = static_cast<double>(c.get<float>(what)); break;
    case 12: v.value = c.get<double>(what); break;
    case 7: {
      const auto b = c.get<std::uint8_t>(what);
      if (b > 1) c.fail(v.offset, fmt::format("{}: a bool of value {}; expected 0 or 1", what, b));
      v.value = b == 1;
      break;
    }
    case kString: v.value = c.string64(what); break;
    default: c.fail(v.offset, fmt::format("{}: unknown value type {}", what, type));
  }
  return v;
}

GgufValue read_value(ByteCursor& c, std::uint32_t type, std::string_view key, int depth) {
  if (type != kArray) return read_scalar(c, type, key);
  GgufValue v;
  v.type = kArray;
  v.offset = c.pos;
  const std::string what = fmt::format("metadata '{}'", key);
  if (depth >= kMaxNesting) c.fail(v.offset, fmt::format("{}: arrays nested deeper than {}", what, kMaxNesting));
  v.element_type = c.get<std::uint32_t>(what);
  const std::uint64_t count = c.get<std::uint64_t>(what);
  // Every element takes at least one byte (a string at least its 8-byte length): a count the rest of the file
  // cannot hold is refused before anything is allocated.
  const std::uint64_t least = v.element_type == kString || v.element_type == kArray ? 8 : scalar_bytes(v.element_type);
  if (least == 0) c.fail(v.offset, fmt::format("{}: unknown array element type {}", what, v.element_type));
  if (count > c.left() / least)
    c.fail(v.offset, fmt::format("{}: an array of {} elements, more than the {} bytes left in the file hold", what,
                                 count, c.left()));
  std::vector<GgufValue> items;
  items.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i) items.push_back(read_value(c, v.element_type, key, depth + 1));
  v.value = std::move(items);
  return v;
}

std::uint64_t align_up(std::uint64_t x, std::uint64_t a) { return (x + a - 1) / a * a; }

}  // namespace

const GgufValue* GgufFile::find(std::string_view key) const {
  for (const auto& e : metadata)
    if (e.key == key) return &e.value;
  return nullptr;
}

const GgufTensor* GgufFile::tensor(std::string_view name) const {
  for (const auto& t : tensors)
    if (t.name == name) return &t;
  return nullptr;
}

GgufFile parse_gguf(std::shared_ptr<const MappedFile> file) {
  ByteCursor c{file->data(), file->size(), 0, file->path()};
  GgufFile out;
  out.file = file;
  c.need(4, "the magic \"GGUF\"");
  if (std::memcmp(file->data(), "GGUF", 4) != 0) c.fail(0, "expected the magic \"GGUF\" (not a GGUF file)");
  c.pos = 4;
  out.version = c.get<std::uint32_t>("the version");
  if (out.version == 1) c.fail(4, "GGUF version 1 is not supported (lumen reads versions 2 and 3, as llama.cpp)");
  if (out.version != 2 && out.version != 3) {
    const bool swapped = (out.version & 0xFFFF) == 0 && out.version != 0;
    c.fail(4, fmt::format("GGUF version {}{}; expected 2 or 3", out.version,
                          swapped ? " (a big-endian file: lumen reads little-endian GGUF)" : ""));
  }
  const std::uint64_t n_tensors = c.get<std::uint64_t>("the tensor count");
  const std::uint64_t n_kv = c.get<std::uint64_t>("the metadata count");
  // Each key/value takes at least 8 + 4 bytes, each tensor info at least 8 + 4 + 4 + 8.
  if (n_kv > c.left() / 12)
    c.fail(16, fmt::format("{} metadata entries, more than the {} bytes left in the file hold", n_kv, c.left()));

  std::unordered_set<std::string> keys;
  for (std::uint64_t i = 0; i < n_kv; ++i) {
    const std::uint64_t at = c.pos;
    GgufEntry e;
    e.key = c.string64("a metadata key");
    if (!keys.insert(e.key).second) c.fail(at, fmt::format("metadata key '{}' is repeated", e.key));
    const std::uint32_t type = c.get<std::uint32_t>(fmt::format("metadata '{}'", e.key));
    e.value = read_value(c, type, e.key, 0);
    out.metadata.push_back(std::move(e));
  }
  if (const GgufValue* a = out.find("general.alignment")) {
    if (a->type != 4) c.fail(a->offset, "general.alignment: expected a u32");
    out.alignment = std::get<std::uint64_t>(a->value);
    if (out.alignment == 0 || (out.alignment & (out.alignment - 1)) != 0)
      c.fail(a->offset, fmt::format("general.alignment {} is not a power of 2", out.alignment));
  }

  if (n_tensors > c.left() / 24)
    c.fail(8, fmt::format("{} tensors, more than the {} bytes left in the file hold", n_tensors, c.left()));
  std::unordered_set<std::string> names;
  std::vector<std::uint64_t> offsets;
  for (std::uint64_t i = 0; i < n_tensors; ++i) {
    GgufTensor t;
    t.info_offset = c.pos;
    t.name = c.string64("a tensor name");
    if (!names.insert(t.name).second) c.fail(t.info_offset, fmt::format("tensor '{}' is repeated", t.name));
    const std::string what = fmt::format("tensor '{}'", t.name);
    const std::uint32_t n_dims = c.get<std::uint32_t>(what);
    if (n_dims == 0 || n_dims > kMaxDims)
      c.fail(t.info_offset, fmt::format("{}: {} dimensions; expected 1 to {}", what, n_dims, kMaxDims));
    std::uint64_t elems = 1;
    for (std::uint32_t k = 0; k < n_dims; ++k) {
      const std::uint64_t n = c.get<std::uint64_t>(what);
      if (n != 0 && elems > UINT64_MAX / n)
        c.fail(t.info_offset, fmt::format("{}: the dimensions' product overflows 64 bits", what));
      elems *= n;
      t.ne.push_back(n);
    }
    const std::uint64_t type_at = c.pos;
    const std::uint32_t type = c.get<std::uint32_t>(what);
    const auto known = ggml_type(type);
    if (!known) c.fail(type_at, fmt::format("{}: unknown ggml type {}", what, type));
    t.type = *known;
    if (t.ne[0] % t.type.block != 0)
      c.fail(t.info_offset, fmt::format("{}: {} elements per row, not a multiple of {}'s block of {}", what, t.ne[0],
                                        t.type.name, t.type.block));
    const std::uint64_t blocks = elems / t.type.block;
    if (blocks > UINT64_MAX / t.type.block_bytes)
      c.fail(t.info_offset, fmt::format("{}: its size in bytes overflows 64 bits", what));
    const std::uint64_t off_at = c.pos;
    const std::uint64_t offset = c.get<std::uint64_t>(what);
    if (offset % out.alignment != 0)
      c.fail(off_at,
             fmt::format("{}: data offset {} is not a multiple of the alignment {}", what, offset, out.alignment));
    t.begin = offset;                     // relative until the data's start is known
    t.end = blocks * t.type.block_bytes;  // its size, for now
    offsets.push_back(off_at);
    out.tensors.push_back(std::move(t));
  }
  const std::uint64_t data_begin = align_up(c.pos, out.alignment);
  const std::uint64_t size = file->size();
  if (data_begin > size && !out.tensors.empty())
    c.fail(c.pos, fmt::format("truncated: the tensor data starts at byte {}, past the end of the {}-byte file",
                              data_begin, size));
  for (std::size_t i = 0; i < out.tensors.size(); ++i) {
    GgufTensor& t = out.tensors[i];
    const std::uint64_t bytes = t.end;
    if (t.begin > size || data_begin > size - t.begin || bytes > size - data_begin - t.begin)
      c.fail(offsets[i], fmt::format("tensor '{}': {} bytes at data offset {} run past the end of the file ({} "
                                     "bytes, data from byte {})",
                                     t.name, bytes, t.begin, size, data_begin));
    t.begin += data_begin;
    t.end = t.begin + bytes;
  }
  std::vector<std::size_t> order(out.tensors.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return out.tensors[a].begin < out.tensors[b].begin; });
  for (std::size_t i = 1; i < order.size(); ++i) {
    const GgufTensor& prev = out.tensors[order[i - 1]];
    const GgufTensor& t = out.tensors[order[i]];
    if (t.begin < prev.end)
      c.fail(offsets[order[i]], fmt::format("tensor '{}' (bytes {}..{}) overlaps tensor '{}' (bytes {}..{})", t.name,
                                            t.begin, t.end, prev.name, prev.begin, prev.end));
  }
  return out;
}

}  // namespace lumen::io
