// GPT-2's tokenizer from encoder.json + vocab.bpe: known ids, round trips, special tokens, token lookup.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "text/gpt2_files.hpp"

using namespace lumen;
using namespace lumen::text;
using lumen::text::testing::gpt2;

TEST(Gpt2, TheCatSat) {
  LUMEN_REQUIRE_GPT2();
  EXPECT_EQ(gpt2().encode("The cat sat"), (std::vector<Id>{464, 3797, 3332}));
  EXPECT_EQ(gpt2().size(), 50257u);
  EXPECT_EQ(gpt2().kind, "gpt2-files");
}

TEST(Gpt2, KnownIds) {
  LUMEN_REQUIRE_GPT2();
  // Values from js-tiktoken's gpt2 encoding.
  EXPECT_EQ(gpt2().encode("Hello world"), (std::vector<Id>{15496, 995}));
  EXPECT_EQ(gpt2().encode(" "), (std::vector<Id>{220}));
  EXPECT_EQ(gpt2().encode("\n"), (std::vector<Id>{198}));
  EXPECT_EQ(gpt2().encode("<|endoftext|>"), (std::vector<Id>{50256}));
  EXPECT_EQ(gpt2().encode(""), (std::vector<Id>{}));
}

TEST(Gpt2, SpecialTokenOnlyWhenAsked) {
  LUMEN_REQUIRE_GPT2();
  const auto with = gpt2().encode("a<|endoftext|>b");
  EXPECT_EQ(with, (std::vector<Id>{64, 50256, 65}));
  const auto without = gpt2().encode("a<|endoftext|>b", false);
  EXPECT_EQ(std::count(without.begin(), without.end(), 50256), 0);
  EXPECT_GT(without.size(), 3u);
  EXPECT_EQ(gpt2().decode(without), "a<|endoftext|>b");
  EXPECT_TRUE(gpt2().is_added(50256));
  EXPECT_FALSE(gpt2().is_added(464));
}

TEST(Gpt2, DecodeUndoesEncodeOnUnicode) {
  LUMEN_REQUIRE_GPT2();
  for (const std::string& s : std::vector<std::string>{
           "The cat sat on the mat.", "  leading and trailing  ", "tabs\tand\r\nCRLF\n\n\n",
           "caf\xc3\xa9 na\xc3\xafve r\xc3\xa9sum\xc3\xa9", "\xe4\xbd\xa0\xe5\xa5\xbd\xe4\xb8\x96\xe7\x95\x8c",
           "emoji \xf0\x9f\x98\x80\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd!", "3.14159 + 2,718 = 5.859",
           "I'm she's we've they'll I'd", std::string(1000, ' ') + "x", std::string(300, '7')})
    EXPECT_EQ(gpt2().decode(gpt2().encode(s)), s) << s;
}

TEST(Gpt2, InvalidUtf8IsKeptByteForByte) {
  LUMEN_REQUIRE_GPT2();
  // Documented choice: bytes that are not UTF-8 become pieces of their own; nothing is lost or replaced.
  for (std::string s : {std::string("ab\xff"
                                    "cd"),
                        std::string("\xc3"), std::string("x\xe2\x82 y"), std::string("\xed\xa0\x80"),
                        std::string("\xf8\x88\x80\x80\x80"), std::string("\0a\0", 3)}) {
    const auto ids = gpt2().encode(s);
    EXPECT_EQ(gpt2().decode(ids), s);
  }
  EXPECT_EQ(gpt2().encode("ab\xff"
                          "cd"),
            (std::vector<Id>{397, 187, 10210}));  // "ab", byte 0xff (ÿ), "cd"
}

TEST(Gpt2, RandomBytesRoundTrip) {
  LUMEN_REQUIRE_GPT2();
  Rng rng(7);
  for (int t = 0; t < 300; ++t) {
    std::string s(rng.below(120), '\0');
    for (auto& c : s) c = static_cast<char>(rng.below(256));
    EXPECT_EQ(gpt2().decode(gpt2().encode(s)), s);
  }
}

TEST(Gpt2, EmptyTextIsNoIdsAndNoIdsIsEmptyText) {
  LUMEN_REQUIRE_GPT2();
  EXPECT_TRUE(gpt2().encode("").empty());
  EXPECT_TRUE(gpt2().encode("", true).empty());
  EXPECT_EQ(gpt2().decode(std::vector<Id>{}), "");
}

TEST(Gpt2, LongPiecesMergeLikeShortOnes) {
  LUMEN_REQUIRE_GPT2();
  // A long piece is merged by the heap path; the same word repeated in short pieces by the flat path.
  const std::string word = "Pneumonoultramicroscopicsilicovolcanoconiosis";
  const auto one = gpt2().encode(word);
  std::string many;
  for (int i = 0; i < 3; ++i) many += word;  // one piece of 135 letters
  const auto ids = gpt2().encode(many);
  EXPECT_EQ(gpt2().decode(ids), many);
  EXPECT_LE(ids.size(), 3 * one.size());
  // 2000 spaces then a word: "\s+(?!\S)" leaves the last space to " x".
  const auto sp = gpt2().encode(std::string(2000, ' ') + "x");
  EXPECT_EQ(sp.back(), 2124);  // " x"
}

TEST(Gpt2, LabelsAndLookup) {
  LUMEN_REQUIRE_GPT2();
  const Tokenizer& t = gpt2();
  EXPECT_EQ(t.label(3797), "\u2423cat");
  EXPECT_EQ(t.piece(3797), " cat");
  EXPECT_EQ(t.label(198), "\u21B5");
  EXPECT_EQ(t.label(50256), "<|endoftext|>");
  EXPECT_EQ(t.find(" cat"), Id{3797});
  EXPECT_EQ(t.find("\u2423cat"), Id{3797});
  EXPECT_EQ(t.find("\u0120cat"), Id{3797});
  EXPECT_EQ(t.find("cat"), Id{9246});
  EXPECT_EQ(t.find("<|endoftext|>"), Id{50256});
  EXPECT_FALSE(t.find("not one token at all"));
}

TEST(Gpt2, DecodeRejectsBadIds) {
  LUMEN_REQUIRE_GPT2();
  const std::vector<Id> ids{464, 50257};
  try {
    gpt2().decode(ids);
    FAIL();
  } catch (const IdError& e) {
    EXPECT_EQ(e.id(), 50257);
    EXPECT_EQ(e.position(), 1u);
  }
  EXPECT_THROW(gpt2().decode(std::vector<Id>{-1}), IdError);
}

TEST(Gpt2, ThreadsShareOneTokenizer) {
  LUMEN_REQUIRE_GPT2();
  const std::string text = "Zyxomma petiolata dragonflies hover; antidisestablishmentarianism 12345678.";
  const auto expect = gpt2().encode(text);
  std::vector<std::thread> ts;
  std::atomic<int> bad{0};
  for (int k = 0; k < 4; ++k)
    ts.emplace_back([&] {
      for (int i = 0; i < 200; ++i)
        if (gpt2().encode(text + std::to_string(i)).size() < expect.size()) ++bad;
    });
  for (auto& th : ts) th.join();
  EXPECT_EQ(bad.load(), 0);
}
