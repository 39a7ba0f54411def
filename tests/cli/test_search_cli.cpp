// `lumen neighbours|analogy|similarity|doesnt-match`: JSON shape, stdin batches, gensim parity through the
// binary, --approx with a saved index, and exit codes (1 unknown word with suggestions, 2 bad usage).
#include <gtest/gtest.h>

#include "cli_run.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace test_search_cli {

using lumen_cli::CliRun;
// Runs lumen with `args` (stderr joined to stdout if `with_stderr`); `input` (if any) arrives on stdin.
CliRun lumen(const std::string& args, const std::string& input = "", bool with_stderr = false) {
  return lumen_cli::run_cli(args, {.input = input, .merge_stderr = with_stderr});
}

std::vector<nlohmann::json> json_lines(const std::string& out) {
  std::vector<nlohmann::json> v;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) v.push_back(nlohmann::json::parse(line));
  return v;
}

const std::string kLee = std::string(LUMEN_DATA_DIR) + "/formats/lee_fasttext.vec";  // 1762 x 10

const nlohmann::json& lee_expected() {
  static const nlohmann::json j = [] {
    std::ifstream in(LUMEN_SOURCE_DIR "/tests/data/search/gensim_expected.json");
    const nlohmann::json all = nlohmann::json::parse(in);
    for (const auto& t : all["tables"])
      if (t["file"] == "lee_fasttext.vec") return t;
    return nlohmann::json();
  }();
  return j;
}

std::vector<std::string> tokens(const nlohmann::json& list) {
  std::vector<std::string> v;
  for (const auto& x : list) v.push_back(x.is_array() ? x[0].get<std::string>() : x["token"].get<std::string>());
  return v;
}

TEST(CliNeighbours, JsonMatchesGensim) {
  const auto& q = lee_expected()["neighbours"][3];
  const std::string word = q["query"].get<std::string>();
  CliRun r = lumen("neighbours " + kLee + " " + word + " -k 10 --json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["query"], word);
  ASSERT_EQ(j["neighbours"].size(), 10u);
  EXPECT_EQ(tokens(j["neighbours"]), tokens(q["neighbours"]));
  for (std::size_t i = 0; i < 10; ++i) {
    EXPECT_NEAR(j["neighbours"][i]["score"].get<double>(), q["neighbours"][i][1].get<double>(), 1e-5);
    EXPECT_TRUE(j["neighbours"][i]["id"].is_number_integer());
  }
}

TEST(CliNeighbours, StdinBatchTextMetricsRestrictKeepQuery) {
  CliRun r = lumen("neighbours " + kLee + " -k 3 --json", "the\nof\nand\n");
  ASSERT_EQ(r.code, 0) << r.out;
  auto lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[1]["query"], "of");
  EXPECT_EQ(lines[1]["neighbours"].size(), 3u);
  for (const auto& l : lines)
    for (const auto& n : l["neighbours"]) EXPECT_NE(n["token"], l["query"]);  // the query itself is left out

  CliRun keep = lumen("neighbours " + kLee + " the -k 1 --keep-query --json");
  ASSERT_EQ(keep.code, 0);
  EXPECT_EQ(nlohmann::json::parse(keep.out)["neighbours"][0]["token"], "the");

  CliRun restricted = lumen("neighbours " + kLee + " the -k 5 --restrict 20 --metric euclidean --json");
  ASSERT_EQ(restricted.code, 0);
  auto j = nlohmann::json::parse(restricted.out);
  EXPECT_EQ(j["metric"], "euclidean");
  double last = 0;
  for (const auto& n : j["neighbours"]) {
    EXPECT_LT(n["id"].get<int>(), 20);
    EXPECT_GE(n["score"].get<double>(), last);  // distances, nearest first
    last = n["score"].get<double>();
  }

  CliRun text = lumen("neighbours " + kLee + " the -k 2");
  ASSERT_EQ(text.code, 0);
  EXPECT_NE(text.out.find("neighbours of 'the' (cosine)"), std::string::npos) << text.out;
}

