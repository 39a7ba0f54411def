// The conversion cache (OpenOptions::cache_dir): a text table parsed once is mapped on later opens; an entry
// whose source changed, or that is damaged, is rebuilt and never trusted; an unwritable directory only warns.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <random>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

#include "io_test_util.hpp"
#include "lumen/core/error.hpp"
#include "lumen/io/open.hpp"

namespace lumen::io {
namespace test_table_cache {

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

// A source table opened once through a fresh cache directory: where its entry lies and the table every later open
// must give, whatever the entry has become.
struct CachedSource {
  ScratchDir dir;
  std::string src;
  OpenOptions o;
  Table want;
  std::string entry;
  CachedSource(int rows, double scale) : src(dir.write("t.vec", some_table(rows, scale))) {
    o.cache_dir = dir.file("cache");
    want = open_table(src, o);
    entry = entries(o.cache_dir).at(0);
  }
  // The entry's name replaced by a regular file of these bytes (the entry is mapped elsewhere: never written in place).
  void replace_entry(const std::string& bytes) const {
    std::filesystem::remove(entry);
    dir.write(std::filesystem::path(entry).lexically_relative(dir.path()).string(), bytes);
  }
  // Opens the source again: the table is the source's, and the report says whether the entry was used.
  LoadReport reopen(const std::string& what = "") const {
    LoadReport r;
    const Table t = open_table(src, o, r);
    EXPECT_EQ(values_hash(t), values_hash(want)) << what << (r.from_cache ? " (from the cache)" : "");
    EXPECT_EQ(tokens_hash(t), tokens_hash(want)) << what;
    return r;
  }
};

TEST(TableCache, DamagedEntriesAreRebuiltNeverTrusted) {
  const CachedSource c(200, 0.25);
  const std::string good = read_all(c.entry);
  const auto damage = [&](const std::string& bytes) {
    c.replace_entry(bytes);
    EXPECT_FALSE(c.reopen().from_cache) << bytes.size();
    EXPECT_TRUE(c.reopen().from_cache) << "the damaged entry was not rewritten";
  };
  damage("");
  damage(good.substr(0, 100));
  damage(good.substr(0, good.size() - 4));  // E cut short
  damage(good + "x");                       // a byte too many
  std::string word = good;
  word[word.find("w1") + 1] = '7';  // a word changed: the checksum no longer matches
  damage(word);
  std::string header = good;
  header[20 + 6 * 8] ^= 0x01;  // V changed
  damage(header);
  damage(std::string(good.size(), '\0'));
  std::string zeroed = good;  // E's last rows zeroed, the size kept: every score would be 0
  std::fill(zeroed.end() - 64, zeroed.end(), '\0');
  damage(zeroed);
  std::string flipped = good;  // one bit of one value
  flipped[good.size() - 7] ^= 0x10;
  damage(flipped);
}

// Whatever an entry's bytes become, the table given is the source's: a byte changed anywhere, or the entry cut at
// any length, is either caught (and the entry rebuilt) or harmless (the zero padding before E).
TEST(TableCache, NoChangeToAnEntryEverGivesAnotherTable) {
  const CachedSource c(40, 0.5);
  const std::string good = read_all(c.entry);
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 150 && !::testing::Test::HasFailure(); ++trial) {
    std::string bytes = good;
    if (trial % 3 == 2) {
      bytes.resize(rng() % good.size());
    } else {
      for (int k = 0; k <= trial % 3; ++k) bytes[rng() % bytes.size()] ^= static_cast<char>(1 + rng() % 255);
    }
    c.replace_entry(bytes);
    c.reopen(fmt::format("trial {}", trial));
  }
}

// The source changed past its first 64 KB, its size kept and its mtime set back: its ctime still moved.
TEST(TableCache, ASourceChangedPastItsHeadWithItsSizeAndMtimeKeptIsReparsed) {
  ScratchDir dir;
  const std::string src = dir.write("t.vec", some_table(4000, 0.25));
  ASSERT_GT(std::filesystem::file_size(src), 70u * 1024);
  OpenOptions o;
  o.cache_dir = dir.file("cache");
  open_table(src, o);
  struct stat before {};
  ASSERT_EQ(::stat(src.c_str(), &before), 0);
  std::string text = read_all(src);
  const std::size_t at = text.find("\nw3999 ") + 7;  // the last row's first value, 3999 * 0.25 = 999.75
  ASSERT_EQ(text.substr(at, 6), "999.75");
  text.replace(at, 6, "111.25");
  {
    std::fstream f(src, std::ios::in | std::ios::out | std::ios::binary);  // in place: the same inode
    f.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // past a coarse clock's tick, as any later edit is
  const struct timespec times[2] = {before.st_atim, before.st_mtim};
  ASSERT_EQ(::utimensat(AT_FDCWD, src.c_str(), times, 0), 0);
  LoadReport r;
  const Table t = open_table(src, o, r);
  EXPECT_FALSE(r.from_cache);
  EXPECT_FLOAT_EQ(t.E.at(3999, 0), 111.25f);
}

// A symlink planted under an entry's name (a shared cache directory) is replaced by the entry, never written
// through: the file it points to is left as it was.
TEST(TableCache, APlantedSymlinkIsReplacedNeverWrittenThrough) {
  const CachedSource c(30, 0.5);
  const std::string victim = c.dir.write("victim.txt", "precious");
  std::filesystem::remove(c.entry);
  std::filesystem::create_symlink(victim, c.entry);
  EXPECT_FALSE(c.reopen().from_cache);
  EXPECT_EQ(read_all(victim), "precious");
  EXPECT_FALSE(std::filesystem::is_symlink(c.entry));
  EXPECT_TRUE(std::filesystem::is_regular_file(c.entry));
  EXPECT_TRUE(c.reopen().from_cache);
  // a symlink to an entry that would pass every check is not followed either
  const std::string copy = c.dir.file("elsewhere.lumencache");
  std::filesystem::copy_file(c.entry, copy);
  std::filesystem::remove(c.entry);
  std::filesystem::create_symlink(copy, c.entry);
  EXPECT_FALSE(c.reopen().from_cache);
}

// A FIFO under an entry's name is never opened (reading it, or writing it in place, would wait on the other end):
// it is replaced by the entry. The test holds the FIFO's read end open so that old behaviour fails, not hangs.
TEST(TableCache, AFifoUnderAnEntrysNameIsReplacedNeverOpened) {
  const CachedSource c(30, 0.5);
  std::filesystem::remove(c.entry);
  ASSERT_EQ(::mkfifo(c.entry.c_str(), 0600), 0);
  const int reader = ::open(c.entry.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  const LoadReport r = c.reopen();
  ::close(reader);
  EXPECT_FALSE(r.from_cache);
  EXPECT_TRUE(std::filesystem::is_regular_file(c.entry));
  EXPECT_TRUE(c.reopen().from_cache);
}

// A cache directory that others could plant entries in, or redirect, is not used: the table is parsed, a warning
// says why, and nothing is written there.
TEST(TableCache, AnUnsafeDirectoryIsNotUsed) {
  ScratchDir dir;
  const std::string src = dir.write("t.vec", some_table(30, 0.5));
  const Table want = open_table(src);
  const auto refused = [&](const std::string& cache, const std::string& why) {
    OpenOptions o;
    o.cache_dir = cache;
    for (int i = 0; i < 2; ++i) {
      LoadReport r;
      const Table t = open_table(src, o, r);
      EXPECT_FALSE(r.from_cache) << cache;
      EXPECT_EQ(values_hash(t), values_hash(want));
      ASSERT_EQ(r.warnings.size(), 1u) << cache;
      EXPECT_THAT(r.warnings[0], HasSubstr("table cache not used"));
      EXPECT_THAT(r.warnings[0], HasSubstr(why));
    }
  };
  std::filesystem::create_directory(dir.file("real"));
  std::filesystem::create_directory_symlink(dir.file("real"), dir.file("link"));
  refused(dir.file("link"), "is a symlink");
  refused(dir.file("link") + "/", "is a symlink");
  EXPECT_TRUE(entries(dir.file("real")).empty());

  std::filesystem::create_directory(dir.file("open"));
  ::chmod(dir.file("open").c_str(), 0777);
  refused(dir.file("open"), "writable by anyone");
  ::chmod(dir.file("open").c_str(), 0775);
  refused(dir.file("open"), "writable by its group");
  EXPECT_TRUE(entries(dir.file("open")).empty());

  if (::geteuid() == 0) {  // only root can give a directory away (CI runs as root)
    std::filesystem::create_directory(dir.file("theirs"));
    ASSERT_EQ(::chown(dir.file("theirs").c_str(), 65534, 65534), 0);
    refused(dir.file("theirs"), "belongs to uid 65534");
    EXPECT_TRUE(entries(dir.file("theirs")).empty());
  }

  // a sticky world-writable directory (like /tmp) is safe: others cannot replace what is ours there
  std::filesystem::create_directory(dir.file("sticky"));
  ::chmod(dir.file("sticky").c_str(), 01777);
  OpenOptions o;
  o.cache_dir = dir.file("sticky");
  open_table(src, o);
  LoadReport r;
  open_table(src, o, r);
  EXPECT_TRUE(r.from_cache);
  EXPECT_TRUE(r.warnings.empty());
}

TEST(TableCache, ANewDirectoryIsMadeForItsOwnerOnly) {
  ScratchDir dir;
  const std::string src = dir.write("t.vec", some_table(10, 0.5));
  OpenOptions o;
  o.cache_dir = dir.file("a/b/cache");
  open_table(src, o);
  struct stat st {};
  ASSERT_EQ(::stat(o.cache_dir.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  EXPECT_EQ(entries(o.cache_dir).size(), 1u);
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
  EXPECT_THAT(r.warnings[0], HasSubstr("table cache not used"));
  EXPECT_THAT(r.warnings[0], HasSubstr(blocker));
}

TEST(TableCache, BinaryTablesAreNotCached) {
  ScratchDir dir;
  OpenOptions o;
  o.cache_dir = dir.file("cache");
  open_table(formats_dir() + "/euclidean_vectors.bin", o);
  EXPECT_TRUE(entries(o.cache_dir).empty());
}

}  // namespace test_table_cache
}  // namespace lumen::io
