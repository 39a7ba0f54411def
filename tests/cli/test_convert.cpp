// `lumen convert`: every output format by extension or --to, --dtype/--limit, values kept exactly (checked by
// reading the result back with `lumen info` and a second convert), and failures that leave no output behind.
#include <gtest/gtest.h>

#include "cli_run.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/wait.h>

namespace test_convert {

using lumen_cli::CliRun;
CliRun lumen(const std::string& args) { return lumen_cli::run_cli(args); }

std::string slurp(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Dir {
  std::filesystem::path p;
  Dir() {
    std::string t = (std::filesystem::temp_directory_path() / "lumen-convert-XXXXXX").string();
    p = ::mkdtemp(t.data());
  }
  ~Dir() { std::filesystem::remove_all(p); }
  std::string operator/(const std::string& f) const { return (p / f).string(); }
};

const std::string kVec = std::string(LUMEN_DATA_DIR) + "/formats/crime-and-punishment.vec";

TEST(CliConvert, EveryFormatAndBackIsByteIdentical) {
  Dir d;
  for (const char* out : {"t.bin", "t.safetensors", "t.npy", "vectors.tsv", "t.glove"}) {
    const CliRun r = lumen("convert " + kVec + " " + (d / out) + " --json");
    ASSERT_EQ(r.code, 0) << out << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["V"], 291);
    EXPECT_EQ(j["d"], 5);
    // back to word2vec text: the same bytes as converting the original directly
    const CliRun back = lumen("convert " + (d / out) + " " + (d / "back.txt"));
    ASSERT_EQ(back.code, 0) << out << back.err;
    const CliRun direct = lumen("convert " + kVec + " " + (d / "direct.txt"));
    ASSERT_EQ(direct.code, 0);
    EXPECT_EQ(slurp(d / "back.txt"), slurp(d / "direct.txt")) << out;
  }
  EXPECT_TRUE(std::filesystem::exists(d / "metadata.tsv"));
  EXPECT_TRUE(std::filesystem::exists(d / "t.vocab.txt"));
}

TEST(CliConvert, ToDtypeAndLimit) {
  Dir d;
  CliRun r = lumen("convert " + kVec + " " + (d / "x.data") + " --to safetensors --dtype bf16 --limit 10 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  r = lumen("info " + (d / "x.data") + " --dtype bf16 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["format"], "safetensors");
  EXPECT_EQ(j["V"], 10);
  EXPECT_EQ(j["dtype"], "bf16");
  EXPECT_EQ(j["mapped"], true);
  EXPECT_EQ(j["tensor"], "wte.weight");
  // Text output names both files
  r = lumen("convert " + kVec + " " + (d / "vectors.tsv"));
  ASSERT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("metadata.tsv"), std::string::npos) << r.out;
}

