#pragma once
// Test helper: a copy of a fixture checkpoint in a per-process temporary directory, with its safetensors header,
// buffer and config.json open to edit (a tensor removed, added, reshaped, poisoned; a config field changed).
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

namespace lumen::model::testing {

inline std::string fixture_dir(const std::string& name) {
  return std::string(LUMEN_SOURCE_DIR) + "/tests/data/model/" + name;
}

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class EditedCheckpoint {
 public:
  EditedCheckpoint(const std::string& fixture, const std::string& tag) {
    dir_ = (std::filesystem::path(::testing::TempDir()) / ("lumen_model_" + tag + "_" + std::to_string(::getpid())))
               .string();
    std::filesystem::remove_all(dir_);
    std::filesystem::copy(fixture_dir(fixture), dir_);
    config = nlohmann::json::parse(slurp(dir_ + "/config.json"));
    if (!std::filesystem::exists(weights())) return;  // sharded: only config.json is open to edit
    const std::string bytes = slurp(weights());
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(bytes[i]);
    header = nlohmann::json::parse(bytes.substr(8, n));
    buffer = bytes.substr(8 + n);
    config = nlohmann::json::parse(slurp(dir_ + "/config.json"));
  }
  ~EditedCheckpoint() { std::filesystem::remove_all(dir_); }
  EditedCheckpoint(const EditedCheckpoint&) = delete;
  EditedCheckpoint& operator=(const EditedCheckpoint&) = delete;

  const std::string& dir() const { return dir_; }
  std::string weights() const { return dir_ + "/model.safetensors"; }

  // Adds a tensor copied from `from` under a new name (its bytes appended to the buffer).
  void add_copy(const std::string& from, const std::string& name) {
    auto t = header[from];
    const auto b = t["data_offsets"][0].get<std::uint64_t>(), e = t["data_offsets"][1].get<std::uint64_t>();
    t["data_offsets"] = {buffer.size(), buffer.size() + (e - b)};
    buffer += buffer.substr(b, e - b);
    header[name] = t;
  }
  // Writes a float into element i of tensor `name` (an F32 tensor).
  void poke(const std::string& name, std::size_t i, float v) {
    const auto b = header[name]["data_offsets"][0].get<std::uint64_t>();
    std::memcpy(buffer.data() + b + 4 * i, &v, 4);
  }

  // Writes 16 bits into element i of tensor `name` (an F16 or BF16 tensor).
  void poke16(const std::string& name, std::size_t i, std::uint16_t bits) {
    const auto b = header[name]["data_offsets"][0].get<std::uint64_t>();
    std::memcpy(buffer.data() + b + 2 * i, &bits, 2);
  }

  void save() const {
    std::string h = header.dump();
    h.append((8 - h.size() % 8) % 8, ' ');
    std::string out(8, '\0');
    std::uint64_t n = h.size();
    for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((n >> (8 * i)) & 0xff);
    std::ofstream(weights(), std::ios::binary) << out << h << buffer;
    std::ofstream(dir_ + "/config.json", std::ios::binary) << config.dump(2);
  }

  nlohmann::json header, config;
  std::string buffer;

 private:
  std::string dir_;
};

}  // namespace lumen::model::testing
