// Writers, one function per format, all through lumen::AtomicFile. Values go out in the table's storage type
// where the format has one (safetensors F32/F16/BF16, .npy <f4/<f2); text gets the shortest decimal that
// reads back to the same float (fmt's "{}"), so an f32 table round-trips exactly.
#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "lumen/core/atomic_file.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/text_fold.hpp"
#include "lumen/io/write.hpp"

namespace lumen::io {

namespace {

std::string file_name(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string extension(const std::string& path) {
  const std::string f = file_name(path);
  const auto dot = f.rfind('.');
  if (dot == std::string::npos) return "";
  return ascii_lower(f.substr(dot + 1));
}

// A token must not break the line-based formats.
void check_token(const std::string& tok, Format f, std::size_t id) {
  const bool spaces = f == Format::word2vec_text || f == Format::word2vec_binary || f == Format::glove;
  for (char c : tok)
    if (c == '\n' || (spaces && (c == ' ' || c == '\t')) || (f == Format::projector_tsv && c == '\t') ||
        (f == Format::npy && c == '\r'))
      throw InputError(fmt::format("token {} ('{}') contains a {}; {} cannot hold it", id, tok,
                                   c == '\n'   ? "newline"
                                   : c == '\t' ? "tab"
                                   : c == '\r' ? "carriage return"
                                               : "space",
                                   format_name(f)));
  if (tok.empty() && f != Format::npy && f != Format::projector_tsv)
    throw InputError(fmt::format("token {} is empty; {} cannot hold it", id, format_name(f)));
}

// "-" is standard output, written in place; anything else goes through AtomicFile's rules.
AtomicFile open_output(const std::string& path) {
  return path == "-" ? AtomicFile::standard_output() : AtomicFile(path);
}

// Rows labelled "0".."V-1" need no .npy vocabulary file.
bool numbered(const Table& t) {
  if (t.vocab.is_numbered()) return true;
  for (std::size_t r = 0; r < t.V(); ++r)
    if (t.vocab.token(static_cast<Id>(r)) != std::to_string(r)) return false;
  return true;
}

// Row r as text: "v1 v2 ..." with `sep`.
void append_row(std::string& buf, const Matrix& E, std::size_t r, std::vector<float>& tmp, char sep) {
  E.row_f32(r, tmp.data());
  for (std::size_t k = 0; k < tmp.size(); ++k) {
    if (k) buf.push_back(sep);
    fmt::format_to(std::back_inserter(buf), "{}", tmp[k]);
  }
}

void write_text(const Table& t, const std::string& path, Format f) {
  AtomicFile out = open_output(path);
  std::string buf;
  if (f == Format::word2vec_text) buf = fmt::format("{} {}\n", t.V(), t.d());
  std::vector<float> tmp(t.d());
  for (std::size_t r = 0; r < t.V(); ++r) {
    const std::string& tok = t.vocab.token(static_cast<Id>(r));
    check_token(tok, f, r);
    buf += tok;
    buf.push_back(' ');
    append_row(buf, t.E, r, tmp, ' ');
    buf.push_back('\n');
    if (buf.size() > (1u << 20)) {
      out.write(buf);
      buf.clear();
    }
  }
  out.write(buf);
  out.commit();
}

void write_word2vec_binary(const Table& t, const std::string& path) {
  AtomicFile out = open_output(path);
  out.write(fmt::format("{} {}\n", t.V(), t.d()));
  std::vector<float> tmp(t.d());
  for (std::size_t r = 0; r < t.V(); ++r) {
    const std::string& tok = t.vocab.token(static_cast<Id>(r));
    check_token(tok, Format::word2vec_binary, r);
    out.write(tok);
    out.write(" ", 1);
    t.E.row_f32(r, tmp.data());
    out.write(tmp.data(), tmp.size() * 4);
    out.write("\n", 1);
  }
  out.commit();
}

std::string_view st_dtype(DType d) { return d == DType::f32 ? "F32" : d == DType::f16 ? "F16" : "BF16"; }

void write_safetensors(const Table& t, const std::string& path, const WriteOptions& o) {
  nlohmann::json tokens = nlohmann::json::array();
  for (const auto& tok : t.vocab.tokens()) tokens.push_back(tok);
  nlohmann::json h;
  h[o.tensor] = {{"dtype", st_dtype(t.E.dtype())}, {"shape", {t.V(), t.d()}}, {"data_offsets", {0, t.E.bytes()}}};
  h["__metadata__"] = {{"format", "pt"},
                       {"lumen.tensor", o.tensor},
                       {"lumen.vocab", tokens.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)}};
  std::string header = h.dump();
  header.append((8 - (8 + header.size()) % 8) % 8, ' ');  // keep the data 8-byte aligned
  unsigned char len[8];
  for (int i = 0; i < 8; ++i) len[i] = static_cast<unsigned char>(static_cast<std::uint64_t>(header.size()) >> (8 * i));
  AtomicFile out = open_output(path);
  out.write(len, 8);
  out.write(header);
  out.write(t.E.data(), t.E.bytes());
  out.commit();
}

void write_npy(const Table& t, const std::string& path, const WriteOptions& o) {
  // NumPy has no bfloat16: such a table is widened to float32 (exact).
  const bool wide = t.E.dtype() != DType::f16;
  std::string header =
      fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({}, {}), }}", wide ? "<f4" : "<f2", t.V(), t.d());
  const std::size_t total = ((10 + header.size() + 1 + 63) / 64) * 64;  // data 64-byte aligned, as NumPy does
  header.append(total - 10 - header.size() - 1, ' ');
  header.push_back('\n');
  const std::string vocab_path = o.vocab_path.empty() ? npy_vocab_path(path) : o.vocab_path;
  const bool plain = numbered(t);

