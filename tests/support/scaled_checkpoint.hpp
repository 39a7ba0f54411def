#pragma once
// A copy of a checkpoint directory whose F32 weights are all multiplied by one factor: weights x 1e30 are finite
// (so the loader takes them) but overflow inside the first block. Header-only (nlohmann/json), for every test binary.
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace lumen::test {

inline void copy_scaled_checkpoint(const std::filesystem::path& from, const std::filesystem::path& to, float factor) {
  std::filesystem::create_directories(to);
  for (const auto& e : std::filesystem::directory_iterator(from))
    if (e.is_regular_file() && e.path().filename() != "model.safetensors")
      std::filesystem::copy_file(e.path(), to / e.path().filename(), std::filesystem::copy_options::overwrite_existing);
  std::ifstream in(from / "model.safetensors", std::ios::binary);
  std::string b{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::uint64_t n = 0;
  if (b.size() < 8) throw std::runtime_error("not a safetensors file: " + (from / "model.safetensors").string());
  std::memcpy(&n, b.data(), 8);  // little-endian, as the machines the tests run on
  const nlohmann::json header = nlohmann::json::parse(b.substr(8, n));
  for (const auto& [name, t] : header.items()) {
    if (name == "__metadata__" || t["dtype"] != "F32") continue;
    const std::size_t begin = 8 + n + t["data_offsets"][0].get<std::size_t>();
    const std::size_t end = 8 + n + t["data_offsets"][1].get<std::size_t>();
    for (std::size_t at = begin; at + 4 <= end; at += 4) {
      float v = 0;
      std::memcpy(&v, b.data() + at, 4);
      v *= factor;
      std::memcpy(b.data() + at, &v, 4);
    }
  }
  std::ofstream(to / "model.safetensors", std::ios::binary) << b;
}

}  // namespace lumen::test
