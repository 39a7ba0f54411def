// GGUF tables: token_embd.weight labelled by tokenizer.ggml.tokens, every readable ggml type checked against blocks
// computed by hand, and each kind of damage refused with the file and the byte offset named.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "io_test_util.hpp"
#include "lumen/core/dtype.hpp"
#include "lumen/core/error.hpp"
#include "lumen/io/open.hpp"
#include "support/gguf_builder.hpp"

using namespace lumen;
using namespace lumen::io;
using lumen::io::test::ScratchDir;
using lumen::test::GgufBuilder;
using ::testing::HasSubstr;

namespace test_gguf {

constexpr std::uint32_t kF32 = 0, kF16 = 1, kQ4_0 = 2, kQ4_1 = 3, kQ8_0 = 8, kQ4_K = 12, kQ6_K = 14, kBF16 = 30;

std::string f32s(const std::vector<float>& v) { return {reinterpret_cast<const char*>(v.data()), v.size() * 4}; }
std::string u16s(const std::vector<std::uint16_t>& v) {
  return {reinterpret_cast<const char*>(v.data()), v.size() * 2};
}

// A (V, d) table as ggml stores it: ne = {d, V}.
GgufBuilder table(std::uint32_t type, std::size_t V, std::size_t d, const std::string& data,
                  const std::vector<std::string>& tokens = {}) {
  GgufBuilder g;
  g.add_string("general.architecture", "gpt2");
  if (!tokens.empty()) g.add_strings("tokenizer.ggml.tokens", tokens);
  g.tensors.push_back({"token_embd.weight", {d, V}, type, data});
  return g;
}

Table open_bytes(const std::string& bytes, OpenOptions o = {}) {
  ScratchDir dir;
  return open_table(dir.write("m.gguf", bytes), o);
}

std::vector<float> row(const Table& t, std::size_t r) {
  std::vector<float> v(t.d());
  t.E.row_f32(r, v.data());
  return v;
}

TEST(Gguf, F32TokenTableIsMappedAndLabelled) {
  const std::vector<float> E = {1, 2, 3, 4, -1, -2, -3, -4, 0.5f, 0.25f, 0, 8};
  const std::string bytes = table(kF32, 3, 4, f32s(E), {"Ġthe", "cat", "<|endoftext|>"}).bytes();
  ScratchDir dir;
  const std::string path = dir.write("m.gguf", bytes);
  EXPECT_EQ(detect_format(path), Format::gguf);
  LoadReport report;
  const Table t = open_table(path, {}, report);
  EXPECT_EQ(t.format, "gguf");
  ASSERT_EQ(t.V(), 3u);
  ASSERT_EQ(t.d(), 4u);
  EXPECT_EQ(t.vocab.token(0), "Ġthe");
  EXPECT_EQ(t.vocab.token(2), "<|endoftext|>");
  EXPECT_EQ(row(t, 1), (std::vector<float>{-1, -2, -3, -4}));
  EXPECT_EQ(row(t, 2), (std::vector<float>{0.5f, 0.25f, 0, 8}));
  EXPECT_TRUE(report.mapped);
  EXPECT_EQ(report.tensor, "token_embd.weight");
  OpenOptions o;
  o.limit = 2;
  EXPECT_EQ(open_bytes(bytes, o).V(), 2u);
  // No tokens: rows named by id.
  EXPECT_EQ(open_bytes(table(kF32, 3, 4, f32s(E)).bytes()).vocab.token(1), "1");
}

TEST(Gguf, HalfTypesAsStored) {
  const std::vector<float> want = {1.5f, -2.0f, 0.099975586f, 65504.0f};
  std::vector<std::uint16_t> h, b;
  for (float x : want) h.push_back(f32_to_f16(x)), b.push_back(f32_to_bf16(x));
  EXPECT_EQ(row(open_bytes(table(kF16, 1, 4, u16s(h)).bytes()), 0), want);
  std::vector<float> bf;
  for (auto x : b) bf.push_back(bf16_to_f32(x));
  EXPECT_EQ(row(open_bytes(table(kBF16, 1, 4, u16s(b)).bytes()), 0), bf);
}

TEST(Gguf, Q8_0BlockByHand) {
  std::string block = u16s({0x3800});  // d = 0.5
  std::vector<std::int8_t> qs(32);
  for (int j = 0; j < 32; ++j) qs[j] = static_cast<std::int8_t>(j * 8 - 128);  // -128, -120, ..., 120
  block.append(reinterpret_cast<const char*>(qs.data()), 32);
  const auto r = row(open_bytes(table(kQ8_0, 1, 32, block).bytes()), 0);
  EXPECT_EQ(r[0], -64.0f);
  EXPECT_EQ(r[1], -60.0f);
  EXPECT_EQ(r[16], 0.0f);
  EXPECT_EQ(r[31], 60.0f);
}

TEST(Gguf, Q4_0BlockByHand) {
  std::string block = u16s({0x4000});  // d = 2
  for (int j = 0; j < 16; ++j) block += static_cast<char>(j | ((15 - j) << 4));
  const auto r = row(open_bytes(table(kQ4_0, 1, 32, block).bytes()), 0);
  // Low nibbles are elements 0..15, high nibbles 16..31, each (q - 8) * d.
  EXPECT_EQ(r[0], -16.0f);   // (0 - 8) * 2
  EXPECT_EQ(r[15], 14.0f);   // (15 - 8) * 2
  EXPECT_EQ(r[16], 14.0f);   // (15 - 8) * 2
  EXPECT_EQ(r[31], -16.0f);  // (0 - 8) * 2
  EXPECT_EQ(r[8], 0.0f);
}

TEST(Gguf, Q4_KBlockByHand) {
  // d = 1, dmin = 0.5; twelve scale bytes whose top bits feed scales 4..7.
  std::string block = u16s({0x3C00, 0x3800});
  const unsigned char scales[12] = {0xC1, 2, 3, 4, 0x45, 6, 7, 8, 0x21, 0x43, 0x65, 0x87};
  block.append(reinterpret_cast<const char*>(scales), 12);
  for (int l = 0; l < 128; ++l) block += static_cast<char>((l % 16) | ((15 - l % 16) << 4));
  ASSERT_EQ(block.size(), 144u);
  // By hand from the packing: (scale, min) for sub-blocks 0..7.
  const float sc[8] = {1, 2, 3, 4, 1 + 48, 3, 5, 7};
  const float mn[8] = {5, 6, 7, 8, 2 + 16, 4, 6, 8};
  const auto r = row(open_bytes(table(kQ4_K, 1, 256, block).bytes()), 0);
  for (int i = 0; i < 256; ++i) {
    const int chunk = i / 64, within = i % 64, l = within % 32;
    const int sub = 2 * chunk + (within >= 32 ? 1 : 0);
    const int q = within < 32 ? l % 16 : 15 - l % 16;
    EXPECT_EQ(r[i], 1.0f * sc[sub] * static_cast<float>(q) - 0.5f * mn[sub]) << i;
  }
  EXPECT_EQ(r[0], -2.5f);     // 1*1*0 - 0.5*5
  EXPECT_EQ(r[131], 138.0f);  // chunk 2 reads sub-block 4 (its top bits set): 1*49*3 - 0.5*18
}

TEST(Gguf, Q6_KBlockByHand) {
  std::string block;
  for (int i = 0; i < 128; ++i) block += static_cast<char>((i % 16) | (((i / 16) % 16) << 4));  // ql
  for (int i = 0; i < 64; ++i) block += static_cast<char>(i * 37 % 256);                        // qh
  for (int i = 0; i < 16; ++i) block += static_cast<char>(static_cast<std::int8_t>(i - 8));     // scales
  block += u16s({0x3400});                                                                      // d = 0.25
  ASSERT_EQ(block.size(), 210u);
  const auto r = row(open_bytes(table(kQ6_K, 1, 256, block).bytes()), 0);
  for (int i = 0; i < 256; ++i) {
    const int half = i / 128, k = (i % 128) / 32, l = i % 32;
    const auto ql = static_cast<unsigned char>(block[static_cast<std::size_t>(half * 64 + l + (k % 2) * 32)]);
    const auto qh = static_cast<unsigned char>(block[static_cast<std::size_t>(128 + half * 32 + l)]);
    const int q = ((k < 2 ? ql & 15 : ql >> 4) | (((qh >> (2 * k)) & 3) << 4)) - 32;
    const int scale = half * 8 + l / 16 + 2 * k - 8;
    EXPECT_EQ(r[i], 0.25f * static_cast<float>(scale) * static_cast<float>(q)) << i;
  }
  // Element 0: ql[0] = 0 low, qh[0] = 0: q = -32; scale[0] = -8: 0.25 * -8 * -32 = 64.
  EXPECT_EQ(r[0], 64.0f);
}

TEST(Gguf, ChoosesTensorsAndRefusesWhatItCannotRead) {
  const std::vector<float> E = {1, 2, 3, 4};
  GgufBuilder g = table(kF32, 2, 2, f32s(E), {"a", "b"});
  g.tensors.push_back({"output.weight", {2, 2}, kF32, f32s({9, 8, 7, 6})});
  OpenOptions head;
  head.output_head = true;
  EXPECT_EQ(row(open_bytes(g.bytes(), head), 0), (std::vector<float>{9, 8}));
  OpenOptions named;
  named.tensor = "output.weight";
  EXPECT_EQ(row(open_bytes(g.bytes(), named), 1), (std::vector<float>{7, 6}));
  named.tensor = "nope";
  EXPECT_THROW(open_bytes(g.bytes(), named), InputError);
  EXPECT_THROW(open_bytes(table(kF32, 2, 2, f32s(E), {"a"}).bytes()), ParseError);  // 1 token for 2 rows
  try {
    open_bytes(table(kQ4_1, 1, 32, std::string(20, '\0')).bytes());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("Q4_1"));
  }
  GgufBuilder none;
  none.tensors.push_back({"blk.0.attn_q.weight", {2, 2}, kF32, f32s(E)});
  EXPECT_THROW(open_bytes(none.bytes()), InputError);
}

