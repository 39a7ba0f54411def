// HNSW: build, save, load, query; recall against exact search; a stale or foreign index is refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "lumen/core/error.hpp"
#include "lumen/search/hnsw.hpp"
#include "test_helpers.hpp"

using namespace lumen;
using namespace lumen::search;

namespace test_hnsw {
std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("lumen_test_hnsw_" + std::to_string(::getpid()) + name)).string();
}

TEST(Hnsw, RecallAgainstExactAndScoresExact) {
  const Table t = test::random_table(2000, 16, DType::f32, 8, false);
  const Searcher s(t);
  for (Metric m : {Metric::cosine, Metric::euclidean, Metric::dot}) {
    SCOPED_TRACE(std::string(metric_name(m)));
    const auto index = HnswIndex::build(s, m);
    EXPECT_EQ(index.size(), 2000u);
    std::size_t hits = 0, total = 0;
    for (Id qid = 0; qid < 100; ++qid) {
      const auto q = s.row(qid * 13);
      SearchOptions o;
      o.metric = m;
      o.k = 10;
      o.exclude = {qid * 13};
      const auto exact = s.search(q, o);
      const auto approx = index.search(q, 10, {qid * 13}, 100);
      ASSERT_EQ(approx.size(), 10u);
      for (const auto& a : approx) {
        EXPECT_NE(a.id, qid * 13);
        EXPECT_EQ(a.score, s.score(q, a.id, m));  // exact rescoring
        for (const auto& e : exact) hits += e.id == a.id;
      }
      total += 10;
    }
    // Inner product is not a metric: HNSW finds the largest dot products less reliably.
    EXPECT_GE(static_cast<double>(hits) / total, m == Metric::dot ? 0.8 : 0.95);
  }
}

TEST(Hnsw, SaveLoadRoundTripAndForeignIndexRefused) {
  const Table t = test::random_table(500, 12, DType::f16, 2, false);
  const Searcher s(t);
  const auto index = HnswIndex::build(s, Metric::cosine, 400);
  EXPECT_EQ(index.size(), 400u);
  const std::string path = temp_path("a.hnsw");
  index.save(path);
  const auto loaded = HnswIndex::load(path, s, Metric::cosine, 400);
  const auto q = s.row(7);
  EXPECT_EQ(loaded.search(q, 5), index.search(q, 5));
  for (const auto& n : loaded.search(q, 20)) EXPECT_LT(n.id, 400);
  EXPECT_THROW(HnswIndex::load(path, s, Metric::cosine, 0), InputError);       // row count differs
  EXPECT_THROW(HnswIndex::load(path, s, Metric::euclidean, 400), InputError);  // stored rows are unit rows
  const Table other = test::random_table(500, 12, DType::f16, 3, false);
  const Searcher so(other);
  EXPECT_THROW(HnswIndex::load(path, so, Metric::cosine, 400), InputError);  // another table
  const Table wide = test::random_table(500, 13, DType::f32, 3, false);
  const Searcher sw(wide);
  EXPECT_THROW(HnswIndex::load(path, sw, Metric::cosine, 400), InputError);  // another d
  {
    std::ofstream bad(path, std::ios::binary | std::ios::trunc);
    bad << "not an index";
  }
  EXPECT_THROW(HnswIndex::load(path, s, Metric::cosine, 400), InputError);
  std::filesystem::remove(path);
  EXPECT_THROW(HnswIndex::load(path, s, Metric::cosine, 400), IoError);
}

// hnswlib trusts its files; lumen checks them first. Offsets follow hnswlib 0.6's saveIndex header: offsetLevel0
// (8 bytes), max_elements (8), element count (8), bytes per element (8), label offset (8), data offset (8),
// max level (4), entry point (4), maxM (8), maxM0 (8), ...; the elements start after 96 bytes.
TEST(Hnsw, DamagedIndexFilesAreParseErrorsBeforeHnswlibSeesThem) {
  const Table t = test::random_table(64, 6, DType::f32, 5, false);
  const Searcher s(t);
  const std::string path = temp_path("damaged.hnsw");
  HnswOptions o;
  o.M = 4;
  HnswIndex::build(s, Metric::cosine, 0, o).save(path);
  std::string good;
  {
    std::ifstream in(path, std::ios::binary);
    good.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  auto load_with = [&](std::size_t at, const void* bytes, std::size_t n) {
    std::string b = good;
    b.replace(at, n, static_cast<const char*>(bytes), n);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << b;
    return HnswIndex::load(path, s, Metric::cosine);
  };
  const std::uint64_t huge = 1ull << 40;  // a capacity hnswlib would try to allocate
  EXPECT_THROW(load_with(8, &huge, 8), ParseError);
  const std::uint32_t far = 1000;  // element 0's first level-0 neighbour: no such element
  EXPECT_THROW(load_with(96 + 4, &far, 4), ParseError);
  const std::uint16_t many = 60000;  // element 0's level-0 link count, above maxM0
  EXPECT_THROW(load_with(96, &many, 2), ParseError);
  EXPECT_NO_THROW(load_with(0, good.data(), 8));  // the untouched file still loads
  std::filesystem::remove(path);
}

}  // namespace test_hnsw
