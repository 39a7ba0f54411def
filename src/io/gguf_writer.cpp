// The GGUF writer (see gguf_writer.hpp). Value types as GGUF numbers them: 4 u32, 5 i32, 6 f32, 7 bool,
// 8 string, 9 array.
#include "io/gguf_writer.hpp"

#include <fmt/format.h>

#include "lumen/core/atomic_file.hpp"
#include "lumen/core/error.hpp"

namespace lumen::io {

namespace {

enum : std::uint32_t { kValueU32 = 4, kValueI32 = 5, kValueF32 = 6, kValueBool = 7, kValueString = 8, kValueArray = 9 };

template <class T>
void put(std::string& s, T v) {  // little-endian, as GGUF stores every number (x86-64 and arm64 alike)
  s.append(reinterpret_cast<const char*>(&v), sizeof v);  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast)
}

void put_string(std::string& s, const std::string& v) {
  put<std::uint64_t>(s, v.size());
  s += v;
}

std::uint64_t aligned(std::uint64_t n, std::uint64_t a) { return (n + a - 1) / a * a; }

}  // namespace

void GgufWriter::add_u32(const std::string& key, std::uint32_t v) {
  put_string(kv_, key);
  put(kv_, kValueU32);
  put(kv_, v);
  ++kv_count_;
}

void GgufWriter::add_i32(const std::string& key, std::int32_t v) {
  put_string(kv_, key);
  put(kv_, kValueI32);
  put(kv_, v);
  ++kv_count_;
}

void GgufWriter::add_f32(const std::string& key, float v) {
  put_string(kv_, key);
  put(kv_, kValueF32);
  put(kv_, v);
  ++kv_count_;
}

void GgufWriter::add_bool(const std::string& key, bool v) {
  put_string(kv_, key);
  put(kv_, kValueBool);
  put<std::uint8_t>(kv_, v ? 1 : 0);
  ++kv_count_;
}

void GgufWriter::add_string(const std::string& key, const std::string& v) {
  put_string(kv_, key);
  put(kv_, kValueString);
  put_string(kv_, v);
  ++kv_count_;
}

void GgufWriter::add_strings(const std::string& key, const std::vector<std::string>& v) {
  put_string(kv_, key);
  put(kv_, kValueArray);
  put(kv_, kValueString);
  put<std::uint64_t>(kv_, v.size());
  for (const auto& s : v) put_string(kv_, s);
  ++kv_count_;
}

void GgufWriter::add_i32s(const std::string& key, const std::vector<std::int32_t>& v) {
  put_string(kv_, key);
  put(kv_, kValueArray);
  put(kv_, kValueI32);
  put<std::uint64_t>(kv_, v.size());
  for (auto x : v) put(kv_, x);
  ++kv_count_;
}

void GgufWriter::add_tensor(const std::string& name, std::vector<std::uint64_t> ne, GgmlType type, Fill fill) {
  for (const auto& t : tensors_)
    if (t.name == name) throw UsageError(fmt::format("GGUF tensor '{}' is added twice", name));
  if (type.block != 1) throw UsageError(fmt::format("lumen writes F32 and F16 GGUF tensors, not {}", type.name));
  std::uint64_t n = 1;
  for (auto k : ne) n *= k;
  tensors_.push_back({name, std::move(ne), type, std::move(fill), n * type.block_bytes});
}

void GgufWriter::write(const std::string& path) const {
  std::string head = "GGUF";
  put<std::uint32_t>(head, 3);
  put<std::uint64_t>(head, tensors_.size());
  put<std::uint64_t>(head, kv_count_);
  head += kv_;
  std::uint64_t offset = 0;
  for (const auto& t : tensors_) {
    put_string(head, t.name);
    put<std::uint32_t>(head, static_cast<std::uint32_t>(t.ne.size()));
    for (auto k : t.ne) put(head, k);
    put(head, t.type.id);
    put(head, offset);
    offset = aligned(offset + t.bytes, alignment);
  }
  head.resize(aligned(head.size(), alignment), '\0');

  AtomicFile out(path);
  out.write(head);
  const std::string zeros(alignment, '\0');
  for (const auto& t : tensors_) {
    std::uint64_t written = 0;
    t.fill([&](const void* data, std::size_t n) {
      out.write(data, n);
      written += n;
    });
    if (written != t.bytes)
      throw InputError(fmt::format("{}: tensor '{}' got {} bytes of data; its shape and type need {}", path, t.name,
                                   written, t.bytes));
    out.write(zeros.data(), aligned(t.bytes, alignment) - t.bytes);
  }
  out.commit();
}

}  // namespace lumen::io
