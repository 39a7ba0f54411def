// Writers: every format round-trips an f32 table exactly; storage types are kept where the format has them;
// an error leaves no file behind; lumen-written .safetensors/.npy load in NumPy with identical values.
#include <cmath>
#include <cstdio>
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>
#include <sys/stat.h>

#include "io_test_util.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/io/open.hpp"
#include "lumen/io/write.hpp"

namespace lumen::io {
namespace test_writers {

using namespace lumen::io::test;

// Values that stress the decimal round trip: tiny, huge, subnormal, negative zero, many digits.
Table awkward_table() {
  Table t;
  const std::vector<std::string> words = {"the", "Раскольников", "naïve", "日本", "x"};
  for (auto& w : words) t.vocab.add(w);
  t.E = Matrix(words.size(), 4);
  const float special[] = {0.1f, -0.0f, 1e-45f, 3.4028235e38f, 1.17549435e-38f, 0.33333334f, -123456.79f, 7.0f};
  Rng rng(7);
  for (std::size_t r = 0; r < t.V(); ++r)
    for (std::size_t c = 0; c < t.d(); ++c)
      t.E.set(r, c, r < 2 ? special[r * 4 + c] : static_cast<float>(rng.normal()) * 10.0f);
  return t;
}

void expect_same(const Table& a, const Table& b, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(a.V(), b.V());
  ASSERT_EQ(a.d(), b.d());
  EXPECT_EQ(a.vocab.tokens(), b.vocab.tokens());
  for (std::size_t r = 0; r < a.V(); ++r)
    for (std::size_t c = 0; c < a.d(); ++c)
      EXPECT_EQ(std::bit_cast<std::uint32_t>(a.E.at(r, c)), std::bit_cast<std::uint32_t>(b.E.at(r, c)))
          << "row " << r << " col " << c << ": " << a.E.at(r, c) << " vs " << b.E.at(r, c);
}

TEST(Writers, EveryFormatRoundTripsF32Exactly) {
  const Table t = awkward_table();
  ScratchDir dir;
  const std::pair<Format, std::string> outs[] = {
      {Format::word2vec_text, "a.txt"}, {Format::word2vec_binary, "a.bin"},
      {Format::glove, "a.glove"},       {Format::safetensors, "a.safetensors"},
      {Format::npy, "a.npy"},           {Format::projector_tsv, "vectors.tsv"}};
  for (const auto& [format, name] : outs) {
    const std::string path = dir.file(name);
    EXPECT_EQ(format_from_path(path), format);
    write_table(t, path, format);
    EXPECT_EQ(detect_format(path), format) << name;
    const Table back = open_table(path);
    EXPECT_EQ(back.format, format_name(format));
    expect_same(t, back, name);
  }
  EXPECT_TRUE(std::filesystem::exists(dir.file("metadata.tsv")));
  EXPECT_TRUE(std::filesystem::exists(dir.file("a.vocab.txt")));
}

TEST(Writers, BinaryWithoutControlBytesIsStillDetectedAsBinary) {
  // Values whose float32 bytes hold no control byte (>= 0x20) must not pass for text.
  Table t;
  t.vocab.add("w");
  t.vocab.add("v");
  t.E = Matrix(2, 5);
  const float vals[] = {0.05f, 0.0612f, 0.0731f, 0.0444f, 0.0523f};
  for (std::size_t r = 0; r < 2; ++r)
    for (std::size_t c = 0; c < 5; ++c) t.E.set(r, c, vals[c] * static_cast<float>(r + 1));
  ScratchDir dir;
  write_table(t, dir.file("w.bin"), Format::word2vec_binary);
  EXPECT_EQ(detect_format(dir.file("w.bin")), Format::word2vec_binary);
  expect_same(t, open_table(dir.file("w.bin")), "w.bin");
}

TEST(Writers, SampleTablesRoundTrip) {
  ScratchDir dir;
  for (const char* name : {"crime-and-punishment.vec", "euclidean_vectors.bin", "test_glove.txt"}) {
    const Table t = open_table(formats_dir() + "/" + name);
    for (Format f : {Format::word2vec_text, Format::word2vec_binary, Format::safetensors, Format::npy}) {
      const std::string out = dir.file(fmt::format("rt.{}", format_name(f)));
      write_table(t, out, f);
      EXPECT_EQ(detect_format(out), f) << name << " via " << format_name(f);
      OpenOptions o;
      o.format = f;
      expect_same(t, open_table(out, o), fmt::format("{} via {}", name, format_name(f)));
    }
  }
}

TEST(Writers, NarrowStorageTypesAreKept) {
  ScratchDir dir;
  OpenOptions h;
  h.dtype = DType::f16;
  const Table t = open_table(formats_dir() + "/crime-and-punishment.vec", h);
  for (const char* name : {"h.safetensors", "h.npy"}) {
    write_table(t, dir.file(name), format_from_path(name));
    OpenOptions o;
    o.dtype = DType::f16;
    LoadReport r;
    const Table back = open_table(dir.file(name), o, r);
    EXPECT_TRUE(r.mapped) << name;  // f16 on disk, f16 asked for: borrowed, not converted
    EXPECT_EQ(std::memcmp(back.E.data(), t.E.data(), t.E.bytes()), 0) << name;
  }
  OpenOptions b;
  b.dtype = DType::bf16;
  const Table tb = open_table(formats_dir() + "/crime-and-punishment.vec", b);
  write_table(tb, dir.file("b.safetensors"), Format::safetensors);
  const Table back = open_table(dir.file("b.safetensors"), b);
  EXPECT_EQ(std::memcmp(back.E.data(), tb.E.data(), tb.E.bytes()), 0);
}

TEST(Writers, ErrorLeavesNoFileBehind) {
  ScratchDir dir;
  Table t = awkward_table();
  Table bad;
  bad.vocab.add("fine");
  bad.vocab.add("has space");
  bad.E = Matrix(2, 2);
  const std::string target = dir.file("out.txt");
  EXPECT_THROW(write_table(bad, target, Format::word2vec_text), InputError);
  EXPECT_THROW(write_table(bad, dir.file("out.bin"), Format::word2vec_binary), InputError);
  EXPECT_EQ(dir.count_files(), 0u);  // neither the target nor a temporary file
  // An existing file is untouched by a failed write.
  write_table(t, target, Format::word2vec_text);
  const std::string before = read_all(target);
  EXPECT_THROW(write_table(bad, target, Format::word2vec_text), InputError);
  EXPECT_EQ(read_all(target), before);
  EXPECT_EQ(dir.count_files(), 1u);
  // A two-file format commits neither file if the second cannot be written.
  Table nl;
  nl.vocab.add("a\nb");
  nl.E = Matrix(1, 2);
  EXPECT_THROW(write_table(nl, dir.file("vectors.tsv"), Format::projector_tsv), InputError);
  EXPECT_EQ(dir.count_files(), 1u);
  EXPECT_THROW(write_table(t, dir.file("x.bin"), Format::fasttext_bin), UsageError);
  EXPECT_THROW(format_from_path("table.xyz"), UsageError);
}

bool have_numpy() { return std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") == 0; }

TEST(Writers, NumPyReadsWhatLumenWrites) {
  if (!have_numpy()) GTEST_SKIP() << "/usr/bin/python3 with numpy not available";
  ScratchDir dir;
  const Table t = awkward_table();
  write_table(t, dir.file("e.npy"), Format::npy);
  write_table(t, dir.file("e.safetensors"), Format::safetensors);
  // NumPy prints the float32 bit patterns of both files, compared with ours below.
  const std::string script = dir.write("check.py", R"(
import json, struct, sys
import numpy as np
d = sys.argv[1]
a = np.load(d + "/e.npy")
assert a.dtype == np.float32 and a.flags.c_contiguous, a.dtype
raw = open(d + "/e.safetensors", "rb").read()
n = struct.unpack("<Q", raw[:8])[0]
h = json.loads(raw[8:8 + n])
t = h["wte.weight"]
b = np.frombuffer(raw[8 + n + t["data_offsets"][0]: 8 + n + t["data_offsets"][1]], dtype="<f4").reshape(t["shape"])
try:
    from safetensors.numpy import load_file
    c = load_file(d + "/e.safetensors")["wte.weight"]
    assert (c.view("<u4") == b.view("<u4")).all()
except ImportError:
    pass
assert (a.view("<u4") == b.view("<u4")).all()
print(" ".join(str(x) for x in a.view("<u4").ravel()))
)");
  const std::string out = dir.file("out.txt");
  ASSERT_EQ(std::system(fmt::format("/usr/bin/python3 '{}' '{}' > '{}'", script, dir.path(), out).c_str()), 0);
  std::istringstream in(read_all(out));
  for (std::size_t r = 0; r < t.V(); ++r)
    for (std::size_t c = 0; c < t.d(); ++c) {
      std::uint32_t bits = 0;
      ASSERT_TRUE(in >> bits);
      EXPECT_EQ(bits, std::bit_cast<std::uint32_t>(t.E.at(r, c))) << r << "," << c;
    }
}

TEST(Writers, NumPyWrittenFilesLoadInLumen) {
  if (!have_numpy()) GTEST_SKIP() << "/usr/bin/python3 with numpy not available";
  ScratchDir dir;
  const std::string cmd = fmt::format(
      "/usr/bin/python3 -c \"import numpy as np; np.save('{0}/f.npy', np.arange(12, dtype=np.float32).reshape(3, 4) / "
      "3); "
      "np.save('{0}/h.npy', (np.arange(6, dtype=np.float16).reshape(2, 3) - 2.5))\"",
      dir.path());
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const Table f = open_table(dir.file("f.npy"));
  ASSERT_EQ(f.V(), 3u);
  EXPECT_EQ(f.E.at(2, 3), 11.0f / 3.0f);
  const Table h = open_table(dir.file("h.npy"));
  EXPECT_EQ(h.E.at(1, 2), 2.5f);
}

// The files a write makes, for checking them against the inputs before any is written; and what "-" (standard
// output) takes: the text formats only.
TEST(Writers, OutputPathsAndDestinations) {
  Table named = awkward_table();
  Table numbered;
  numbered.vocab = Vocab::numbered(2);
  numbered.E = Matrix(2, 3);
  using V = std::vector<std::string>;
  EXPECT_EQ(output_paths(named, "d/t.txt", Format::word2vec_text), V{"d/t.txt"});
  EXPECT_EQ(output_paths(named, "d/vectors.tsv", Format::projector_tsv), (V{"d/vectors.tsv", "d/metadata.tsv"}));
  EXPECT_EQ(output_paths(named, "d/t.npy", Format::npy), (V{"d/t.npy", "d/t.vocab.txt"}));
  EXPECT_EQ(output_paths(numbered, "d/t.npy", Format::npy), V{"d/t.npy"});
  WriteOptions o;
  o.vocab_path = "words.txt";
  EXPECT_EQ(output_paths(numbered, "d/t.npy", Format::npy, o), (V{"d/t.npy", "words.txt"}));
  EXPECT_EQ(output_paths(named, "d/x.tsv", Format::projector_tsv, o), (V{"d/x.tsv", "words.txt"}));

  EXPECT_EQ(format_from_path("-"), Format::word2vec_text);
  EXPECT_NO_THROW(check_destination("-", Format::word2vec_text));
  EXPECT_NO_THROW(check_destination("-", Format::glove));
  EXPECT_NO_THROW(check_destination("-", Format::projector_tsv, o));
  EXPECT_THROW(check_destination("-", Format::projector_tsv), UsageError);
  for (Format f : {Format::word2vec_binary, Format::safetensors, Format::npy, Format::fasttext_bin})
    EXPECT_THROW(check_destination("-", f), UsageError) << format_name(f);
  EXPECT_THROW(check_destination("t.bin", Format::fasttext_bin), UsageError);
  EXPECT_THROW(check_destination("", Format::word2vec_text), UsageError);
  EXPECT_THROW(write_table(named, "-", Format::safetensors), UsageError);
}

}  // namespace test_writers
}  // namespace lumen::io