TEST(CliNeighbours, ApproxWithSavedIndexAgreesWithExact) {
  const std::string index =
      (std::filesystem::temp_directory_path() / ("lumen_cli_" + std::to_string(::getpid()) + ".hnsw")).string();
  std::filesystem::remove(index);
  CliRun exact = lumen("neighbours " + kLee + " the -k 5 --json");
  CliRun built = lumen("neighbours " + kLee + " the -k 5 --approx --index " + index + " --json");
  ASSERT_EQ(built.code, 0) << built.out;
  EXPECT_TRUE(std::filesystem::exists(index));
  CliRun loaded = lumen("neighbours " + kLee + " the -k 5 --approx --index " + index + " --ef 200 --json");
  ASSERT_EQ(loaded.code, 0) << loaded.out;
  auto e = nlohmann::json::parse(exact.out), b = nlohmann::json::parse(built.out),
       l = nlohmann::json::parse(loaded.out);
  EXPECT_TRUE(l["approx"].get<bool>());
  EXPECT_EQ(tokens(l["neighbours"]), tokens(e["neighbours"]));  // 1762 rows, ef 200: the graph finds them all
  EXPECT_EQ(tokens(b["neighbours"]), tokens(e["neighbours"]));
  // An index built for another metric is refused, not silently used.
  CliRun wrong = lumen("neighbours " + kLee + " the --metric euclidean --approx --index " + index);
  EXPECT_EQ(wrong.code, 1);
  std::filesystem::remove(index);
}

TEST(CliNeighbours, UnknownWordAndBadUsage) {
  CliRun r = lumen("neighbours " + kLee + " thr", "", true);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("thr"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the"), std::string::npos) << r.out;  // suggested spelling
  EXPECT_EQ(lumen("neighbours " + kLee + " the --metric manhattan").code, 2);
  EXPECT_EQ(lumen("neighbours " + kLee + " the -k 0").code, 2);
  EXPECT_EQ(lumen("neighbours " + kLee + " the --ef 10").code, 2);  // --ef without --approx
  EXPECT_EQ(lumen("neighbours " + kLee + " < /dev/null").code, 2);
  // In a stdin batch the unknown word fails its own line; the others are answered; exit 1.
  CliRun batch = lumen("neighbours " + kLee + " -k 2 --json", "the\nzzzzqqq\nof\n");
  EXPECT_EQ(batch.code, 1);
  auto lines = json_lines(batch.out);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_TRUE(lines[1].contains("error"));
  EXPECT_EQ(lines[2]["neighbours"].size(), 2u);
}

TEST(CliAnalogy, MatchesGensimAddAndMul) {
  const auto& q = lee_expected()["analogies"][1];
  const std::string abc = q["a"].get<std::string>() + " " + q["b"].get<std::string>() + " " + q["c"].get<std::string>();
  CliRun add = lumen("analogy " + kLee + " " + abc + " --json");
  ASSERT_EQ(add.code, 0) << add.out;
  auto j = nlohmann::json::parse(add.out);
  EXPECT_EQ(tokens(j["answers"]), tokens(q["add"]));
  EXPECT_EQ(j["method"], "add");
  CliRun mul = lumen("analogy " + kLee + " " + abc + " --method mul --json");
  ASSERT_EQ(mul.code, 0);
  auto m = nlohmann::json::parse(mul.out);
  EXPECT_EQ(tokens(m["answers"]), tokens(q["mul"]));
  EXPECT_NEAR(m["answers"][0]["score"].get<double>(), q["mul"][0][1].get<double>(), 1e-5);
  // --expect reports the rank of the expected answer: gensim's third answer has rank 3.
  const std::string third = q["add"][2][0].get<std::string>();
  CliRun ex = lumen("analogy " + kLee + " " + abc + " --expect " + third + " --json");
  ASSERT_EQ(ex.code, 0);
  EXPECT_EQ(nlohmann::json::parse(ex.out)["rank"].get<int>(), 3);
}

TEST(CliAnalogy, NoExcludeStdinAndErrors) {
  CliRun raw = lumen("analogy " + kLee + " the of and --no-exclude -k 20 --json");
  ASSERT_EQ(raw.code, 0);
  auto j = nlohmann::json::parse(raw.out);
  EXPECT_FALSE(j["exclude_inputs"].get<bool>());
  bool input_seen = false;
  for (const auto& a : j["answers"]) input_seen = input_seen || a["token"] == "and" || a["token"] == "of";
  EXPECT_TRUE(input_seen);  // the raw ranking contains the inputs
  CliRun batch = lumen("analogy " + kLee + " --json -k 2", "the of and\nin to a is\n");
  ASSERT_EQ(batch.code, 0) << batch.out;
  auto lines = json_lines(batch.out);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_TRUE(lines[1]["rank"].is_number_integer() || lines[1]["rank"].is_null());
  EXPECT_EQ(lumen("analogy " + kLee + " the of").code, 2);
  EXPECT_EQ(lumen("analogy " + kLee + " the of and --method sub").code, 2);
  EXPECT_EQ(lumen("analogy " + kLee + " the of xqxqxq").code, 1);
}

TEST(CliSimilarityAndDoesntMatch, MatchGensim) {
  const auto& s = lee_expected()["similarity"][1];
  CliRun r =
      lumen("similarity " + kLee + " " + s["w1"].get<std::string>() + " " + s["w2"].get<std::string>() + " --json");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NEAR(nlohmann::json::parse(r.out)["score"].get<double>(), s["score"].get<double>(), 1e-5);
  CliRun batch = lumen("similarity " + kLee + " --json", "the of\nof the\n");
  ASSERT_EQ(batch.code, 0);
  auto lines = json_lines(batch.out);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0]["score"], lines[1]["score"]);  // symmetric
  EXPECT_EQ(lumen("similarity " + kLee + " the").code, 2);
  EXPECT_EQ(lumen("similarity " + kLee + " the qqqzzz").code, 1);

  const auto& d = lee_expected()["doesnt_match"][1];
  std::string words;
  for (const auto& w : d["words"]) words += " " + w.get<std::string>();
  CliRun dm = lumen("doesnt-match " + kLee + words + " --json");
  ASSERT_EQ(dm.code, 0) << dm.out;
  auto dj = nlohmann::json::parse(dm.out);
  EXPECT_EQ(dj["doesnt_match"], d["answer"]);
  EXPECT_EQ(dj["scores"].size(), d["words"].size());
  CliRun text = lumen("doesnt-match " + kLee + words);
  EXPECT_NE(text.out.find("doesn't match: " + d["answer"].get<std::string>()), std::string::npos) << text.out;
  EXPECT_EQ(lumen("doesnt-match " + kLee + " the").code, 2);
}