// Each damage is a ParseError naming the file and where.
void expect_refused(const std::string& bytes, const std::string& phrase, std::uint64_t offset = UINT64_MAX) {
  ScratchDir dir;
  const std::string path = dir.write("bad.gguf", bytes);
  try {
    open_table(path, {.format = Format::gguf});
    FAIL() << "no error; expected: " << phrase;
  } catch (const ParseError& e) {
    EXPECT_THAT(e.what(), HasSubstr(phrase));
    EXPECT_THAT(e.what(), HasSubstr(path));
    if (offset != UINT64_MAX) {
      EXPECT_EQ(e.offset(), offset) << e.what();
    }
  }
}

TEST(Gguf, BadInputIsRefusedWhereItIsBad) {
  const std::string good = table(kF32, 2, 2, f32s({1, 2, 3, 4}), {"a", "b"}).bytes();
  // Every truncation of a good file.
  for (std::size_t n = 4; n < good.size(); ++n) {
    ScratchDir dir;
    EXPECT_THROW(open_table(dir.write("t.gguf", good.substr(0, n)), {.format = Format::gguf}), ParseError) << n;
  }
  GgufBuilder g = table(kF32, 2, 2, f32s({1, 2, 3, 4}), {"a", "b"});
  g.tensors[0].offset = 4096;
  expect_refused(g.bytes().substr(0, 200), "run past the end");
  g = table(kF32, 2, 2, f32s({1, 2, 3, 4}));
  g.tensors.push_back({"output.weight", {2, 2}, kF32, f32s({1, 2, 3, 4}), 0});  // the same bytes
  expect_refused(g.bytes(), "overlaps");
  g = table(kF32, 2, 2, f32s({1, 2, 3, 4}));
  g.tensors[0].ne = {1ull << 40, 1ull << 40};
  expect_refused(g.bytes(), "overflows");
  g = table(99, 2, 2, f32s({1, 2, 3, 4}));
  expect_refused(g.bytes(), "unknown ggml type 99");
  g = table(kF32, 2, 2, f32s({1, 2, 3, 4}));
  g.tensors[0].offset = 8;
  expect_refused(g.bytes(), "not a multiple of the alignment 32");
  g = table(kF32, 2, 2, f32s({1, 2, 3, 4}));
  g.add_u32("general.alignment", 24);
  expect_refused(g.bytes(), "not a power of 2");
  g = table(kF32, 2, 2, f32s({1, 2, 3, 4}));
  g.add_string("general.architecture", "llama");
  expect_refused(g.bytes(), "metadata key 'general.architecture' is repeated");
  g = table(kF32, 2, 2, f32s({1, 2, 3, 4}));
  g.tensors.push_back(g.tensors[0]);
  g.tensors[1].offset = 64;
  expect_refused(g.bytes(), "tensor 'token_embd.weight' is repeated");
  // A string length and an array count larger than the file.
  std::string huge = good;
  const std::uint64_t big = 1ull << 50;
  std::memcpy(huge.data() + 24, &big, 8);  // the first key's length
  expect_refused(huge, "more than the", 24);
  g = GgufBuilder{};
  std::string kv;
  GgufBuilder::put_string(kv, "tokenizer.ggml.tokens");
  GgufBuilder::put<std::uint32_t>(kv, 9);
  GgufBuilder::put<std::uint32_t>(kv, 8);
  GgufBuilder::put<std::uint64_t>(kv, big);
  g.kv.push_back(kv);
  expect_refused(g.bytes(), "an array of");
  g = table(kF32, 2, 2, f32s({1, 2, 3, 4}));
  g.version = 1;
  expect_refused(g.bytes(), "version 1 is not supported", 4);
  g.version = 0x03000000;
  expect_refused(g.bytes(), "big-endian", 4);
  std::string unknown_value;
  GgufBuilder::put_string(unknown_value, "x");
  GgufBuilder::put<std::uint32_t>(unknown_value, 77);
  g = table(kF32, 2, 2, f32s({1, 2, 3, 4}));
  g.kv.push_back(unknown_value);
  expect_refused(g.bytes(), "unknown value type 77");
  expect_refused("GGUX" + good.substr(4), "magic", 0);
  g = table(kQ8_0, 1, 16, std::string(34, '\0'));  // half a Q8_0 block per row
  expect_refused(g.bytes(), "not a multiple of Q8_0's block of 32");
  g = table(kF32, 2, 2, f32s({1, 2, 3, 4}), {"a", "b", "c"});
  expect_refused(g.bytes(), "holds 3 tokens for a table of 2 rows");
}

}  // namespace test_gguf
