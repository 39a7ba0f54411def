#include "lumen/train/checkpoint.hpp"

#include <filesystem>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/train/corpus.hpp"

namespace lumen::train {

CheckpointWriter::CheckpointWriter(const std::string& path, std::string_view magic) : file_(path) {
  file_.write(magic);
}

void CheckpointWriter::str(std::string_view s) {
  u64(s.size());
  file_.write(s.data(), s.size());
}

void CheckpointWriter::matrix(const Matrix& m) {
  u64(m.rows());
  u64(m.cols());
  if (!m.empty()) floats(m.f32().data(), m.size());
}

void CheckpointWriter::vocab(const Vocab& v) {
  u64(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    str(v.token(static_cast<Id>(i)));
    u64(v.count(static_cast<Id>(i)));
  }
}

void CheckpointWriter::commit() { file_.commit(); }

CheckpointReader::CheckpointReader(const std::string& path, std::string_view magic)
    : path_(path), in_(path, std::ios::binary) {
  if (!in_) throw IoError(fmt::format("{}: cannot open checkpoint", path));
  std::error_code ec;
  size_ = std::filesystem::file_size(path, ec);
  std::string m(magic.size(), '\0');
  if (size_ < magic.size() || !in_.read(m.data(), static_cast<std::streamsize>(m.size())) || m != magic)
    throw ParseError(path, 0, 0,
                     fmt::format("not a lumen checkpoint of this kind (expected it to start with '{}')",
                                 std::string(magic.substr(0, magic.find('\0')))));
  offset_ = magic.size();
}

void CheckpointReader::read(void* p, std::size_t n, const char* what) {
  if (n > size_ - offset_ || !in_.read(static_cast<char*>(p), static_cast<std::streamsize>(n)))
    throw ParseError(path_, 0, offset_, fmt::format("checkpoint truncated: expected {} ({} bytes)", what, n));
  offset_ += n;
}

std::uint64_t CheckpointReader::u64() {
  std::uint64_t v;
  read(&v, sizeof v, "an integer");
  return v;
}

double CheckpointReader::f64() {
  double v;
  read(&v, sizeof v, "a number");
  return v;
}

std::string CheckpointReader::fmt_enum(std::uint64_t x) { return fmt::format("unknown option value {}", x); }

std::string CheckpointReader::str() {
  const auto n = u64();
  if (n > size_ - offset_) fail(fmt::format("string length {} runs past the end of the file", n));
  std::string s(n, '\0');
  read(s.data(), n, "a string");
  return s;
}

void CheckpointReader::floats(float* p, std::size_t n) { read(p, n * sizeof(float), "matrix data"); }

Matrix CheckpointReader::matrix() {
  const auto rows = u64(), cols = u64();
  if (cols != 0 && rows > (size_ - offset_) / sizeof(float) / cols)
    fail(fmt::format("a {} x {} matrix runs past the end of the file", rows, cols));
  Matrix m(rows, cols);
  if (!m.empty()) floats(m.f32_mut().data(), m.size());
  return m;
}

Vocab CheckpointReader::vocab() {
  const auto n = u64();
  if (n > (size_ - offset_) / 16) fail(fmt::format("vocabulary size {} runs past the end of the file", n));
  Vocab v;
  v.reserve(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    auto tok = str();
    const auto c = u64();
    if (!v.add(std::move(tok), c)) fail("duplicate token in the vocabulary");
  }
  return v;
}

void CheckpointWriter::corpus(const Corpus& c) {
  u64(c.files().size());
  for (const auto& f : c.files()) {
    str(f.path);
    u64(f.size);
  }
}

void CheckpointReader::expect_corpus(const Corpus& c) {
  const auto nfiles = u64();
  if (nfiles != c.files().size())
    throw InputError(fmt::format("{}: the checkpoint was written for a corpus of {} file(s), not {}", path_, nfiles,
                                 c.files().size()));
  for (std::uint64_t i = 0; i < nfiles; ++i) {
    const auto name = str();
    const auto size = u64();
    if (size != c.files()[i].size)
      throw InputError(
          fmt::format("{}: corpus file {} ({}) has {} bytes, but the checkpoint was written when "
                      "{} had {}: resume needs the same corpus",
                      path_, i + 1, c.files()[i].path, c.files()[i].size, name, size));
  }
}

void CheckpointReader::fail(const std::string& what) const { throw ParseError(path_, 0, offset_, what); }

void CheckpointReader::expect_end() {
  if (offset_ != size_) fail(fmt::format("{} unexpected bytes after the checkpoint", size_ - offset_));
}

}  // namespace lumen::train
