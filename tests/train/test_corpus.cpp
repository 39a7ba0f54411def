#include <gtest/gtest.h>

#include "helpers.hpp"
#include "lumen/core/error.hpp"
#include "lumen/text/word_splitter.hpp"
#include "lumen/train/corpus.hpp"

using namespace lumen;
using namespace lumen::train;

namespace test_corpus {
std::vector<std::vector<std::string>> read_all(const Corpus& c, text::WordSplitter tok, std::uint64_t b,
                                               std::uint64_t e, bool aligned = false) {
  CorpusReader r(c, tok, b, e, aligned);
  Sentence s;
  std::vector<std::vector<std::string>> out;
  while (r.next_sentence(s)) {
    std::vector<std::string> line;
    for (std::size_t i = 0; i < s.size(); ++i) line.emplace_back(s[i]);
    out.push_back(line);
  }
  return out;
}
std::vector<std::string> flat(const std::vector<std::vector<std::string>>& v) {
  std::vector<std::string> o;
  for (auto& l : v) o.insert(o.end(), l.begin(), l.end());
  return o;
}

TEST(Corpus, ReadsSentencesAcrossFilesAndDirectories) {
  auto dir = test::temp_dir("corpus");
  std::filesystem::create_directories(dir / "sub");
  test::write_text(dir / "b.txt", "three four\n\nfive");
  test::write_text(dir / "sub" / "a.txt", "six");
  test::write_text(dir / ".hidden", "never read");
  test::write_text(dir / "a.txt", "one two\n");
  auto c = Corpus::open({(dir / "a.txt").string(), dir.string()});
  // a.txt given explicitly, then the directory in name order (a.txt again, b.txt, sub/a.txt).
  ASSERT_EQ(c.files().size(), 4u);
  const auto all = read_all(c, text::WordSplitter(), 0, c.bytes(), true);
  EXPECT_EQ(flat(all), (std::vector<std::string>{"one", "two", "one", "two", "three", "four", "five", "six"}));
  // A blank line is an empty sentence; a file's end ends a sentence.
  EXPECT_EQ(all[3], (std::vector<std::string>{}));
  EXPECT_EQ(all[4], (std::vector<std::string>{"five"}));
  std::filesystem::remove_all(dir);
}

TEST(Corpus, ByteRangesPartitionTheWordsExactly) {
  auto dir = test::temp_dir("ranges");
  std::string text;
  for (int i = 0; i < 3000; ++i) text += "word" + std::to_string(i) + ((i % 7 == 6) ? "\n" : "  ");
  test::write_text(dir / "x.txt", text.substr(0, 9000));
  test::write_text(dir / "y.txt", text.substr(9000));
  auto c = Corpus::open({dir.string()});
  const auto whole = flat(read_all(c, text::WordSplitter(), 0, c.bytes()));
  for (std::uint64_t parts : {2u, 3u, 7u, 64u}) {
    std::vector<std::string> joined;
    for (std::uint64_t p = 0; p < parts; ++p) {
      auto part = flat(read_all(c, text::WordSplitter(), c.bytes() * p / parts, c.bytes() * (p + 1) / parts));
      joined.insert(joined.end(), part.begin(), part.end());
    }
    EXPECT_EQ(joined, whole) << parts << " parts";
  }
  std::filesystem::remove_all(dir);
}

TEST(Corpus, PositionResumesIdentically) {
  auto dir = test::temp_dir("resume");
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "w" + std::to_string(i % 97) + ((i % 11 == 10) ? "\n" : " ");
  test::write_text(dir / "x.txt", text);
  auto c = Corpus::open({(dir / "x.txt").string()});
  CorpusReader r(c, text::WordSplitter(), 0, c.bytes(), true, 4);  // sentences cut at 4 tokens too
  Sentence s;
  for (int i = 0; i < 300; ++i) ASSERT_TRUE(r.next_sentence(s));
  const auto rest_a = read_all(c, text::WordSplitter(), r.position(), c.bytes(), true);
  std::vector<std::vector<std::string>> rest_b;
  while (r.next_sentence(s)) {
    std::vector<std::string> line;
    for (std::size_t i = 0; i < s.size(); ++i) line.emplace_back(s[i]);
    rest_b.push_back(line);
  }
  EXPECT_EQ(flat(rest_a), flat(rest_b));
  std::filesystem::remove_all(dir);
}

TEST(Corpus, ChunkBoundariesDoNotSplitWords) {
  auto dir = test::temp_dir("chunks");
  std::string text;
  while (text.size() < (3u << 20)) text += "abcdefghij klmnopq\n";  // three 1 MiB chunks
  test::write_text(dir / "x.txt", text);
  auto c = Corpus::open({(dir / "x.txt").string()});
  CorpusReader r(c, text::WordSplitter(), 0, c.bytes(), true);
  Sentence s;
  std::size_t n = 0;
  while (r.next_sentence(s)) {
    ASSERT_EQ(s.size(), 2u);
    ASSERT_EQ(s[0], "abcdefghij");
    ASSERT_EQ(s[1], "klmnopq");
    ++n;
  }
  EXPECT_EQ(n, text.size() / 19);
  std::filesystem::remove_all(dir);
}

TEST(Corpus, MissingAndEmptyInputsAreErrors) {
  EXPECT_THROW(Corpus::open({"/nonexistent/corpus.txt"}), IoError);
  EXPECT_THROW(Corpus::open({}), UsageError);
  auto dir = test::temp_dir("empty");
  test::write_text(dir / "e.txt", "");
  EXPECT_THROW(Corpus::open({(dir / "e.txt").string()}), InputError);
  std::filesystem::remove_all(dir);
}

}  // namespace test_corpus
