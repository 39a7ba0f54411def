#pragma once
// For targets whose input is a binary file lumen writes itself (checkpoints, HNSW indexes): random bytes would
// almost never pass the magic and header checks, so such a target starts from a valid file and lets the input
// damage it. `how` (the input after the target's own leading bytes): bytes 0-1 (little-endian) cut that many
// bytes off the end (modulo the size + 1), then each 3 bytes (offset: 2 bytes, value: 1) overwrite one byte.
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>

inline std::string damaged(std::string bytes, const std::uint8_t* how, std::size_t n) {
  if (n < 2) return bytes;
  bytes.resize(bytes.size() - (how[0] | (std::size_t{how[1]} << 8)) % (bytes.size() + 1));
  for (std::size_t i = 2; i + 3 <= n && !bytes.empty(); i += 3)
    bytes[(how[i] | (std::size_t{how[i + 1]} << 8)) % bytes.size()] = static_cast<char>(how[i + 2]);
  return bytes;
}

// Writes the input's damaged copy of `valid` (damaged() above) to `path`, replacing what the last input left there.
inline void write_damaged(const std::string& path, const std::string& valid, const std::uint8_t* how, std::size_t n) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << damaged(valid, how, n);
}

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
