// Opening a mapped table costs no per-row work: without a vocabulary its rows are labelled "0".."V-1" by a numbered
// Vocab (no strings, no hash index until asked), and every lookup still works.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <string>

#include "io_test_util.hpp"
#include "lumen/core/error.hpp"
#include "lumen/io/open.hpp"
#include "lumen/io/write.hpp"

namespace lumen::io {
namespace test_lazy_open {

using namespace lumen::io::test;

Table numbered_table(std::size_t V, std::size_t d) {
  Table t;
  t.vocab = Vocab::numbered(V);
  t.E = Matrix(V, d);
  for (std::size_t i = 0; i < t.E.size(); ++i) t.E.f32_mut()[i] = static_cast<float>(i % 7) - 3.0f;
  return t;
}

// A safetensors file as a checkpoint has it: the tensor, no lumen.vocab metadata (lumen's writer adds one).
std::string write_plain_safetensors(const ScratchDir& dir, const Table& t) {
  std::string header = fmt::format(R"({{"wte.weight":{{"dtype":"F32","shape":[{},{}],"data_offsets":[0,{}]}}}})", t.V(),
                                   t.d(), t.E.bytes());
  header.append((8 - header.size() % 8) % 8, ' ');
  std::string bytes(8, '\0');
  for (int i = 0; i < 8; ++i) bytes[static_cast<std::size_t>(i)] = static_cast<char>((header.size() >> (8 * i)) & 0xff);
  bytes += header;
  bytes.append(reinterpret_cast<const char*>(t.E.data()), t.E.bytes());
  return dir.write("t.safetensors", bytes);
}

TEST(LazyOpen, NpyAndSafetensorsWithoutVocabularyOpenNumbered) {
  ScratchDir dir;
  const Table t = numbered_table(1000, 4);
  for (const Format f : {Format::npy, Format::safetensors}) {
    std::string path = dir.file("t.npy");
    if (f == Format::npy) write_table(t, path, f);
    else path = write_plain_safetensors(dir, t);
    LoadReport r;
    const Table got = open_table(path, {}, r);
    EXPECT_TRUE(r.mapped);
    EXPECT_TRUE(got.vocab.is_numbered()) << format_name(f);  // no labels built at open
    EXPECT_EQ(got.V(), 1000u);
    EXPECT_EQ(got.vocab.find("123"), Id{123});
    EXPECT_FALSE(got.vocab.find("1000").has_value());
    EXPECT_FALSE(got.vocab.find("t123").has_value());
    EXPECT_THROW(got.vocab.require("01"), UnknownTokenError);
    EXPECT_EQ(got.vocab.token(999), "999");
    // --limit keeps the labels of the rows kept.
    OpenOptions o;
    o.limit = 10;
    const Table head = open_table(path, o);
    EXPECT_TRUE(head.vocab.is_numbered());
    EXPECT_EQ(head.vocab.size(), 10u);
    EXPECT_FALSE(head.vocab.find("10").has_value());
  }
}

TEST(LazyOpen, NpyWithAVocabularyFileIsIndexedByItsWords) {
  ScratchDir dir;
  write_table(numbered_table(3, 2), dir.file("v.npy"), Format::npy);
  const std::string vocab = dir.write("v.txt", "cat\ndog\ncat\n");  // a duplicate: the first row wins
  OpenOptions o;
  o.vocab_path = vocab;
  LoadReport r;
  const Table t = open_table(dir.file("v.npy"), o, r);
  EXPECT_FALSE(t.vocab.is_numbered());
  EXPECT_EQ(t.V(), 2u);
  EXPECT_EQ(t.vocab.find("dog"), Id{1});
  EXPECT_FALSE(t.vocab.find("0").has_value());
  EXPECT_EQ(r.duplicates, 1u);
}

TEST(LazyOpen, CachedTextTableKeepsItsWordsAndLookups) {
  ScratchDir dir;
  std::string text = "300 2\n";
  for (int i = 0; i < 300; ++i) text += "w" + std::to_string(i) + " 0.5 -0.25\n";
  const std::string path = dir.write("t.txt", text);
  OpenOptions o;
  o.cache_dir = dir.file("cache");
  { const Table first = open_table(path, o); }
  LoadReport r;
  const Table t = open_table(path, o, r);
  ASSERT_TRUE(r.from_cache);
  EXPECT_EQ(t.vocab.find("w299"), Id{299});  // the index is built here, on the first lookup
  EXPECT_EQ(t.vocab.find("w0"), Id{0});
  EXPECT_FALSE(t.vocab.find("w300").has_value());
  EXPECT_EQ(t.vocab.token(7), "w7");
}

// The VmFlags of the mapping in this process that holds address p ("" if none is found).
std::string vm_flags_of(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    std::uintptr_t lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%" SCNxPTR "-%" SCNxPTR " ", &lo, &hi) == 2 && line.find(':') > line.find(' ')) {
      inside = lo <= at && at < hi;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

// A mapped table asks for 2 MB pages (VmFlags "hg"), so that what it reads from disk comes into the page cache in
// 2 MB folios (bench/RESULTS.md: a fresh map's first touch 2.4 ms instead of 20-60 ms for 154 MB).
TEST(LazyOpen, MappedTablesAskForHugePages) {
  if (!std::filesystem::exists("/sys/kernel/mm/transparent_hugepage/enabled"))
    GTEST_SKIP() << "this kernel has no transparent huge pages";
  ScratchDir dir;
  const std::string path = dir.file("t.npy");
  write_table(numbered_table(4096, 64), path, Format::npy);
  LoadReport r;
  const Table got = open_table(path, {}, r);
  ASSERT_TRUE(r.mapped);
  const std::string flags = vm_flags_of(got.E.data());
  ASSERT_FALSE(flags.empty()) << "no mapping holds E";
  EXPECT_NE(flags.find(" hg"), std::string::npos) << flags;
}

}  // namespace test_lazy_open
}  // namespace lumen::io
