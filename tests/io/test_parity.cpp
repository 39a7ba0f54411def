// Every sample table loads with the values gensim reads from it; the fastText model gives the vectors
// `fasttext print-word-vectors` prints, for dictionary words and out-of-vocabulary words alike.
#include <cmath>
#include <cstdio>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/stat.h>

#include "io_test_util.hpp"
#include "lumen/io/fasttext.hpp"
#include "lumen/io/open.hpp"

namespace lumen::io {
namespace test_parity {

using namespace lumen::io::test;

nlohmann::json expected() { return nlohmann::json::parse(read_all(expected_dir() + "/gensim.json")); }

void expect_like_gensim(const Table& t, const nlohmann::json& e, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_EQ(t.V(), e["V"].get<std::size_t>());
  ASSERT_EQ(t.d(), e["d"].get<std::size_t>());
  for (const auto& row : e["rows"]) {
    const auto id = row["id"].get<std::size_t>();
    EXPECT_EQ(t.vocab.token(static_cast<Id>(id)), row["token"].get<std::string>());
    const auto bits = row["bits"].get<std::vector<std::uint32_t>>();
    for (std::size_t k = 0; k < bits.size(); ++k)
      EXPECT_EQ(std::bit_cast<std::uint32_t>(t.E.at(id, k)), bits[k]) << "row " << id << " value " << k;
  }
  EXPECT_EQ(fmt::format("{:016x}", tokens_hash(t)), e["tokens_fnv64"].get<std::string>());
  EXPECT_EQ(fmt::format("{:016x}", values_hash(t)), e["values_fnv64"].get<std::string>());
}

TEST(Parity, SampleTablesEqualGensim) {
  const auto all = expected();
  const std::map<std::string, Format> formats = {{"test_glove.txt", Format::glove},
                                                 {"lee_fasttext.vec", Format::word2vec_text},
                                                 {"crime-and-punishment.vec", Format::word2vec_text},
                                                 {"word2vec_pre_kv_c", Format::word2vec_text},
                                                 {"euclidean_vectors.bin", Format::word2vec_binary}};
  for (const auto& [name, format] : formats) {
    const std::string path = formats_dir() + "/" + name;
    EXPECT_EQ(detect_format(path), format) << name;
    LoadReport report;
    const Table t = open_table(path, {}, report);
    EXPECT_EQ(t.format, format_name(format));
    expect_like_gensim(t, all[name], name);
    OpenOptions lim;
    lim.limit = 10;
    expect_like_gensim(open_table(path, lim), all[name]["limit10"], name + " --limit 10");
  }
}

TEST(Parity, ParallelParseEqualsSerial) {
  // Enough rows for several line ranges; values with many digits so any misparse shows.
  ScratchDir dir;
  std::string text = "5000 3\n";
  for (int i = 0; i < 5000; ++i) text += fmt::format("w{} {} {} {}\n", i, i * 0.123456789, -i / 7.0, 1e-3 * i);
  const std::string path = dir.write("many.txt", text);
  OpenOptions one, many;
  one.threads = 1;
  many.threads = 7;
  const Table a = open_table(path, one), b = open_table(path, many);
  ASSERT_EQ(a.V(), 5000u);
  EXPECT_EQ(values_hash(a), values_hash(b));
  EXPECT_EQ(tokens_hash(a), tokens_hash(b));
  EXPECT_FLOAT_EQ(b.E.at(4999, 1), static_cast<float>(-4999 / 7.0));
}

struct FastTextExpected {
  std::vector<std::string> words;
  std::vector<std::vector<float>> vectors;
};

FastTextExpected fasttext_expected() {
  FastTextExpected e;
  std::istringstream in(read_all(expected_dir() + "/fasttext.tsv"));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto tab = line.find('\t');
    e.words.push_back(line.substr(0, tab));
    std::istringstream vs(line.substr(tab + 1));
    std::vector<float> v;
    float x;
    while (vs >> x) v.push_back(x);
    e.vectors.push_back(v);
  }
  return e;
}

// print-word-vectors prints each value with std::setprecision(5) (as %.5g): our f32 value printed the same way
// must give the same text, which holds only if the sums are bit-for-bit fastText's (or within rounding luck).
void expect_near_printed(const std::vector<float>& got, const std::vector<float>& printed, const std::string& w) {
  ASSERT_EQ(got.size(), printed.size()) << w;
  for (std::size_t k = 0; k < got.size(); ++k)
    EXPECT_EQ(fmt::format("{:.5g}", got[k]), fmt::format("{:.5g}", printed[k])) << w << " value " << k;
}

TEST(Parity, FastTextBinMatchesPrintWordVectors) {
  const std::string path = formats_dir() + "/crime-and-punishment.bin";
  EXPECT_EQ(detect_format(path), Format::fasttext_bin);
  const auto e = fasttext_expected();
  const auto model = FastTextModel::load(path);
  ASSERT_EQ(model.dim(), 5u);
  const Table t = open_table(path);
  ASSERT_EQ(t.V(), model.nwords());
  std::size_t oov = 0;
  for (std::size_t i = 0; i < e.words.size(); ++i) {
    expect_near_printed(model.word_vector(e.words[i]), e.vectors[i], e.words[i]);
    if (auto id = t.vocab.find(e.words[i])) {
      std::vector<float> row(t.d());
      t.E.row_f32(static_cast<std::size_t>(*id), row.data());
      expect_near_printed(row, e.vectors[i], e.words[i]);
    } else {
      ++oov;
    }
  }
  EXPECT_GE(oov, 5u);  // the OOV words came from character n-grams only
}

TEST(Parity, FastTextHashIsFnv1aWithSignExtension) {
  EXPECT_EQ(FastTextModel::hash(""), 2166136261u);
  EXPECT_EQ(FastTextModel::hash("a"), 0xe40c292cu);  // plain FNV-1a for ASCII
  // Bytes >= 0x80 are sign-extended (int8 -> uint32) before the xor: differs from plain FNV-1a.
  std::uint32_t plain = 2166136261u;
  plain = (plain ^ 0xd0u) * 16777619u;
  EXPECT_NE(FastTextModel::hash("\xd0"), plain);
  EXPECT_EQ(FastTextModel::hash("\xd0"), (2166136261u ^ 0xffffffd0u) * 16777619u);
}

TEST(Parity, FastTextLiveOracle) {
  struct stat st {};
  if (::stat("/usr/bin/fasttext", &st) != 0) GTEST_SKIP() << "/usr/bin/fasttext not installed";
  ScratchDir dir;
  const std::string model_path = formats_dir() + "/crime-and-punishment.bin";
  const std::vector<std::string> words = {"и", "Раскольников", "топор", "quickly", "ёлка", "</s>", "ab"};
  std::string input;
  for (auto& w : words) input += w + "\n";
  const std::string in = dir.write("words.txt", input);
  const std::string out = dir.file("out.txt");
  const std::string cmd = fmt::format("/usr/bin/fasttext print-word-vectors '{}' < '{}' > '{}'", model_path, in, out);
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::istringstream lines(read_all(out));
  const auto model = FastTextModel::load(model_path);
  std::string line;
  for (const auto& w : words) {
    ASSERT_TRUE(std::getline(lines, line)) << w;
    std::istringstream vs(line.substr(line.find(' ') + 1));
    std::vector<float> printed;
    float x;
    while (vs >> x) printed.push_back(x);
    expect_near_printed(model.word_vector(w), printed, w);
  }
}

}  // namespace test_parity
}  // namespace lumen::io