  AtomicFile out = open_output(path);
  const unsigned char magic[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  out.write(magic, 8);
  const unsigned char hlen[2] = {static_cast<unsigned char>(header.size() & 0xff),
                                 static_cast<unsigned char>(header.size() >> 8)};
  out.write(hlen, 2);
  out.write(header);
  if (t.E.dtype() == DType::bf16) {
    std::vector<float> tmp(t.d());
    for (std::size_t r = 0; r < t.V(); ++r) {
      t.E.row_f32(r, tmp.data());
      out.write(tmp.data(), tmp.size() * 4);
    }
  } else {
    out.write(t.E.data(), t.E.bytes());
  }
  if (plain && o.vocab_path.empty()) {
    out.commit();
    return;
  }
  AtomicFile voc = open_output(vocab_path);
  std::string buf;
  for (std::size_t r = 0; r < t.V(); ++r) {
    const std::string& tok = t.vocab.token(static_cast<Id>(r));
    check_token(tok, Format::npy, r);
    buf += tok;
    buf.push_back('\n');
  }
  voc.write(buf);
  out.commit();
  voc.commit();
}

void write_projector(const Table& t, const std::string& path, const WriteOptions& o) {
  AtomicFile vec = open_output(path);
  AtomicFile meta = open_output(o.vocab_path.empty() ? projector_metadata_path(path) : o.vocab_path);
  std::string buf, names;
  std::vector<float> tmp(t.d());
  for (std::size_t r = 0; r < t.V(); ++r) {
    const std::string& tok = t.vocab.token(static_cast<Id>(r));
    check_token(tok, Format::projector_tsv, r);
    names += tok;
    names.push_back('\n');
    append_row(buf, t.E, r, tmp, '\t');
    buf.push_back('\n');
    if (buf.size() > (1u << 20)) {
      vec.write(buf);
      buf.clear();
    }
  }
  vec.write(buf);
  meta.write(names);
  vec.commit();
  meta.commit();
}

}  // namespace

