// `lumen project`: every output by extension, the honesty numbers in text and JSON, the toy table, stdin word
// lists, and exit codes for bad input (1) and bad usage (2), leaving no output behind on failure.
#include <gtest/gtest.h>

#include "cli_run.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/wait.h>

namespace test_project {

using Outcome = lumen_cli::CliRun;
Outcome lumen(const std::string& args) { return lumen_cli::run_cli(args); }

std::string slurp(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

struct Dir {
  std::filesystem::path p;
  Dir() {
    std::string t = (std::filesystem::temp_directory_path() / "lumen-project-XXXXXX").string();
    p = ::mkdtemp(t.data());
  }
  ~Dir() { std::filesystem::remove_all(p); }
  std::string operator/(const std::string& f) const { return (p / f).string(); }
};

const std::string kVec = std::string(LUMEN_DATA_DIR) + "/formats/crime-and-punishment.vec";

TEST(CliProject, PcaOfTheToyTableAsCsv) {
  Dir d;
  const Outcome r = lumen("project toy --method pca -o " + (d / "toy.csv"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("the two axes hold 100.0% of the variance"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("10-NN kept from the original space"), std::string::npos) << r.out;
  const std::string csv = slurp(d / "toy.csv");
  EXPECT_EQ(csv.rfind("token,x,y\n", 0), 0u);
  EXPECT_EQ(lines(csv), 31u);
  EXPECT_NE(csv.find("\nqueen,"), std::string::npos);
}

TEST(CliProject, JsonOnStdoutCarriesPointsAndHonestyNumbers) {
  const Outcome r = lumen("project toy --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["method"], "pca");
  ASSERT_EQ(j["points"].size(), 30u);
  EXPECT_NEAR(j["variance_kept"].get<double>(), 1.0, 1e-6);
  EXPECT_EQ(j["k"], 10);
  EXPECT_TRUE(j["agreement"].is_null());
  EXPECT_TRUE(j["points"][0].contains("token"));
  EXPECT_TRUE(j["points"][0].contains("x"));
}

TEST(CliProject, TsneWithSeedsReportsAgreementAndDrawsAPng) {
  Dir d;
  const Outcome r =
      lumen("project " + kVec + " --method tsne --seeds 2 --iterations 300 --highlight man,landlady --json -o " +
            (d / "map.png"));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["method"], "tsne");
  EXPECT_EQ(j["points"], 291);
  ASSERT_EQ(j["kl"].size(), 2u);
  EXPECT_EQ(j["seeds"], nlohmann::json::parse("[1,2]"));
  ASSERT_TRUE(j["agreement"].is_number());
  EXPECT_GE(j["agreement"].get<double>(), 0.0);
  EXPECT_LE(j["agreement"].get<double>(), 1.0);
  EXPECT_EQ(j["knn_preservation"].size(), 2u);
  EXPECT_EQ(j["caption"].size(), 4u);
  const std::string png = slurp(d / "map.png");
  ASSERT_GT(png.size(), 1000u);
  EXPECT_EQ(png.substr(1, 3), "PNG");
}

TEST(CliProject, SvgAndJsonFilesAndStdinWords) {
  Dir d;
  Outcome r = lumen("project toy --method tsne --iterations 200 --highlight queen,paris -o " + (d / "toy.svg"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("cluster sizes and the distances between clusters"), std::string::npos) << r.out;
  const std::string svg = slurp(d / "toy.svg");
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  r = lumen("project toy --top 12 --highlight parliament -o " + (d / "toy.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(slurp(d / "toy.json"));
  ASSERT_EQ(j["points"].size(), 13u);  // the first 12 rows and the highlighted word
  EXPECT_EQ(j["points"][12]["token"], "parliament");
  EXPECT_EQ(j["points"][12]["highlight"], true);
  std::ofstream(d / "words.txt") << "cat\ndog\nking\nqueen\ncat\n";
  r = lumen("project toy --words - < " + (d / "words.txt"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(lines(r.out), 5u) << r.out;  // header + 4 distinct words
}

TEST(CliProject, BadInputAndUsage) {
  Dir d;
  EXPECT_EQ(lumen("project toy -o " + (d / "x.bmp")).code, 2);
  EXPECT_EQ(lumen("project toy --method isomap").code, 2);
  EXPECT_EQ(lumen("project toy --top 5 --words " + (d / "w.txt")).code, 2);
  EXPECT_EQ(lumen("project toy --method pca --seeds 3").code, 2);
  EXPECT_EQ(lumen("project toy --theta 3").code, 2);
  const Outcome unknown = lumen("project toy --highlight kingg -o " + (d / "x.png"));
  EXPECT_EQ(unknown.code, 1);
  EXPECT_NE(unknown.err.find("kingg"), std::string::npos) << unknown.err;
  EXPECT_FALSE(std::filesystem::exists(d / "x.png"));
  EXPECT_EQ(lumen("project toy --words " + (d / "missing.txt")).code, 1);
  EXPECT_EQ(lumen("project " + (d / "missing.vec")).code, 1);
  const Outcome help = lumen("project --help");
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("Example"), std::string::npos);
}

// Rows holding a NaN or an infinity are left out of the map and named (PCA's eigensolver and t-SNE failed on them:
// exit 3); a table with fewer than 3 finite rows is exit 1.
TEST(CliProject, NonFiniteRowsAreLeftOutOfTheMapAndNamed) {
  Dir d;
  std::string table = "30 4\n";
  for (int i = 0; i < 30; ++i) {
    if (i == 4) table += "broken nan 0 0 0\n";
    else if (i == 7) table += "huge 0 inf 0 -inf\n";
    else
      table += "w" + std::to_string(i) + " " + std::to_string(std::sin(i)) + " " + std::to_string(std::cos(3 * i)) +
               " " + std::to_string(i % 5) + " " + std::to_string((i * 7) % 11) + "\n";
  }
  std::ofstream(d / "t.vec") << table;
  const std::string t = lumen_cli::detail::quote(d / "t.vec");
  for (const std::string method : {"pca", "tsne"}) {
    const Outcome j = lumen("project " + t + " --method " + method + " --perplexity 5 --json");
    ASSERT_EQ(j.code, 0) << method << "\n" << j.err;
    const auto doc = nlohmann::json::parse(j.out);
    EXPECT_EQ(doc["points"].size(), 28u) << method;
    EXPECT_EQ(doc["left_out"], nlohmann::json::array({4, 7})) << method;
    for (const auto& p : doc["points"]) {
      EXPECT_TRUE(std::isfinite(p["x"].get<double>()) && std::isfinite(p["y"].get<double>())) << method;
      EXPECT_NE(p["token"], "broken");
    }
    const Outcome c = lumen("project " + t + " --method " + method + " --perplexity 5");
    ASSERT_EQ(c.code, 0) << method << "\n" << c.err;
    EXPECT_EQ(lines(c.out), 29u) << c.out;  // the header and 28 rows
    EXPECT_NE(c.err.find("note: 2 words not mapped"), std::string::npos) << c.err;
    EXPECT_NE(c.err.find("broken, huge"), std::string::npos) << c.err;
    EXPECT_NE(c.err.find("2 rows left out of the map"), std::string::npos) << c.err;
  }
  std::ofstream(d / "few.vec") << "4 2\na 1 0\nb 0 1\nc nan 1\nd 1 inf\n";
  const Outcome few = lumen("project " + lumen_cli::detail::quote(d / "few.vec"));
  EXPECT_EQ(few.code, 1) << few.err;
  EXPECT_NE(few.err.find("at least 3 rows with finite values"), std::string::npos) << few.err;
}

}  // namespace test_project
