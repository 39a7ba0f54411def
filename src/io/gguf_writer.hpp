#pragma once
// Writing a GGUF file (version 3, the layout gguf_file.hpp reads): metadata key/values in the order added, then
// the tensor infos, padding to the alignment, and each tensor's bytes at its aligned offset. Tensors are given as
// callbacks that write their bytes when the file is written, so a model's weights are converted one tensor at a
// time, never all at once in memory. The file is written atomically (AtomicFile): an error leaves no half-written
// .gguf.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "io/ggml_types.hpp"

namespace lumen::io {

class GgufWriter {
 public:
  // Writes `bytes` of the tensor's data (exactly its size) through the sink.
  using Sink = std::function<void(const void* data, std::size_t n)>;
  using Fill = std::function<void(const Sink& sink)>;

  void add_u32(const std::string& key, std::uint32_t v);
  void add_i32(const std::string& key, std::int32_t v);
  void add_f32(const std::string& key, float v);
  void add_bool(const std::string& key, bool v);
  void add_string(const std::string& key, const std::string& v);
  void add_strings(const std::string& key, const std::vector<std::string>& v);
  void add_i32s(const std::string& key, const std::vector<std::int32_t>& v);

  // A tensor of shape ne (ne[0] innermost, as ggml) and ggml type `type` (F32 or F16: block 1); fill writes its
  // bytes. Throws UsageError for a name given twice or a type lumen does not write.
  void add_tensor(const std::string& name, std::vector<std::uint64_t> ne, GgmlType type, Fill fill);

  // Throws IoError if the file cannot be written, InputError if a fill wrote the wrong number of bytes.
  void write(const std::string& path) const;

  std::uint64_t alignment = 32;

 private:
  struct Tensor {
    std::string name;
    std::vector<std::uint64_t> ne;
    GgmlType type;
    Fill fill;
    std::uint64_t bytes = 0;
  };
  std::string kv_;  // the metadata, already encoded
  std::uint64_t kv_count_ = 0;
  std::vector<Tensor> tensors_;
};

}  // namespace lumen::io
