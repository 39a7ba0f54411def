// `lumen info`: format, V x d, dtype, bytes, row norms, NaN/Inf and duplicates, as text and JSON; exit codes
// and messages for bad tables.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "cli_run.hpp"
#include "support/gguf_builder.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>

namespace test_info {

using lumen_cli::CliRun;
CliRun lumen(const std::string& args) { return lumen_cli::run_cli(args); }

std::string formats() { return std::string(LUMEN_DATA_DIR) + "/formats/"; }

std::string write_tmp(const std::string& name, const std::string& bytes) {
  const auto p =
      std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "-" + name);  // one name per test process
  std::ofstream(p, std::ios::binary) << bytes;
  return p.string();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(CliInfo, JsonForEverySample) {
  const std::pair<const char*, const char*> want[] = {{"test_glove.txt", "glove"},
                                                      {"lee_fasttext.vec", "word2vec-text"},
                                                      {"crime-and-punishment.vec", "word2vec-text"},
                                                      {"word2vec_pre_kv_c", "word2vec-text"},
                                                      {"euclidean_vectors.bin", "word2vec-binary"},
                                                      {"crime-and-punishment.bin", "fasttext-bin"}};
  for (auto [file, format] : want) {
    const CliRun r = lumen("info " + formats() + file + " --json");
    ASSERT_EQ(r.code, 0) << file << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["format"], format) << file;
    EXPECT_EQ(j["dtype"], "f32");
    EXPECT_EQ(j["bytes"].get<std::size_t>(), j["V"].get<std::size_t>() * j["d"].get<std::size_t>() * 4);
    EXPECT_LE(j["norm"]["min"].get<double>(), j["norm"]["median"].get<double>());
    EXPECT_LE(j["norm"]["median"].get<double>(), j["norm"]["max"].get<double>());
    EXPECT_GT(j["norm"]["max"].get<double>(), 0.0);
    EXPECT_EQ(j["nan"], 0);
    EXPECT_EQ(j["inf"], 0);
    // How far the rows point one way: a cosine in this table reads against its random pairs' mean.
    const auto& an = j["anisotropy"];
    ASSERT_TRUE(an.is_object()) << file;
    EXPECT_EQ(an["rows"], j["V"]) << file;
    EXPECT_GT(an["pairs"].get<std::size_t>(), 0u);
    EXPECT_GT(an["mean_cosine"].get<double>(), -1.0);
    EXPECT_LT(an["mean_cosine"].get<double>(), 1.0);
    EXPECT_GT(an["top_direction"].get<double>(), 1.0 / j["d"].get<double>() - 1e-9) << file;
    EXPECT_LE(an["top_direction"].get<double>(), 1.0);
  }
  const auto j = nlohmann::json::parse(lumen("info " + formats() + "test_glove.txt --json").out);
  EXPECT_EQ(j["V"], 76);
  EXPECT_EQ(j["d"], 50);
}

