// safetensors: an 8-byte little-endian header length N, N bytes of JSON {name: {dtype, shape, data_offsets}},
// then the byte buffer the offsets point into.
#include "io/safetensors_file.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "lumen/core/error.hpp"

namespace lumen::io {

std::size_t safetensors_dtype_bytes(const std::string& d) {
  if (d == "F64" || d == "I64" || d == "U64") return 8;
  if (d == "F32" || d == "I32" || d == "U32") return 4;
  if (d == "F16" || d == "BF16" || d == "I16" || d == "U16") return 2;
  if (d == "I8" || d == "U8" || d == "BOOL" || d == "F8_E4M3" || d == "F8_E5M2") return 1;
  return 0;
}

const SafetensorsTensor* SafetensorsFile::find(const std::string& want) const {
  for (const auto& t : tensors)
    if (t.name == want) return &t;
  return nullptr;
}

SafetensorsFile parse_safetensors(std::shared_ptr<const MappedFile> file) {
  const std::string& name = file->path();
  const char* const base = file->data();
  const std::uint64_t size = file->size();
  if (size < 8) throw ParseError(name, 0, 0, fmt::format("file of {} bytes; expected an 8-byte header length", size));
  std::uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(base[i]);
  if (n > size - 8)
    throw ParseError(
        name, 0, 0,
        fmt::format("header length {} exceeds the {} bytes after it; expected a safetensors file", n, size - 8));
  nlohmann::json header;
  try {
    header = nlohmann::json::parse(base + 8, base + 8 + n);
  } catch (const nlohmann::json::parse_error& e) {
    throw ParseError(name, 0, 8 + (e.byte > 0 ? e.byte - 1 : 0), fmt::format("invalid JSON header: {}", e.what()));
  } catch (const nlohmann::json::exception& e) {  // e.g. a number too large for a double (out_of_range 406)
    throw ParseError(name, 0, 8, fmt::format("invalid JSON header: {}", e.what()));
  }
  if (!header.is_object()) throw ParseError(name, 0, 8, "expected the JSON header to be an object");
  const std::uint64_t buffer = size - 8 - n;

  SafetensorsFile out;
  out.header_bytes = n;
  for (auto& item : header.items()) {
    const std::string& key = item.key();  // (a plain variable: lambdas may not capture structured bindings in C++20)
    auto& v = item.value();
    if (key == "__metadata__") {
      out.metadata = v.dump();
      continue;
    }
    const auto bad = [&](const std::string& what) {
      return ParseError(name, 0, 8, fmt::format("tensor '{}': {}", key, what));
    };
    if (!v.is_object() || !v.contains("dtype") || !v.contains("shape") || !v.contains("data_offsets"))
      throw bad("expected an object with dtype, shape and data_offsets");
    SafetensorsTensor t;
    t.name = key;
    if (!v["dtype"].is_string()) throw bad("expected dtype to be a string");
    t.dtype = v["dtype"].get<std::string>();
    const std::size_t esz = safetensors_dtype_bytes(t.dtype);
    if (esz == 0) throw bad(fmt::format("unknown dtype '{}'", t.dtype));
    if (!v["shape"].is_array()) throw bad("expected shape to be an array");
    std::uint64_t elems = 1;
    for (auto& s : v["shape"]) {
      if (!s.is_number_unsigned()) throw bad("expected shape entries to be non-negative integers");
      const auto k = s.get<std::uint64_t>();
      if (k != 0 && elems > UINT64_MAX / k) throw bad("shape product overflows");
      elems *= k;
      t.shape.push_back(k);
    }
    const auto& off = v["data_offsets"];
    if (!off.is_array() || off.size() != 2 || !off[0].is_number_unsigned() || !off[1].is_number_unsigned())
      throw bad("expected data_offsets to be [begin, end]");
    t.begin = off[0].get<std::uint64_t>();
    t.end = off[1].get<std::uint64_t>();
    if (t.begin > t.end || t.end > buffer)
      throw bad(fmt::format("data_offsets [{}, {}] outside the {}-byte buffer", t.begin, t.end, buffer));
    if (elems > UINT64_MAX / esz || elems * esz != t.end - t.begin)
      throw bad(fmt::format("data_offsets span {} bytes; shape and dtype {} need {}", t.end - t.begin, t.dtype,
                            elems > UINT64_MAX / esz ? std::string("more") : std::to_string(elems * esz)));
    out.tensors.push_back(std::move(t));
  }
  // Tensors may not overlap (the format forbids it; overlapping views would alias).
  std::vector<const SafetensorsTensor*> sorted;
  sorted.reserve(out.tensors.size());
  for (auto& t : out.tensors) sorted.push_back(&t);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->begin < b->begin; });
  for (std::size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i]->begin < sorted[i - 1]->end && sorted[i]->begin != sorted[i]->end &&
        sorted[i - 1]->begin != sorted[i - 1]->end)
      throw ParseError(
          name, 0, 8 + n + sorted[i]->begin,
          fmt::format("tensors '{}' and '{}' overlap in the buffer", sorted[i - 1]->name, sorted[i]->name));
  out.file = std::move(file);
  return out;
}

}  // namespace lumen::io
