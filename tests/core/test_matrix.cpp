#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>

#include "lumen/core/atomic_file.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/matrix.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/core/vocab.hpp"

using namespace lumen;

TEST(Matrix, OwnedIsAlignedAndZeroed) {
  Matrix m(3, 5);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(m.data()) % 64, 0u);
  for (float x : m.f32()) EXPECT_EQ(x, 0.0f);
  m.set(1, 2, 7.5f);
  EXPECT_EQ(m.at(1, 2), 7.5f);
  EXPECT_EQ(m.row(1)[2], 7.5f);
}

TEST(Matrix, SizeThatOverflowsIsAnErrorNotAnAllocation) {
  const std::size_t max = std::numeric_limits<std::size_t>::max();
  EXPECT_THROW(Matrix(max / 2, 4), Error);  // rows x cols x 4 bytes wraps around
  EXPECT_THROW(Matrix(max, max, DType::f16), Error);
}

TEST(Matrix, LargeOwnedStartsOnA2MbPageAndIsZeroed) {
  // 5000 x 1000 f32 = 20 MB: large enough for the huge-page path (the streaming passes rely on its alignment).
  Matrix m(5000, 1000);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(m.data()) % (std::uintptr_t{2} << 20), 0u);
  std::size_t nonzero = 0;
  for (float x : m.f32()) nonzero += x != 0.0f;
  EXPECT_EQ(nonzero, 0u);
  m.set(4999, 999, 1.0f);  // the last element is writable
  EXPECT_EQ(m.f32().back(), 1.0f);
}

TEST(Matrix, UninitializedIsOwnedAlignedWritableAndClonesExactly) {
  Matrix small = Matrix::uninitialized(3, 5, DType::f16);
  EXPECT_TRUE(small.owned());
  EXPECT_EQ(small.rows(), 3u);
  EXPECT_EQ(small.dtype(), DType::f16);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(small.data()) % 64, 0u);
  Matrix big = Matrix::uninitialized(5000, 1000);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(big.data()) % (std::uintptr_t{2} << 20), 0u);
  for (std::size_t i = 0; i < big.size(); ++i) big.f32_mut()[i] = static_cast<float>(i % 977);
  const Matrix c = big.clone();  // clone allocates uninitialized and copies every byte
  EXPECT_TRUE(std::equal(c.f32().begin(), c.f32().end(), big.f32().begin()));
  EXPECT_TRUE(Matrix::uninitialized(0, 4).empty());
  EXPECT_THROW(Matrix::uninitialized(std::numeric_limits<std::size_t>::max() / 2, 4), Error);
}

TEST(Matrix, ConvertsBetweenTypes) {
  Matrix m(2, 3);
  for (std::size_t i = 0; i < 6; ++i) m.f32_mut()[i] = 0.5f * static_cast<float>(i) - 1.0f;
  for (DType t : {DType::f16, DType::bf16}) {
    Matrix n = m.to(t);
    EXPECT_EQ(n.dtype(), t);
    EXPECT_EQ(n.bytes(), 12u);
    float row[3];
    n.row_f32(1, row);
    EXPECT_EQ(row[2], 1.5f);
    Matrix back = n.to(DType::f32);
    for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(back.f32()[i], m.f32()[i]);
  }
}

TEST(Matrix, BorrowedIsReadOnlyAndHeadShares) {
  float data[6] = {1, 2, 3, 4, 5, 6};
  Matrix b = Matrix::borrow(data, 2, 3, DType::f32);
  EXPECT_FALSE(b.owned());
  EXPECT_EQ(b.at(1, 0), 4.0f);
  EXPECT_THROW(b.set(0, 0, 1.0f), Error);
  Matrix h = b.head(1);
  EXPECT_EQ(h.rows(), 1u);
  EXPECT_EQ(h.data(), b.data());
  Matrix c = b.clone();
  EXPECT_TRUE(c.owned());
  c.set(0, 0, 9.0f);
  EXPECT_EQ(data[0], 1.0f);
}

TEST(Matrix, F32ViewOfNarrowTypeThrows) {
  Matrix m(1, 1, DType::f16);
  EXPECT_THROW((void)m.f32(), Error);
}

TEST(Vocab, AddFindDuplicatesAndSuggestions) {
  Vocab v;
  EXPECT_EQ(v.add("king", 10), 0);
  EXPECT_EQ(v.add("queen", 5), 1);
  EXPECT_FALSE(v.add("king").has_value());
  EXPECT_EQ(v.size(), 2u);
  EXPECT_TRUE(v.has_counts());
  EXPECT_EQ(v.count(1), 5u);
  EXPECT_EQ(v.find("queen"), 1);
  EXPECT_FALSE(v.find("kinq").has_value());
  try {
    v.require("kinq");
    FAIL();
  } catch (const UnknownTokenError& e) {
    ASSERT_FALSE(e.suggestions().empty());
    EXPECT_EQ(e.suggestions()[0], "king");
    EXPECT_NE(std::string(e.what()).find("did you mean 'king'"), std::string::npos);
  }
  v.truncate(1);
  EXPECT_FALSE(v.find("queen").has_value());
  EXPECT_EQ(Vocab::numbered(3).token(2), "2");
}

TEST(Threads, ParallelForCoversRangeOnceAndPropagatesErrors) {
  std::vector<int> hits(1000, 0);
  parallel_for(hits.size(), 4, [&](std::size_t b, std::size_t e, std::size_t) {
    for (std::size_t i = b; i < e; ++i) ++hits[i];
  });
  for (int h : hits) EXPECT_EQ(h, 1);
  EXPECT_THROW(parallel_for(10, 3,
                            [](std::size_t, std::size_t, std::size_t t) {
                              if (t == 2) throw InputError("boom");
                            }),
               InputError);
}

TEST(AtomicFile, UncommittedLeavesNothing) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "lumen_atomic_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string target = (dir / "out.txt").string();
  {
    AtomicFile f(target);
    f.write("partial");
  }  // no commit: as if an error was thrown mid-write
  EXPECT_FALSE(fs::exists(target));
  EXPECT_TRUE(fs::is_empty(dir));
  write_file_atomic(target, "done\n");
  std::ifstream in(target);
  std::string s;
  std::getline(in, s);
  EXPECT_EQ(s, "done");
  EXPECT_THROW(AtomicFile((dir / "no/such/dir/x").string()), IoError);
  fs::remove_all(dir);
}