TEST(CliInfo, TextOutputAndOptions) {
  const CliRun r = lumen("info " + formats() + "lee_fasttext.vec --dtype f16 --limit 100");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("word2vec-text"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rows (V)    100"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("dim (d)     10"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("dtype       f16"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bytes       2000"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("row norm"), std::string::npos);
  EXPECT_NE(r.out.find("anisotropy  random pairs' cosine"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(isotropic: 10.0%)"), std::string::npos) << r.out;
  // --format overrides detection: a word2vec text file read as GloVe has a 2-field first row
  const CliRun g = lumen("info " + formats() + "lee_fasttext.vec --format glove");
  EXPECT_EQ(g.code, 1);
  EXPECT_NE(g.err.find("lee_fasttext.vec:2:"), std::string::npos) << g.err;
}

TEST(CliInfo, CountsNanInfAndDuplicates) {
  const std::string p = write_tmp("lumen-info-nan.txt", "4 2\na nan 1\nb 3 4\na 1 1\nc inf 0\n");
  const CliRun r = lumen("info " + p + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["V"], 3);
  EXPECT_EQ(j["duplicates"], 1);
  EXPECT_EQ(j["first_duplicate"], "a");
  EXPECT_EQ(j["nan"], 1);
  EXPECT_EQ(j["inf"], 1);
  EXPECT_EQ(j["nonfinite_rows"], 2);
  EXPECT_DOUBLE_EQ(j["norm"]["max"].get<double>(), 5.0);
  EXPECT_TRUE(j["anisotropy"].is_null()) << r.out;  // 'b' alone is finite: no pair to measure
  EXPECT_NE(r.err.find("1 duplicate word"), std::string::npos) << r.err;
  std::filesystem::remove(p);
}

// The rows holding NaN/Inf are named (the first few in text, all up to a bound in JSON), and the file's stored
// dtype is shown beside the one lumen computes in.
TEST(CliInfo, NamesNonFiniteRowsAndTheFileDtype) {
  const std::string p = write_tmp("lumen-info-nan-rows.txt", "4 2\na nan 1\nb 3 4\nc 1 inf\nd 1 1\n");
  CliRun r = lumen("info " + p + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["nonfinite"].size(), 2u) << r.out;
  EXPECT_EQ(j["nonfinite"][0]["word"], "a");
  EXPECT_EQ(j["nonfinite"][1]["word"], "c");
  EXPECT_EQ(j["nonfinite"][1]["id"], 2);
  EXPECT_EQ(j["nonfinite_truncated"], false);
  EXPECT_EQ(j["file_dtype"], "text");
  r = lumen("info " + p);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("'a' (row 0), 'c' (row 2)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("dtype       f32 (file: decimal text)"), std::string::npos) << r.out;
  // many such rows: the text names five and counts the rest
  std::string many = "8 1\n";
  for (int i = 0; i < 8; ++i) many += "w" + std::to_string(i) + " nan\n";
  const std::string m = write_tmp("lumen-info-nan-many.txt", many);
  r = lumen("info " + m);
  EXPECT_NE(r.out.find("'w4' (row 4) and 3 more"), std::string::npos) << r.out;
  // an f16 .npy is f16 in the file, f32 in lumen
  std::string h = "{'descr': '<f2', 'fortran_order': False, 'shape': (1, 2), }";
  while ((10 + h.size() + 1) % 64 != 0) h.push_back(' ');
  h.push_back('\n');
  std::string npy = std::string("\x93NUMPY\x01\x00", 8) + static_cast<char>(h.size()) + '\0' + h;
  npy += std::string("\x00\x3c\x00\xc0", 4);
  const std::string n = write_tmp("lumen-info-f16.npy", npy);
  r = lumen("info " + n + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["dtype"], "f32");
  EXPECT_EQ(j["file_dtype"], "f16");
  for (auto& f : {p, m, n}) std::filesystem::remove(f);
}

// A FIFO given as a table is refused at once (exit 1), never waited on.
TEST(CliInfo, FifoIsRefusedNotWaitedOn) {
  const auto fifo = std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "-lumen-info-fifo.vec");
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  lumen_cli::CliOptions o;
  o.timeout_s = 10;
  const CliRun r = lumen_cli::run_cli("info " + fifo.string(), o);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("a FIFO, not a regular file"), std::string::npos) << r.err;
  std::filesystem::remove(fifo);
}

// --cache DIR (or LUMEN_CACHE): the second open maps what the first parsed; an unwritable cache only warns.
TEST(CliInfo, CacheOptionAndEnvironment) {
  const auto dir = std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "-lumen-info-cache");
  std::filesystem::remove_all(dir);
  const std::string p = write_tmp("lumen-info-cached.vec", "2 2\na 1 2\nb 3 4\n");
  CliRun r = lumen("info " + p + " --json --cache " + dir.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["from_cache"], false);
  lumen_cli::CliOptions env;
  env.env = "LUMEN_CACHE=" + dir.string();
  r = lumen_cli::run_cli("info " + p + " --json", env);
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["from_cache"], true);
  EXPECT_EQ(j["V"], 2);
  const std::string blocker = write_tmp("lumen-info-cache-blocker", "x");
  r = lumen("info " + p + " --cache " + blocker + "/sub");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("lumen: warning: table cache not used"), std::string::npos) << r.err;
  std::filesystem::remove_all(dir);
  for (auto& f : {p, blocker}) std::filesystem::remove(f);
}

// A shared LUMEN_CACHE: a symlink planted under an entry's name is not written through (the file it names keeps
// its bytes), and a cache directory that is itself a symlink is not used, with a warning that says so.
TEST(CliInfo, ACacheDirectoryOthersCanWriteIntoCannotRedirectWrites) {
  const auto dir = std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "-lumen-shared-cache");
  std::filesystem::remove_all(dir);
  const std::string p = write_tmp("lumen-info-shared.vec", "2 2\na 1 2\nb 3 4\n");
  const std::string victim = write_tmp("lumen-info-victim.txt", "precious");
  ASSERT_EQ(lumen("info " + p + " --cache " + dir.string()).code, 0);
  std::string entry;
  for (const auto& e : std::filesystem::directory_iterator(dir)) entry = e.path().string();
  ASSERT_FALSE(entry.empty());
  std::filesystem::remove(entry);
  std::filesystem::create_symlink(victim, entry);
  lumen_cli::CliOptions env;
  env.env = "LUMEN_CACHE=" + dir.string();
  CliRun r = lumen_cli::run_cli("info " + p + " --json", env);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["V"], 2);
  EXPECT_EQ(read_file(victim), "precious");
  EXPECT_TRUE(std::filesystem::is_regular_file(std::filesystem::symlink_status(entry)));
  const auto link = dir.string() + "-link";
  std::filesystem::remove(link);
  std::filesystem::create_directory_symlink(dir, link);
  r = lumen("info " + p + " --cache " + link);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("lumen: warning: table cache not used, the table was parsed: the cache directory " + link +
                       " is a symlink"),
            std::string::npos)
      << r.err;
  std::filesystem::remove(link);
  std::filesystem::remove_all(dir);
  for (auto& f : {p, victim}) std::filesystem::remove(f);
}

