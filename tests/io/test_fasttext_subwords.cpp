// A table read from a fastText model keeps the model (Table::subwords): a word outside the vocabulary gets the
// vector `fasttext print-word-vectors` prints for it (tests/data/io/fasttext.tsv); other formats have none.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sstream>

#include "io_test_util.hpp"
#include "lumen/core/error.hpp"
#include "lumen/io/open.hpp"

namespace lumen::io {
namespace test_fasttext_subwords {

using namespace lumen::io::test;

TEST(FastTextSubwords, TableKeepsTheModelForWordsOutsideTheVocabulary) {
  const Table t = open_table(formats_dir() + "/crime-and-punishment.bin");
  ASSERT_NE(t.subwords, nullptr);
  std::istringstream in(read_all(expected_dir() + "/fasttext.tsv"));
  std::size_t oov = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto tab = line.find('\t');
    const std::string word = line.substr(0, tab);
    if (t.vocab.find(word)) continue;
    ++oov;
    std::istringstream vs(line.substr(tab + 1));
    std::vector<float> printed;
    for (float x; vs >> x;) printed.push_back(x);
    std::vector<float> got(t.d());
    ASSERT_TRUE(t.subwords->subword_vector(word, got)) << word;
    ASSERT_EQ(got.size(), printed.size());
    for (std::size_t k = 0; k < got.size(); ++k)  // print-word-vectors prints %.5g
      EXPECT_EQ(fmt::format("{:.5g}", got[k]), fmt::format("{:.5g}", printed[k])) << word << " value " << k;
  }
  EXPECT_GE(oov, 5u);
}

TEST(FastTextSubwords, KeptWithDtypeAndLimitButNotForOtherFormatsOrBorrowedBytes) {
  OpenOptions o;
  o.limit = 10;
  o.dtype = DType::f16;
  const Table small = open_table(formats_dir() + "/crime-and-punishment.bin", o);
  ASSERT_EQ(small.V(), 10u);
  ASSERT_NE(small.subwords, nullptr);
  std::vector<float> v(small.d());
  EXPECT_TRUE(small.subwords->subword_vector("раскольниковъ", v));
  std::vector<float> wrong(small.d() + 1);
  EXPECT_THROW((void)small.subwords->subword_vector("x", wrong), UsageError);

  EXPECT_EQ(open_table(formats_dir() + "/crime-and-punishment.vec").subwords, nullptr);
  const std::string bytes = read_all(formats_dir() + "/crime-and-punishment.bin");
  LoadReport report;
  EXPECT_EQ(open_table_bytes(bytes, "mem.bin", {}, report).subwords, nullptr);  // it would read borrowed bytes
}

}  // namespace test_fasttext_subwords
}  // namespace lumen::io