Format format_from_path(const std::string& path) {
  if (path == "-") return Format::word2vec_text;
  const std::string e = extension(path);
  if (e == "txt" || e == "vec") return Format::word2vec_text;
  if (e == "bin") return Format::word2vec_binary;
  if (e == "glove") return Format::glove;
  if (e == "safetensors") return Format::safetensors;
  if (e == "npy") return Format::npy;
  if (e == "tsv") return Format::projector_tsv;
  if (e == "gguf") return Format::gguf;  // named so that writing one is refused with the reason
  throw UsageError(OptionText{fmt::format("cannot tell the output format from '{}'; name it with {{to}} "
                                          "(word2vec-text, word2vec-binary, glove, safetensors, npy, projector-tsv)",
                                          path),
                              {"to"}});
}

std::string projector_metadata_path(const std::string& vectors_path) {
  const auto slash = vectors_path.rfind('/');
  const std::size_t name_at = slash == std::string::npos ? 0 : slash + 1;
  const auto v = vectors_path.rfind("vectors");
  if (v != std::string::npos && v >= name_at)
    return vectors_path.substr(0, v) + "metadata" + vectors_path.substr(v + 7);
  const auto dot = vectors_path.rfind('.');
  const std::string stem = dot != std::string::npos && dot > name_at ? vectors_path.substr(0, dot) : vectors_path;
  return stem + "-metadata.tsv";
}

std::string npy_vocab_path(const std::string& npy_path) {
  const auto slash = npy_path.rfind('/');
  const std::size_t name_at = slash == std::string::npos ? 0 : slash + 1;
  const auto dot = npy_path.rfind('.');
  const std::string stem = dot != std::string::npos && dot > name_at ? npy_path.substr(0, dot) : npy_path;
  return stem + ".vocab.txt";
}

namespace {
// The formats lumen reads but does not write.
void refuse_unwritable(Format format) {
  if (format == Format::fasttext_bin)
    throw UsageError("lumen cannot write a fastText .bin model (it needs the n-gram matrix); choose another format");
  if (format == Format::gguf)
    throw UsageError(
        "lumen reads GGUF tables but does not write them; choose another format (safetensors keeps "
        "the vocabulary and f16/bf16)");
}
}  // namespace

void check_destination(const std::string& path, Format format, const WriteOptions& options) {
  refuse_unwritable(format);
  if (path.empty()) throw UsageError("the output path is empty");
  if (path != "-") return;  // a token file (vocab_path) may be "-": tokens are text
  if (format != Format::word2vec_text && format != Format::glove && format != Format::projector_tsv)
    throw UsageError(
        fmt::format("{} is a binary format: standard output (\"-\") takes word2vec-text, glove or "
                    "projector-tsv; write it to a file",
                    format_name(format)));
  if (format == Format::projector_tsv && (options.vocab_path.empty() || options.vocab_path == "-"))
    throw UsageError("projector-tsv to standard output needs a file of its own for the metadata (the tokens)");
}

std::vector<std::string> output_paths(const Table& t, const std::string& path, Format format,
                                      const WriteOptions& options) {
  std::vector<std::string> files{path};
  if (format == Format::projector_tsv)
    files.push_back(options.vocab_path.empty() ? projector_metadata_path(path) : options.vocab_path);
  if (format == Format::npy && (!options.vocab_path.empty() || !numbered(t)))
    files.push_back(options.vocab_path.empty() ? npy_vocab_path(path) : options.vocab_path);
  return files;
}

void write_table(const Table& t, const std::string& path, Format format, const WriteOptions& options) {
  if (t.vocab.size() != t.V()) throw Error(fmt::format("table has {} tokens for {} rows", t.vocab.size(), t.V()));
  check_destination(path, format, options);
  switch (format) {
    case Format::word2vec_text:
    case Format::glove: return write_text(t, path, format);
    case Format::word2vec_binary: return write_word2vec_binary(t, path);
    case Format::safetensors: return write_safetensors(t, path, options);
    case Format::npy: return write_npy(t, path, options);
    case Format::projector_tsv: return write_projector(t, path, options);
    case Format::fasttext_bin:
    case Format::gguf: return refuse_unwritable(format);
  }
}

}  // namespace lumen::io
