// fastText .bin: magic, version, Args, Dictionary, then the input matrix (fastText's src/fasttext.cc loadModel).
#include <cstring>
#include <fmt/format.h>

#include "io/byte_cursor.hpp"
#include "io/readers.hpp"
#include "lumen/core/error.hpp"
#include "lumen/io/fasttext.hpp"

namespace lumen::io {

namespace {

constexpr std::int32_t kMagic = 793712314;
constexpr std::int32_t kVersion = 12;
constexpr int kModelSupervised = 3;

}  // namespace

std::uint32_t FastTextModel::hash(std::string_view s) {
  std::uint32_t h = 2166136261u;
  for (char c : s) {
    h ^= static_cast<std::uint32_t>(static_cast<std::int8_t>(c));
    h *= 16777619u;
  }
  return h;
}

FastTextModel FastTextModel::load(const std::string& path) {
  auto file = MappedFile::open(path);
  return parse(file->data(), file->size(), path, file);
}

FastTextModel FastTextModel::parse(const char* data, std::size_t size, const std::string& name,
                                   std::shared_ptr<const void> keepalive) {
  if (size == 0) throw ParseError(name, 0, 0, "empty file; expected a fastText model");
  ByteCursor in{data, size, 0, name};
  if (in.get<std::int32_t>("the magic number") != kMagic)
    throw ParseError(name, 0, 0, "not a fastText model: expected the magic number 793712314");
  const auto version = in.get<std::int32_t>("the version");
  if (version > kVersion || version < 11)
    throw ParseError(name, 0, 4, fmt::format("fastText model version {}; expected 11 or 12", version));
  FastTextModel m;
  // Args (13 fields).
  const auto dim = in.get<std::int32_t>("args.dim");
  in.get<std::int32_t>("args.ws");
  in.get<std::int32_t>("args.epoch");
  in.get<std::int32_t>("args.minCount");
  in.get<std::int32_t>("args.neg");
  in.get<std::int32_t>("args.wordNgrams");
  in.get<std::int32_t>("args.loss");
  const auto model = in.get<std::int32_t>("args.model");
  const auto bucket = in.get<std::int32_t>("args.bucket");
  m.minn_ = in.get<std::int32_t>("args.minn");
  m.maxn_ = in.get<std::int32_t>("args.maxn");
  in.get<std::int32_t>("args.lrUpdateRate");
  in.get<double>("args.t");
  if (dim <= 0 || bucket < 0 || m.minn_ < 0 || m.maxn_ < 0 || m.maxn_ > 64)
    throw ParseError(
        name, 0, 8, fmt::format("implausible args dim {}, bucket {}, minn {}, maxn {}", dim, bucket, m.minn_, m.maxn_));
  if (version == 11 && model == kModelSupervised) m.maxn_ = 0;  // old supervised models had no char n-grams
  m.dim_ = static_cast<std::size_t>(dim);
  m.bucket_ = bucket;

  // Dictionary.
  const std::size_t dict_at = in.pos;
  const auto entries = in.get<std::int32_t>("dictionary size");
  m.nwords_ = in.get<std::int32_t>("dictionary nwords");
  in.get<std::int32_t>("dictionary nlabels");
  in.get<std::int64_t>("dictionary ntokens");
  m.prune_size_ = in.get<std::int64_t>("dictionary pruneidx_size");
  // Validate before allocating: each entry takes at least 10 bytes (NUL, count, type).
  if (entries < 0 || m.nwords_ < 0 || m.nwords_ > entries || static_cast<std::uint64_t>(entries) > (size - in.pos) / 10)
    throw ParseError(
        name, 0, dict_at,
        fmt::format("dictionary claims {} entries ({} words) but {} bytes remain", entries, m.nwords_, size - in.pos));
  m.words_.reserve(static_cast<std::size_t>(m.nwords_));
  m.ids_.reserve(static_cast<std::size_t>(m.nwords_));
  for (std::int32_t i = 0; i < entries; ++i) {
    const char* s = data + in.pos;
    const void* nul = std::memchr(s, '\0', size - in.pos);
    if (nul == nullptr) throw ParseError(name, 0, in.pos, fmt::format("entry {}: expected a NUL-terminated word", i));
    const std::size_t len = static_cast<std::size_t>(static_cast<const char*>(nul) - s);
    in.pos += len + 1;
    in.get<std::int64_t>("an entry count");
    const auto type = in.get<std::int8_t>("an entry type");
    if (i < m.nwords_) {
      if (type != 0) throw ParseError(name, 0, in.pos - 1, fmt::format("entry {}: expected a word (type 0)", i));
      m.words_.emplace_back(s, len);
      m.ids_.emplace(m.words_.back(), i);
    }
  }
  if (m.prune_size_ > 0) {
    if (static_cast<std::uint64_t>(m.prune_size_) > (size - in.pos) / 8)
      throw ParseError(name, 0, in.pos, fmt::format("pruneidx claims {} pairs; the file is shorter", m.prune_size_));
    for (std::int64_t i = 0; i < m.prune_size_; ++i) {
      const auto a = in.get<std::int32_t>("a pruneidx pair");
      const auto b = in.get<std::int32_t>("a pruneidx pair");
      // b picks a bucket row (row nwords + b of the input matrix, which has nwords + bucket rows).
      if (b < 0 || b >= m.bucket_)
        throw ParseError(name, 0, in.pos - 4,
                         fmt::format("pruneidx maps to bucket {}; the model has {}", b, m.bucket_));
      m.prune_[a] = b;
    }
  }
  // Input matrix.
  if (in.get<std::uint8_t>("the quantization flag") != 0)
    throw ParseError(name, 0, in.pos - 1,
                     "quantized model (.ftz); expected a full .bin model (quantized matrices are not supported)");
  const std::size_t mat_at = in.pos;
  const auto rows = in.get<std::int64_t>("input matrix rows");
  const auto cols = in.get<std::int64_t>("input matrix columns");
  if (cols != dim || rows < 0 || rows != static_cast<std::int64_t>(m.nwords_) + bucket)
    throw ParseError(name, 0, mat_at,
                     fmt::format("input matrix {} x {}; expected (nwords + bucket) x dim = {} x {}", rows, cols,
                                 static_cast<std::int64_t>(m.nwords_) + bucket, dim));
  if (static_cast<std::uint64_t>(rows) > (size - in.pos) / 4 / static_cast<std::uint64_t>(cols))
    throw ParseError(
        name, 0, in.pos,
        fmt::format("input matrix {} x {} needs {} bytes; {} remain (truncated?)", rows, cols,
                    static_cast<std::uint64_t>(rows) * static_cast<std::uint64_t>(cols) * 4, size - in.pos));
  m.input_ = data + in.pos;
  m.input_rows_ = rows;
  m.keepalive_ = std::move(keepalive);
  return m;
}

void FastTextModel::ngrams(const std::string& word, std::vector<std::int64_t>& out) const {
  // fastText's Dictionary::computeSubwords: n-grams of n = minn..maxn UTF-8 characters.
  for (std::size_t i = 0; i < word.size(); ++i) {
    if ((static_cast<unsigned char>(word[i]) & 0xC0) == 0x80) continue;
    std::string ngram;
    for (std::size_t j = i, n = 1; j < word.size() && n <= static_cast<std::size_t>(maxn_); ++n) {
      ngram.push_back(word[j++]);
      while (j < word.size() && (static_cast<unsigned char>(word[j]) & 0xC0) == 0x80) ngram.push_back(word[j++]);
      if (n >= static_cast<std::size_t>(minn_) && !(n == 1 && (i == 0 || j == word.size()))) {
        auto h = static_cast<std::int32_t>(hash(ngram) % static_cast<std::uint32_t>(bucket_));
        if (prune_size_ == 0) continue;
        if (prune_size_ > 0) {
          auto it = prune_.find(h);
          if (it == prune_.end()) continue;
          h = it->second;
        }
        out.push_back(nwords_ + static_cast<std::int64_t>(h));
      }
    }
  }
}

std::vector<std::int64_t> FastTextModel::subwords(std::string_view word) const {
  std::vector<std::int64_t> out;
  auto it = ids_.find(std::string(word));
  if (it != ids_.end()) out.push_back(it->second);
  if (word != "</s>" && bucket_ > 0) ngrams("<" + std::string(word) + ">", out);
  return out;
}

void FastTextModel::add_row(std::int64_t r, float* out) const {
  const char* row = input_ + static_cast<std::size_t>(r) * dim_ * 4;
  for (std::size_t j = 0; j < dim_; ++j) {
    float v;
    std::memcpy(&v, row + j * 4, 4);
    out[j] += v;
  }
}

void FastTextModel::word_vector(std::string_view word, float* out) const {
  std::fill(out, out + dim_, 0.0f);
  const auto rows = subwords(word);
  for (auto r : rows) {
    if (r < 0 || r >= input_rows_) throw Error(fmt::format("fastText row {} out of range", r));
    add_row(r, out);
  }
  if (!rows.empty()) {
    const auto scale = static_cast<float>(1.0 / static_cast<double>(rows.size()));  // fastText: vec.mul(1.0 / n)
    for (std::size_t j = 0; j < dim_; ++j) out[j] *= scale;
  }
}

std::vector<float> FastTextModel::word_vector(std::string_view word) const {
  std::vector<float> v(dim_);
  word_vector(word, v.data());
  return v;
}

bool FastTextModel::subword_vector(std::string_view word, std::span<float> out) const {
  if (out.size() != dim_)
    throw UsageError(fmt::format("subword vector of {} floats asked; the model has d = {}", out.size(), dim_));
  if (subwords(word).empty()) return false;
  word_vector(word, out.data());
  return true;
}

namespace detail {

Table read_fasttext_bin(const ReadContext& cx) {
  // The table keeps the model (its matrix stays in the mapped file) for words outside the vocabulary.
  const auto shared =
      std::make_shared<const FastTextModel>(FastTextModel::parse(cx.file->data(), cx.file->size(), cx.name(), cx.file));
  const FastTextModel& model = *shared;
  if (model.nwords() == 0) throw ParseError(cx.name(), 0, 0, "the dictionary has no words; expected V >= 1 rows");
  const std::size_t n = limited(model.nwords(), cx.options.limit);
  Matrix E(n, model.dim(), DType::f32);
  std::vector<std::string_view> words(n);
  float* out = E.f32_mut().data();
  for (std::size_t i = 0; i < n; ++i) {
    words[i] = model.word(i);
    model.word_vector(model.word(i), out + i * model.dim());
  }
  cx.report.file_dtype = DType::f32;
  Table t = assemble(words, std::move(E), cx, [](std::size_t) { return Location{0, 0}; });
  if (cx.options.dtype != DType::f32) t.E = t.E.to(cx.options.dtype);
  t.subwords = shared;
  return t;
}

}  // namespace detail
}  // namespace lumen::io