// A 4-row table whose row 'bad' holds a NaN; removed when the test ends.
struct NanTable {
  std::string path = lumen_cli::detail::temp_file("4 3\ngood 1 0 0\nbad nan 1 0\nnear 0.9 0.1 0\nfar -1 0.2 0\n");
  NanTable() = default;
  NanTable(const NanTable&) = delete;
  NanTable& operator=(const NanTable&) = delete;
  ~NanTable() { std::filesystem::remove(path); }
};

TEST(CliNanRows, SimilarityIsNanNeverZeroJsonNull) {
  NanTable t;
  for (const std::string pair : {"good bad", "bad good", "bad bad"})
    for (const std::string metric : {"cosine", "dot", "euclidean"}) {
      SCOPED_TRACE(pair + " " + metric);
      CliRun text = lumen("similarity " + t.path + " " + pair + " --metric " + metric);
      ASSERT_EQ(text.code, 0) << text.err;
      EXPECT_NE(text.out.find(": nan\n"), std::string::npos) << text.out;  // "nan", never "-nan" or "0.000000"
      CliRun json = lumen("similarity " + t.path + " " + pair + " --metric " + metric + " --json");
      ASSERT_EQ(json.code, 0);
      EXPECT_TRUE(nlohmann::json::parse(json.out)["score"].is_null()) << json.out;
    }
  CliRun fine = lumen("similarity " + t.path + " good near --json");
  EXPECT_TRUE(nlohmann::json::parse(fine.out)["score"].is_number());
}