TEST(CliConvert, FailuresLeaveNothingBehind) {
  Dir d;
  const std::string bad = d / "bad.txt";
  std::ofstream(bad) << "2 2\na 1 2\nb 1\n";
  CliRun r = lumen("convert " + bad + " " + (d / "out.safetensors"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("bad.txt:3:"), std::string::npos) << r.err;
  r = lumen("convert " + kVec + " " + (d / "out.unknown"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--to"), std::string::npos) << r.err;
  r = lumen("convert " + kVec + " " + (d / "out.bin") + " --to fasttext-bin");
  EXPECT_EQ(r.code, 2);
  r = lumen("convert " + kVec + " /nonexistent-dir/out.txt");
  EXPECT_EQ(r.code, 1);
  std::size_t files = 0;
  for ([[maybe_unused]] auto& e : std::filesystem::directory_iterator(d.p)) ++files;
  EXPECT_EQ(files, 1u);  // only bad.txt
  r = lumen("convert --help");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("Example"), std::string::npos);
}

// f16 holds at most 65504 and nothing nonzero below 2^-25; bf16 has f32's range but not its subnormals. Values
// that become Inf or 0 are counted on stderr and in --json; --strict refuses them (exit 1, nothing written).
TEST(CliConvert, NarrowingThatLosesValuesSaysHowManyAndStrictRefuses) {
  Dir d;
  const std::string in = d / "in.vec";
  std::ofstream(in) << "4 3\na 100000 0.5 1e-9\nb -70000 1 2\nc 1e-10 3e-8 0.25\nd 1 2 65504\n";
  CliRun r = lumen("convert " + in + " " + (d / "h.safetensors") + " --dtype f16 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["narrowing"]["to_inf"], 2);   // 100000 and -70000 (65504 fits)
  EXPECT_EQ(j["narrowing"]["to_zero"], 2);  // 1e-9 and 1e-10 (3e-8 rounds to the smallest subnormal)
  EXPECT_NE(r.err.find("2 values"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("inf"), std::string::npos) << r.err;
  r = lumen("convert " + in + " " + (d / "h.txt") + " --dtype f16");  // the text summary warns the same way
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("2 values"), std::string::npos) << r.err;
  r = lumen("convert " + in + " " + (d / "strict.safetensors") + " --dtype f16 --strict");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("f16"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(d / "strict.safetensors"));

  const std::string b = d / "b.vec";
  std::ofstream(b) << "2 2\na 3.4e38 1\nb 1e-45 2\n";
  r = lumen("convert " + b + " " + (d / "b.safetensors") + " --dtype bf16 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["narrowing"]["to_inf"], 1);
  EXPECT_EQ(j["narrowing"]["to_zero"], 1);
  EXPECT_EQ(lumen("convert " + b + " " + (d / "b2.safetensors") + " --dtype bf16 --strict").code, 1);

  // Nothing lost, nothing said; and f32 never narrows.
  r = lumen("convert " + kVec + " " + (d / "k.safetensors") + " --dtype f16 --json --strict");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["narrowing"]["to_inf"], 0);
  EXPECT_EQ(j["narrowing"]["to_zero"], 0);
  r = lumen("convert " + in + " " + (d / "f.safetensors") + " --json --strict");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["narrowing"]["to_inf"], 0);
}

}  // namespace test_convert

namespace test_convert {

// A model directory to GGUF: `lumen gpt` gives the same answer from either; a table alone is no model (exit 2),
// and a failed conversion leaves no file.
TEST(CliConvert, ModelDirectoryToGguf) {
  Dir d;
  const std::string model = std::string(LUMEN_SOURCE_DIR) + "/tests/data/model/llama-sharded";
  const CliRun c = lumen("convert " + model + " " + (d / "m.gguf") + " --json");
  ASSERT_EQ(c.code, 0) << c.err;
  const auto j = nlohmann::json::parse(c.out);
  EXPECT_EQ(j["family"], "llama");
  EXPECT_EQ(j["dtype"], "f32");
  EXPECT_EQ(j["bytes"], std::filesystem::file_size(d / "m.gguf"));
  const CliRun a = lumen("gpt " + model + " 'the cat sat' --top 5 --json");
  const CliRun b = lumen("gpt " + (d / "m.gguf") + " 'the cat sat' --top 5 --json");
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(nlohmann::json::parse(a.out)["next"], nlohmann::json::parse(b.out)["next"]);
  EXPECT_EQ(lumen("params " + (d / "m.gguf") + " --json").code, 0);

  const CliRun f16 = lumen("convert " + model + " " + (d / "h.gguf") + " --dtype f16");
  ASSERT_EQ(f16.code, 0) << f16.err;
  EXPECT_LT(std::filesystem::file_size(d / "h.gguf"), std::filesystem::file_size(d / "m.gguf"));

  const CliRun table = lumen("convert " + kVec + " " + (d / "t.gguf"));
  EXPECT_EQ(table.code, 2) << table.err;
  EXPECT_NE(table.err.find("not a model"), std::string::npos) << table.err;
  EXPECT_FALSE(std::filesystem::exists(d / "t.gguf"));
  // Llama 3.1's rope scaling goes as rope_freqs.weight: the GGUF gives the directory's next tokens.
  const std::string scaled_dir = std::string(LUMEN_SOURCE_DIR) + "/tests/data/model/llama-tied-f16";
  const CliRun scaled = lumen("convert " + scaled_dir + " " + (d / "s.gguf"));
  ASSERT_EQ(scaled.code, 0) << scaled.err;
  const CliRun from_dir = lumen("gpt " + scaled_dir + " \"the bank\" --json --top 5");
  const CliRun from_gguf = lumen("gpt " + (d / "s.gguf") + " \"the bank\" --json --top 5");
  ASSERT_EQ(from_dir.code, 0) << from_dir.err;
  ASSERT_EQ(from_gguf.code, 0) << from_gguf.err;
  EXPECT_EQ(nlohmann::json::parse(from_dir.out)["next"], nlohmann::json::parse(from_gguf.out)["next"]);
}

}  // namespace test_convert
