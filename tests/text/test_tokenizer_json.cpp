// Hugging Face tokenizer.json (byte-level BPE): a small Llama-3-style file built here, GPT-2 converted to the
// format (same ids as from encoder.json + vocab.bpe), and malformed files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "lumen/core/error.hpp"
#include "lumen/text/byte_level.hpp"
#include "text/gpt2_files.hpp"

using namespace lumen;
using namespace lumen::text;
using nlohmann::json;

namespace test_tokenizer_json {

// 256 byte tokens (id = byte), then merges making " c", "at", " cat", "cat", " ca" (no merge makes " ca" from
// " c" + "a" before " cat" could); <|begin_of_text|> at 1000.
json small_llama_style(bool ignore_merges) {
  json vocab = json::object();
  for (int b = 0; b < 256; ++b) vocab[to_byte_level(std::string(1, static_cast<char>(b)))] = b;
  vocab["\u0120c"] = 256;
  vocab["at"] = 257;
  vocab["\u0120cat"] = 258;
  vocab["cat"] = 259;
  vocab["\u0120ca"] = 260;  // in the vocabulary, made by no merge
  vocab["12"] = 261;
  json merges = json::array({"\u0120 c", "a t", "\u0120c at", "c at", json::array({"1", "2"})});
  return json{{"version", "1.0"},
              {"added_tokens", json::array({json{{"id", 1000}, {"content", "<|begin_of_text|>"}, {"special", true}}})},
              {"normalizer", nullptr},
              {"pre_tokenizer",
               {{"type", "Sequence"},
                {"pretokenizers",
                 json::array({json{{"type", "Split"},
                                   {"pattern", {{"Regex", std::string(kLlama3Pattern)}}},
                                   {"behavior", "Isolated"},
                                   {"invert", false}},
                              json{{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", false}}})}}},
              {"decoder", {{"type", "ByteLevel"}}},
              {"model",
               {{"type", "BPE"},
                {"ignore_merges", ignore_merges},
                {"byte_fallback", false},
                {"vocab", vocab},
                {"merges", merges}}}};
}

std::unique_ptr<Tokenizer> parse(const json& j) { return parse_tokenizer_json(j.dump(), "tokenizer.json"); }

std::string parse_error(const std::string& text) {
  try {
    parse_tokenizer_json(text, "bad.json");
  } catch (const ParseError& e) {
    EXPECT_EQ(e.file(), "bad.json");
    return e.what();
  }
  ADD_FAILURE() << "no ParseError for " << text.substr(0, 200);
  return {};
}

TEST(TokenizerJson, SmallLlamaStyle) {
  const auto t = parse(small_llama_style(false));
  EXPECT_EQ(t->kind, "tokenizer.json");
  EXPECT_EQ(t->size(), 1001u);
  EXPECT_EQ(t->encode(" cat"), (std::vector<Id>{258}));
  EXPECT_EQ(t->encode("cat cat"), (std::vector<Id>{259, 258}));
  // Merges, not the vocabulary: " ca" is " c" + "a" since no merge makes " ca".
  EXPECT_EQ(t->encode(" ca"), (std::vector<Id>{256, 'a'}));
  // Llama 3 splits digits by three: "1212" -> "121" "2" -> ["12" "1"] ["2"].
  EXPECT_EQ(t->encode("1212"), (std::vector<Id>{261, '1', '2'}));
  EXPECT_EQ(t->encode("<|begin_of_text|> cat"), (std::vector<Id>{1000, 258}));
  EXPECT_EQ(t->label(1000), "<|begin_of_text|>");
  EXPECT_EQ(t->decode(t->encode("<|begin_of_text|>I'M caT\n\n 12345")), "<|begin_of_text|>I'M caT\n\n 12345");
  EXPECT_FALSE(t->has(999));
  EXPECT_THROW(t->decode(std::vector<Id>{999}), IdError);
}

TEST(TokenizerJson, IgnoreMergesTakesWholePieces) {
  const auto t = parse(small_llama_style(true));
  EXPECT_EQ(t->encode(" ca"), (std::vector<Id>{260}));
  EXPECT_EQ(t->encode(" cat"), (std::vector<Id>{258}));
}

TEST(TokenizerJson, ByteLevelWithPrefixSpace) {
  json j = small_llama_style(false);
  j["pre_tokenizer"] = json{{"type", "ByteLevel"}, {"add_prefix_space", true}, {"use_regex", true}};
  const auto t = parse(j);
  EXPECT_EQ(t->encode("cat"), (std::vector<Id>{258}));  // " cat"
  EXPECT_EQ(t->pretokenizer().stages(), 1u);
}

TEST(TokenizerJson, FromFileAndDirectory) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / "lumen_text_tokjson";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "tokenizer.json") << small_llama_style(false).dump();
  EXPECT_EQ(load_tokenizer((dir / "tokenizer.json").string())->encode(" cat"), (std::vector<Id>{258}));
  EXPECT_EQ(load_tokenizer(dir.string())->encode(" cat"), (std::vector<Id>{258}));
  EXPECT_EQ(tokenizer_beside((dir / "model.safetensors").string()), (dir / "tokenizer.json").string());
  EXPECT_FALSE(tokenizer_beside((dir / "nested" / "model.safetensors").string()));
  EXPECT_THROW(load_tokenizer((dir / "missing.json").string()), IoError);
}

TEST(TokenizerJson, Gpt2ConvertedGivesTheSameIds) {
  LUMEN_REQUIRE_GPT2();
  // GPT-2's pair as a tokenizer.json: HF's merge-list rule must agree with tiktoken's token-rank rule.
  std::ifstream enc(lumen::text::testing::gpt2_dir() + "/encoder.json");
  json vocab = json::parse(enc);
  std::ifstream bpe(lumen::text::testing::gpt2_dir() + "/vocab.bpe");
  json merges = json::array();
  for (std::string line; std::getline(bpe, line);)
    if (!line.empty() && !line.starts_with("#version")) merges.push_back(line);
  json j{{"added_tokens", json::array({json{{"id", 50256}, {"content", "<|endoftext|>"}, {"special", true}}})},
         {"pre_tokenizer", {{"type", "ByteLevel"}, {"add_prefix_space", false}}},
         {"decoder", {{"type", "ByteLevel"}}},
         {"model", {{"type", "BPE"}, {"vocab", vocab}, {"merges", merges}}}};
  const auto hf = parse(j);
  for (std::string s :
       {"The cat sat on the mat.", "Antidisestablishmentarianism, floccinaucinihilipilification!",
        "caf\xc3\xa9 \xe4\xbd\xa0\xe5\xa5\xbd \xf0\x9f\x98\x80 \xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82",
        "   spaces\n\n\ttabs 1234567890 <|endoftext|>", "ZZZZZZZzzzzqqqxj y'all can't won't"})
    EXPECT_EQ(hf->encode(s), lumen::text::testing::gpt2().encode(s)) << s;
}

TEST(TokenizerJson, MalformedFiles) {
  EXPECT_NE(parse_error("{\"model\": ").find("not valid JSON"), std::string::npos);
  EXPECT_NE(parse_error("").find("not valid JSON"), std::string::npos);
  EXPECT_NE(parse_error("[1, 2]").find("expected a JSON object"), std::string::npos);
  // A number too large for a double is nlohmann's out_of_range, not a parse_error: still a ParseError here.
  EXPECT_NE(parse_error("{\"version\": 1e99999}").find("not valid JSON"), std::string::npos);
  EXPECT_NE(parse_error("{\"version\": \"1.0\"}").find("no \"model\""), std::string::npos);

  json j = small_llama_style(false);
  j["model"].erase("merges");
  EXPECT_NE(parse_error(j.dump()).find("model.merges is missing"), std::string::npos);

  j = small_llama_style(false);
  j["model"]["type"] = "WordPiece";
  EXPECT_NE(parse_error(j.dump()).find("unknown model type \"WordPiece\""), std::string::npos);

  j = small_llama_style(false);
  j["model"]["merges"].push_back("zz qq");
  EXPECT_NE(parse_error(j.dump()).find("\"zz\" is not in model.vocab"), std::string::npos);

  j = small_llama_style(false);
  j["model"]["merges"].push_back("c a");  // "ca" is not a token
  EXPECT_NE(parse_error(j.dump()).find("the merged token \"ca\""), std::string::npos);

  j = small_llama_style(false);
  j["model"]["vocab"].erase("a");
  const std::string no_byte = parse_error(j.dump());
  EXPECT_TRUE(no_byte.find("\"a\" is not in model.vocab") != std::string::npos ||
              no_byte.find("byte 0x61") != std::string::npos)
      << no_byte;

  j = small_llama_style(false);
  j["model"]["merges"] = json::array();
  j["model"]["vocab"].erase("\u0120c");
  EXPECT_NE(parse_error(j.dump()).find("model.merges is empty"), std::string::npos);

  j = small_llama_style(false);
  j["model"]["vocab"]["huge"] = 50'000'000;  // refused before allocating 50 M slots
  EXPECT_NE(parse_error(j.dump()).find("expected an id in [0, 4194304)"), std::string::npos);

  j = small_llama_style(false);
  j["added_tokens"].push_back(json{{"id", -3}, {"content", "x"}});
  EXPECT_NE(parse_error(j.dump()).find("added_tokens[1]"), std::string::npos);

  j = small_llama_style(false);
  j["normalizer"] = json{{"type", "NFC"}};
  EXPECT_NE(parse_error(j.dump()).find("normalizer NFC is not supported"), std::string::npos);

  j = small_llama_style(false);
  j["pre_tokenizer"] = json{{"type", "Whitespace"}};
  EXPECT_NE(parse_error(j.dump()).find("\"Whitespace\" is not supported"), std::string::npos);

  j = small_llama_style(false);
  j["pre_tokenizer"]["pretokenizers"][0]["pattern"]["Regex"] = "(unclosed";
  EXPECT_NE(parse_error(j.dump()).find("bad pre-tokenizer regex"), std::string::npos);

  j = small_llama_style(false);
  j["model"]["byte_fallback"] = true;
  EXPECT_NE(parse_error(j.dump()).find("byte_fallback"), std::string::npos);

  j = small_llama_style(false);
  j["model"]["vocab"]["\u2423x"] = 300;  // ␣ is not a byte-level spelling
  EXPECT_NE(parse_error(j.dump()).find("not a byte-level spelling"), std::string::npos);
}

TEST(Gpt2Files, MalformedFiles) {
  const auto dir = std::filesystem::path(::testing::TempDir()) / "lumen_text_gpt2bad";
  std::filesystem::create_directories(dir);
  json enc = json::object();
  for (int b = 0; b < 256; ++b) enc[to_byte_level(std::string(1, static_cast<char>(b)))] = b;
  enc["ab"] = 256;
  std::ofstream(dir / "encoder.json") << enc.dump();
  auto write_bpe = [&](const std::string& text) { std::ofstream(dir / "vocab.bpe") << text; };
  auto error_of = [&]() -> std::string {
    try {
      load_tokenizer(dir.string());
    } catch (const ParseError& e) {
      return e.what();
    }
    return "no error";
  };
  write_bpe("#version: 0.2\na b\n");
  EXPECT_EQ(load_tokenizer(dir.string())->encode("abab"), (std::vector<Id>{256, 256}));
  write_bpe("#version: 0.2\na b\nabc\n");
  EXPECT_NE(error_of().find("vocab.bpe:3: expected a merge"), std::string::npos) << error_of();
  write_bpe("#version: 0.2\na c\n");
  EXPECT_NE(error_of().find("\"ac\" is not in"), std::string::npos) << error_of();
  write_bpe("#version: 0.2\n");
  EXPECT_NE(error_of().find("no merges"), std::string::npos) << error_of();
  write_bpe("#version: 0.2\na b\n");
  std::ofstream(dir / "encoder.json") << "{\"a\": 0,";
  EXPECT_NE(error_of().find("not valid JSON"), std::string::npos) << error_of();
  std::ofstream(dir / "encoder.json") << "{\"a\": 0, \"b\": 1, \"ab\": 2}";
  EXPECT_NE(error_of().find("byte 0x"), std::string::npos) << error_of();
  // encoder.json is read as it is parsed: each of these is refused, naming the token where there is one.
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"[1, 2]", "expected a JSON object"},
      {"{}", "expected a JSON object"},
      {"{\"a\": 0, \"a\": 1}", "token \"a\" is given twice"},
      {"{\"a\": 0, \"b\": 0}", "id 0 is given twice"},
      {"{\"a\": -1}", "token \"a\": expected an integer id"},
      {"{\"a\": 1.5}", "token \"a\": expected an integer id in [0, 4194304), got 1.5"},
      {"{\"a\": \"0\"}", "got \"0\""},
      {"{\"a\": {\"b\": 1}}", "got an object"},
      {"{\"a\": [0]}", "got an array"},
      {"{\"a\": 99999999}", "expected an integer id"},
      {"{\"a\": 0} x", "not valid JSON"},
  };
  for (const auto& [text, want] : bad) {
    std::ofstream(dir / "encoder.json") << text;
    EXPECT_NE(error_of().find(want), std::string::npos) << text << ": " << error_of();
  }
}

}  // namespace test_tokenizer_json