TEST(CliNanRows, NeighboursRankTheNanRowLastAndShowIt) {
  NanTable t;
  CliRun all = lumen("neighbours " + t.path + " good -k 3 --json");
  ASSERT_EQ(all.code, 0) << all.err;
  const auto n = nlohmann::json::parse(all.out)["neighbours"];
  ASSERT_EQ(n.size(), 3u);
  EXPECT_EQ(n[0]["token"], "near");
  EXPECT_EQ(n[1]["token"], "far");
  EXPECT_EQ(n[2]["token"], "bad");  // last, not first, and not dropped
  EXPECT_TRUE(n[2]["score"].is_null());
  CliRun top = lumen("neighbours " + t.path + " good -k 1 --json");
  EXPECT_EQ(nlohmann::json::parse(top.out)["neighbours"][0]["token"], "near");
  CliRun text = lumen("neighbours " + t.path + " good -k 3");
  EXPECT_NE(text.out.find("  bad          nan  (id 1)"), std::string::npos) << text.out;
  // The NaN row as the query: every score is NaN, and stderr says why.
  CliRun from_bad = lumen("neighbours " + t.path + " bad -k 2 --json");
  ASSERT_EQ(from_bad.code, 0);
  const auto parsed = nlohmann::json::parse(from_bad.out);  // kept: a range-for over a temporary's member dangles
  for (const auto& x : parsed["neighbours"]) EXPECT_TRUE(x["score"].is_null());
  EXPECT_NE(from_bad.err.find("'bad' has NaN or Inf in its row"), std::string::npos) << from_bad.err;
}

TEST(CliNanRows, AnalogyAndDoesntMatch) {
  NanTable t;
  CliRun a = lumen("analogy " + t.path + " good near far --json");
  ASSERT_EQ(a.code, 0) << a.err;
  const auto answers = nlohmann::json::parse(a.out)["answers"];
  ASSERT_EQ(answers.size(), 1u);  // the only row that is not an input: there, with no score
  EXPECT_EQ(answers[0]["token"], "bad");
  EXPECT_TRUE(answers[0]["score"].is_null());
  CliRun mul = lumen("analogy " + t.path + " good near far --method mul");
  EXPECT_NE(mul.out.find("nan"), std::string::npos) << mul.out;

  CliRun dm = lumen("doesnt-match " + t.path + " good near bad --json");
  ASSERT_EQ(dm.code, 0) << dm.err;
  const auto j = nlohmann::json::parse(dm.out);
  EXPECT_TRUE(j["doesnt_match"].is_null()) << dm.out;  // no word can be picked from NaN cosines
  for (const auto& s : j["scores"]) EXPECT_TRUE(s["score"].is_null());
  CliRun dt = lumen("doesnt-match " + t.path + " good near bad");
  EXPECT_NE(dt.out.find("doesn't match: none"), std::string::npos) << dt.out;
  EXPECT_EQ(dt.out.find("-nan"), std::string::npos) << dt.out;
  EXPECT_NE(dt.err.find("'bad' has NaN or Inf"), std::string::npos) << dt.err;
}

TEST(CliSearchBounds, KBeyondTheTableIsClampedWithANote) {
  NanTable t;
  for (const std::string k : {"5", "1000000000000000000", "18446744073709551615"}) {
    CliRun r = lumen("neighbours " + t.path + " good -k " + k + " --json");
    ASSERT_EQ(r.code, 0) << r.err;  // never an allocation of k entries (exit 3)
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["neighbours"].size(), 3u);
    EXPECT_EQ(j["k"], 4);
    EXPECT_EQ(j["k_requested"].dump(), k);
    EXPECT_NE(r.err.find("more than the 4 rows searched"), std::string::npos) << r.err;
    CliRun a = lumen("analogy " + t.path + " good near far -k " + k + " --json");
    ASSERT_EQ(a.code, 0) << a.err;
    EXPECT_EQ(nlohmann::json::parse(a.out)["k_requested"].dump(), k);
    EXPECT_NE(a.err.find("more than the 4 rows searched"), std::string::npos) << a.err;
  }
  EXPECT_FALSE(nlohmann::json::parse(lumen("neighbours " + t.path + " good -k 2 --json").out).contains("k_requested"));
  // Bounds errors name the bound, not CLI11's 309-digit largest double.
  for (const std::string& cmd : {"neighbours " + t.path + " good -k 0", "analogy " + t.path + " good near far -k 0"}) {
    CliRun r = lumen(cmd);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("must be at least 1 (got 0)"), std::string::npos) << r.err;
    EXPECT_LT(r.err.size(), 200u) << r.err;
  }
}

}  // namespace test_search_cli
