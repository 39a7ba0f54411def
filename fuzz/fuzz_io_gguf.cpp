// libFuzzer target: the GGUF reader must either return a consistent table or throw lumen::Error.
#include "fuzz_table_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return fuzz_table_reader(data, size, lumen::io::Format::gguf);
}
