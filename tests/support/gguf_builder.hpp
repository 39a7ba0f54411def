#pragma once
// Writes GGUF bytes for the tests: metadata, tensor infos and data laid out as the format says, with hooks to
// break each part (the tests then check that the reader refuses it where it is broken).
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace lumen::test {

class GgufBuilder {
 public:
  struct Tensor {
    std::string name;
    std::vector<std::uint64_t> ne;
    std::uint32_t type;
    std::string data;                   // the tensor's bytes
    std::uint64_t offset = UINT64_MAX;  // UINT64_MAX: placed after the previous one, aligned
  };

  std::uint32_t version = 3;
  std::uint64_t alignment = 32;
  std::vector<std::string> kv;  // each a whole key/value, from the helpers below
  std::vector<Tensor> tensors;

  static void put(std::string& s, const void* p, std::size_t n) { s.append(static_cast<const char*>(p), n); }
  template <class T>
  static void put(std::string& s, T v) {
    put(s, &v, sizeof v);
  }
  static void put_string(std::string& s, const std::string& v) {
    put<std::uint64_t>(s, v.size());
    s += v;
  }
  void add_u32(const std::string& key, std::uint32_t v) {
    std::string s;
    put_string(s, key);
    put<std::uint32_t>(s, 4);
    put(s, v);
    kv.push_back(s);
  }
  void add_string(const std::string& key, const std::string& v) {
    std::string s;
    put_string(s, key);
    put<std::uint32_t>(s, 8);
    put_string(s, v);
    kv.push_back(s);
  }
  void add_strings(const std::string& key, const std::vector<std::string>& vs) {
    std::string s;
    put_string(s, key);
    put<std::uint32_t>(s, 9);
    put<std::uint32_t>(s, 8);
    put<std::uint64_t>(s, vs.size());
    for (const auto& v : vs) put_string(s, v);
    kv.push_back(s);
  }

  std::string bytes() const {
    std::string s = "GGUF";
    put(s, version);
    put<std::uint64_t>(s, tensors.size());
    put<std::uint64_t>(s, kv.size());
    for (const auto& e : kv) s += e;
    std::uint64_t next = 0;
    std::vector<std::uint64_t> offsets;
    for (const auto& t : tensors) {
      const std::uint64_t off = t.offset != UINT64_MAX ? t.offset : next;
      offsets.push_back(off);
      next = (off + t.data.size() + alignment - 1) / alignment * alignment;
      put_string(s, t.name);
      put<std::uint32_t>(s, static_cast<std::uint32_t>(t.ne.size()));
      for (auto n : t.ne) put(s, n);
      put(s, t.type);
      put(s, off);
    }
    s.resize((s.size() + alignment - 1) / alignment * alignment, '\0');
    const std::size_t data_begin = s.size();
    for (std::size_t i = 0; i < tensors.size(); ++i) {
      const std::size_t at = data_begin + offsets[i];
      if (s.size() < at + tensors[i].data.size()) s.resize(at + tensors[i].data.size(), '\0');
      std::memcpy(s.data() + at, tensors[i].data.data(), tensors[i].data.size());
    }
    return s;
  }
};

}  // namespace lumen::test