TEST(CliInfo, BadTablesExitOneWithWhere) {
  const std::string trunc = write_tmp("lumen-info-trunc.txt", "3 2\na 1 2\nb 1 2\n");
  CliRun r = lumen("info " + trunc);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find(trunc + ":4:"), std::string::npos) << r.err;
  const std::string huge = write_tmp("lumen-info-huge.txt", "1000000000000 3\nthe 1 2 3\n");
  r = lumen("info " + huge);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("the header promises 1000000000000 rows, the file has 1"), std::string::npos) << r.err;
  const std::string empty = write_tmp("lumen-info-empty.txt", "");
  r = lumen("info " + empty);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("empty file"), std::string::npos) << r.err;
  r = lumen("info /nonexistent/table.txt");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("cannot open"), std::string::npos) << r.err;
  r = lumen("info " + trunc + " --format nope");
  EXPECT_EQ(r.code, 2);
  r = lumen("info " + trunc + " --unicode-errors sometimes");
  EXPECT_EQ(r.code, 2);
  for (auto& p : {trunc, huge, empty}) std::filesystem::remove(p);
}

TEST(CliInfo, UnicodeErrorsOption) {
  const std::string p = write_tmp("lumen-info-utf8.txt", "1 1\nbad\xff 1\n");
  CliRun r = lumen("info " + p);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("invalid UTF-8"), std::string::npos) << r.err;
  r = lumen("info " + p + " --unicode-errors replace --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["repaired_tokens"], 1);
  std::filesystem::remove(p);
}

// A GGUF model's token table (here Q8_0, as llama.cpp quantises one): detected by its magic, dequantised, labelled
// by tokenizer.ggml.tokens, searchable, convertible to a format lumen writes, and never written as GGUF.
TEST(CliInfo, GgufTokenTable) {
  const std::vector<std::string> tokens = {"king", "queen", "apple", "pear"};
  std::string data;
  for (int r = 0; r < 4; ++r) {
    const std::uint16_t one = 0x3C00;  // the block's scale, 1.0 as f16
    data.append(reinterpret_cast<const char*>(&one), 2);
    for (int i = 0; i < 32; ++i) {
      const int sign = r < 2 ? 1 : (i % 2 ? -1 : 1);
      data.push_back(static_cast<char>(sign * (10 + (r % 2) * (i % 3) + i / 4)));
    }
  }
  lumen::test::GgufBuilder g;
  g.add_string("general.architecture", "llama");
  g.add_strings("tokenizer.ggml.tokens", tokens);
  g.tensors.push_back({"token_embd.weight", {32, 4}, 8, data});
  const std::string path = write_tmp("q8.gguf", g.bytes());
  const CliRun info = lumen("info " + path + " --json");
  ASSERT_EQ(info.code, 0) << info.err;
  const auto j = nlohmann::json::parse(info.out);
  EXPECT_EQ(j["format"], "gguf");
  EXPECT_EQ(j["file_dtype"], "Q8_0");
  EXPECT_EQ(j["V"], 4);
  EXPECT_EQ(j["d"], 32);
  EXPECT_THAT(lumen("info " + path).out, ::testing::HasSubstr("file: Q8_0"));
  const CliRun n = lumen("neighbours " + path + " king -k 1 --json");
  ASSERT_EQ(n.code, 0) << n.err;
  EXPECT_THAT(n.out, ::testing::HasSubstr("\"queen\""));
  EXPECT_THAT(n.out, ::testing::Not(::testing::HasSubstr("\"apple\"")));
  const std::string vec = path + ".vec";
  ASSERT_EQ(lumen("convert " + path + " " + vec).code, 0);
  EXPECT_EQ(read_file(vec).substr(0, 5), "4 32\n");
  // The first row, dequantised (scale 1): 10 + i / 4.
  EXPECT_EQ(read_file(vec).substr(5, 13), "king 10 10 10");
  const CliRun refused = lumen("convert " + path + " " + path + ".out.gguf");
  EXPECT_EQ(refused.code, 1);  // a .gguf output is a model; this file holds only a token table
  EXPECT_THAT(refused.err, ::testing::HasSubstr("in the metadata"));
  EXPECT_FALSE(std::filesystem::exists(path + ".out.gguf"));
  std::filesystem::remove(vec);
  std::filesystem::remove(path);
}

}  // namespace test_info
