#pragma once
// The binary container both trainers checkpoint into: a magic string naming the trainer, then fields in a fixed
// order (little-endian integers, IEEE floats, length-prefixed strings, raw f32 matrices). Written through
// lumen::AtomicFile, so a checkpoint on disk is always whole; read back with every length checked, so a
// truncated or foreign file is a ParseError naming the byte offset, never a crash.
#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>
#include <type_traits>

#include "lumen/core/atomic_file.hpp"
#include "lumen/core/matrix.hpp"
#include "lumen/core/vocab.hpp"

namespace lumen::train {

class Corpus;

class CheckpointWriter {
 public:
  CheckpointWriter(const std::string& path, std::string_view magic);
  void u64(std::uint64_t v) { file_.write(&v, sizeof v); }
  void f64(double v) { file_.write(&v, sizeof v); }
  void str(std::string_view s);
  void floats(const float* p, std::size_t n) { file_.write(p, n * sizeof(float)); }
  void matrix(const Matrix& m);  // rows, cols, f32 data
  void vocab(const Vocab& v);    // size, then token and count per id
  void corpus(const Corpus& c);  // the corpus's identity: each file's path and size
  void commit();

  // One field of a trainer's field list (the same list reads it back through CheckpointReader::field): integers,
  // bools and enums as u64, floating point as f64.
  template <class T>
  void field(const T& v) {
    if constexpr (std::is_floating_point_v<T>) f64(static_cast<double>(v));
    else u64(static_cast<std::uint64_t>(v));
  }
  template <class... T>
  void fields(const T&... v) {
    (field(v), ...);
  }
  // An enum, as CheckpointReader::field(v, count) reads it back.
  template <class T>
  requires std::is_enum_v<T>
  void field(T v, std::uint64_t /*count*/) { u64(static_cast<std::uint64_t>(v)); }

 private:
  AtomicFile file_;
};

class CheckpointReader {
 public:
  // Throws IoError if the file cannot be opened, ParseError if it does not start with `magic`.
  CheckpointReader(const std::string& path, std::string_view magic);
  std::uint64_t u64();
  double f64();
  std::string str();
  void floats(float* p, std::size_t n);
  Matrix matrix();
  Vocab vocab();
  // Reads what CheckpointWriter::corpus wrote; InputError unless `c` has as many files, of the same sizes
  // (resuming needs the same corpus).
  void expect_corpus(const Corpus& c);
  // A value outside what the trainer accepts: ParseError at the current offset.
  [[noreturn]] void fail(const std::string& what) const;
  void expect_end();  // ParseError if bytes remain

  // The reading side of CheckpointWriter::field. An enum must name one of its first `count` values.
  template <class T>
  void field(T& v) {
    if constexpr (std::is_floating_point_v<T>) {
      v = static_cast<T>(f64());
    } else if constexpr (std::is_same_v<T, bool>) {
      v = u64() != 0;
    } else {
      static_assert(!std::is_enum_v<T>, "an enum field needs its count of values");
      v = static_cast<T>(u64());
    }
  }
  template <class... T>
  void fields(T&... v) {
    (field(v), ...);
  }
  template <class T>
  requires std::is_enum_v<T>
  void field(T& v, std::uint64_t count) {
    const std::uint64_t x = u64();
    if (x >= count) fail(fmt_enum(x));
    v = static_cast<T>(x);
  }

 private:
  static std::string fmt_enum(std::uint64_t x);
  void read(void* p, std::size_t n, const char* what);
  std::string path_;
  std::ifstream in_;
  std::uint64_t offset_ = 0, size_ = 0;
};

}  // namespace lumen::train
