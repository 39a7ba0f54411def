#pragma once
// A safetensors file of F32 2-D tensors (name, rows, cols, values), written by hand as the format says: an 8-byte
// little-endian header length, the JSON header, the data. Header-only (nlohmann/json), for every test binary.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

namespace lumen::test {

using F32Tensor = std::tuple<std::string, std::size_t, std::size_t, std::vector<float>>;

inline void write_safetensors(const std::filesystem::path& path, const std::vector<F32Tensor>& ts) {
  nlohmann::json header = nlohmann::json::object();
  std::size_t offset = 0;
  for (const auto& [name, rows, cols, values] : ts) {
    header[name] = {{"dtype", "F32"}, {"shape", {rows, cols}}, {"data_offsets", {offset, offset + 4 * values.size()}}};
    offset += 4 * values.size();
  }
  const std::string h = header.dump();
  std::ofstream out(path, std::ios::binary);
  const std::uint64_t n = h.size();
  for (int i = 0; i < 8; ++i) out.put(static_cast<char>((n >> (8 * i)) & 0xff));
  out << h;
  for (const auto& t : ts) {
    const auto& values = std::get<3>(t);
    out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(4 * values.size()));
  }
}

}  // namespace lumen::test
