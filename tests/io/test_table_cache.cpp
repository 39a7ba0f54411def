// The conversion cache (OpenOptions::cache_dir): a text table parsed once is mapped on later opens; an entry
// whose source changed, or that is damaged, is rebuilt and never trusted; an unwritable directory only warns.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fmt/format.h>
#include <string>

#include "io_test_util.hpp"
#include "lumen/core/error.hpp"
#include "lumen/io/open.hpp"

namespace lumen::io {
namespace {

using namespace lumen::io::test;
using ::testing::HasSubstr;

std::string some_table(int rows, double scale) {
  std::string text = fmt::format("{} 3\n", rows + 1);
  for (int i = 0; i < rows; ++i) text += fmt::format("w{} {} {} {}\n", i, i * scale, -0.5, 1e-3 * i);
  text += "w0 9 9 9\n";  // a duplicate: the report must survive the cache too
  return text;
}

std::vector<std::string> entries(const std::string& dir) {
  std::vector<std::string> out;
  if (!std::filesystem::exists(dir)) return out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) out.push_back(e.path().string());
  return out;
}

TEST(TableCache, SecondOpenMapsTheEntryAndGivesTheSameTable) {
  ScratchDir dir;
  const std::string src = dir.write("t.vec", some_table(300, 0.25));
  OpenOptions o;
  o.cache_dir = dir.file("cache");
  LoadReport r1, r2;
  const Table a = open_table(src, o, r1);
  EXPECT_FALSE(r1.from_cache);
  ASSERT_EQ(entries(o.cache_dir).size(), 1u);
  const Table b = open_table(src, o, r2);
  EXPECT_TRUE(r2.from_cache);
  EXPECT_TRUE(r2.mapped);
  EXPECT_FALSE(b.E.owned());
  EXPECT_EQ(b.V(), 300u);
  EXPECT_EQ(tokens_hash(a), tokens_hash(b));
  EXPECT_EQ(values_hash(a), values_hash(b));
  EXPECT_EQ(b.format, "word2vec-text");
  EXPECT_EQ(b.source, src);
  EXPECT_EQ(r2.duplicates, 1u);
  EXPECT_EQ(r2.first_duplicate, "w0");
  EXPECT_EQ(r2.rows_read, 301u);
  EXPECT_EQ(*b.vocab.find("w7"), 7);
  EXPECT_TRUE(r2.warnings.empty());
  // other options (the storage type) get their own entry
  o.dtype = DType::f16;
  LoadReport r3;
  EXPECT_EQ(open_table(src, o, r3).E.dtype(), DType::f16);
  EXPECT_FALSE(r3.from_cache);
  EXPECT_EQ(entries(o.cache_dir).size(), 2u);
}

TEST(TableCache, StaleEntryIsRebuilt) {
  ScratchDir dir;
  const std::string src = dir.write("t.vec", some_table(200, 0.25));
  OpenOptions o;
  o.cache_dir = dir.file("cache");
  open_table(src, o);
  // same size, other values: the fingerprint (size, mtime, head hash) no longer matches
  dir.write("t.vec", some_table(200, 0.75));
  LoadReport r;
  const Table t = open_table(src, o, r);
  EXPECT_FALSE(r.from_cache);
  EXPECT_FLOAT_EQ(t.E.at(2, 0), 1.5f);
  LoadReport again;
  EXPECT_FLOAT_EQ(open_table(src, o, again).E.at(2, 0), 1.5f);
  EXPECT_TRUE(again.from_cache);
}

TEST(TableCache, DamagedEntriesAreRebuiltNeverTrusted) {
  ScratchDir dir;
  const std::string src = dir.write("t.vec", some_table(200, 0.25));
  OpenOptions o;
  o.cache_dir = dir.file("cache");
  const Table want = open_table(src, o);
  const std::string entry = entries(o.cache_dir).at(0);
  const std::string good = read_all(entry);
  const auto damage = [&](const std::string& bytes) {
    std::filesystem::remove(entry);  // (the entry is read-only-mapped elsewhere: replace, never write in place)
    dir.write(std::filesystem::path(entry).lexically_relative(dir.path()).string(), bytes);
    LoadReport r;
    const Table t = open_table(src, o, r);
    EXPECT_FALSE(r.from_cache) << bytes.size();
    EXPECT_EQ(values_hash(t), values_hash(want));
    EXPECT_EQ(tokens_hash(t), tokens_hash(want));
    LoadReport next;
    open_table(src, o, next);
    EXPECT_TRUE(next.from_cache) << "the damaged entry was not rewritten";
  };
  damage("");
  damage(good.substr(0, 100));
  damage(good.substr(0, good.size() - 4));  // E cut short
  damage(good + "x");                       // a byte too many
  std::string word = good;
  word[word.find("w1") + 1] = '7';  // a word changed: the checksum no longer matches
  damage(word);
  std::string header = good;
  header[20 + 3 * 8] ^= 0x01;  // V changed
  damage(header);
  damage(std::string(good.size(), '\0'));
}

TEST(TableCache, UnwritableDirectoryFallsBackToParsingWithAWarning) {
  ScratchDir dir;
  const std::string src = dir.write("t.vec", some_table(50, 0.25));
  const std::string blocker = dir.write("not-a-dir", "x");
  OpenOptions o;
  o.cache_dir = blocker + "/cache";  // under a regular file: cannot be created, whoever runs the test
  LoadReport r;
  const Table t = open_table(src, o, r);
  EXPECT_EQ(t.V(), 50u);
  EXPECT_FALSE(r.from_cache);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_THAT(r.warnings[0], HasSubstr("table cache not written"));
  EXPECT_THAT(r.warnings[0], HasSubstr(blocker));
}

TEST(TableCache, BinaryTablesAreNotCached) {
  ScratchDir dir;
  OpenOptions o;
  o.cache_dir = dir.file("cache");
  open_table(formats_dir() + "/euclidean_vectors.bin", o);
  EXPECT_TRUE(entries(o.cache_dir).empty());
}

}  // namespace
}  // namespace lumen::io
