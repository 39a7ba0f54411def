// io::open_table: detect (or take) the format, map the file, hand it to that format's reader.
#include "lumen/io/open.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fmt/format.h>
#include <sys/stat.h>

#include "io/readers.hpp"
#include "io/table_cache.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/text_fold.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/io/write.hpp"

namespace lumen::io {

namespace {
struct Named {
  Format format;
  std::string_view name;
};
constexpr Named kNames[] = {
    {Format::word2vec_text, "word2vec-text"},
    {Format::word2vec_binary, "word2vec-binary"},
    {Format::glove, "glove"},
    {Format::fasttext_bin, "fasttext-bin"},
    {Format::safetensors, "safetensors"},
    {Format::npy, "npy"},
    {Format::projector_tsv, "projector-tsv"},
    {Format::gguf, "gguf"},
};
// Other spellings people use.
constexpr Named kAliases[] = {
    {Format::word2vec_text, "word2vec"}, {Format::word2vec_text, "w2v"},          {Format::word2vec_text, "vec"},
    {Format::word2vec_text, "text"},     {Format::word2vec_binary, "w2v-binary"}, {Format::word2vec_binary, "binary"},
    {Format::glove, "glove-text"},       {Format::fasttext_bin, "fasttext"},      {Format::safetensors, "st"},
    {Format::projector_tsv, "tsv"},      {Format::projector_tsv, "projector"},
};

std::string normalise(std::string_view s) {
  std::string out = ascii_lower(s);
  std::replace(out.begin(), out.end(), '_', '-');
  return out;
}

Table read(const detail::ReadContext& cx, Format f) {
  switch (f) {
    case Format::word2vec_text:
    case Format::glove: return detail::read_text(cx, f);
    case Format::projector_tsv: {
      Table t = detail::read_text(cx, f);
      std::string meta = cx.options.vocab_path.empty() ? projector_metadata_path(cx.name()) : cx.options.vocab_path;
      struct stat st {};
      if (!cx.options.vocab_path.empty() || ::stat(meta.c_str(), &st) == 0) {
        const bool limited = cx.options.limit != 0 && t.E.rows() == cx.options.limit;
        auto tokens = detail::read_vocab_file(meta, t.E.rows(), limited ? 0 : t.E.rows(), cx);
        std::vector<std::string_view> words(tokens.begin(), tokens.end());
        Table named = detail::assemble(words, std::move(t.E), cx, [](std::size_t i) {
          return detail::Location{i + 1, 0};
        });
        return named;
      }
      t.vocab = Vocab::numbered(t.E.rows());
      return t;
    }
    case Format::word2vec_binary: return detail::read_word2vec_binary(cx);
    case Format::fasttext_bin: return detail::read_fasttext_bin(cx);
    case Format::safetensors: return detail::read_safetensors(cx);
    case Format::npy: return detail::read_npy(cx);
    case Format::gguf: return detail::read_gguf(cx);
  }
  throw Error("unknown format");
}

Table open_mapped(std::shared_ptr<const MappedFile> file, const OpenOptions& options, LoadReport& report) {
  report = LoadReport{};
  report.file_bytes = file->size();
  const detail::ReadContext cx{file, options, report};
  const Format f = options.format ? *options.format : detail::detect(file->view(), file->size(), file->path());
  Table t = read(cx, f);
  // Each reader refuses an empty table where it reads the shape; this catches any path that did not.
  if (t.E.rows() == 0 || t.E.cols() == 0)
    throw ParseError(
        file->path(), 0, 0,
        fmt::format("an empty table ({} x {}); expected V >= 1 rows and d >= 1 columns", t.E.rows(), t.E.cols()));
  report.mapped = report.mapped && !t.E.owned();  // a reader may have copied after all (duplicates dropped)
  t.source = file->path();
  t.format = std::string(format_name(f));
  return t;
}
}  // namespace

std::string_view format_name(Format f) {
  for (const auto& n : kNames)
    if (n.format == f) return n.name;
  return "unknown";
}

Format parse_format(std::string_view name) {
  const std::string s = normalise(name);
  for (const auto& n : kNames)
    if (n.name == s) return n.format;
  for (const auto& n : kAliases)
    if (n.name == s) return n.format;
  std::string all;
  for (const auto& n : kNames) all += (all.empty() ? "" : ", ") + std::string(n.name);
  throw UsageError(fmt::format("unknown table format '{}'; expected one of {}", name, all));
}

std::string file_type_name(const LoadReport& report) {
  if (!report.quantisation.empty()) return report.quantisation;
  return report.file_dtype ? std::string(dtype_name(*report.file_dtype)) : std::string("text");
}

UnicodeErrors parse_unicode_errors(std::string_view name) {
  const std::string s = normalise(name);
  if (s == "strict") return UnicodeErrors::strict;
  if (s == "replace") return UnicodeErrors::replace;
  if (s == "ignore") return UnicodeErrors::ignore;
  throw OptionError("unicode_errors", fmt::format("unknown {{option}} '{}'; expected strict, replace or ignore", name));
}

namespace {
// The table's file, mapped; a directory is refused saying what it is and, for a checkpoint's, which file in it
// holds the table.
std::shared_ptr<const MappedFile> map_table_file(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    std::string hint = "; name a table file";
    for (const char* inside : {"model.safetensors", "model.safetensors.index.json"})
      if (fs::exists(fs::path(path) / inside, ec)) {
        hint =
            fmt::format("; it looks like a checkpoint: its input table E is in {}", (fs::path(path) / inside).string());
        break;
      }
    throw IoError(fmt::format("cannot read {}: is a directory, not a table file{}", path, hint));
  }
  return MappedFile::open(path);
}
}  // namespace

Format detect_format(const std::string& path) {
  auto file = map_table_file(path);
  return detail::detect(file->view(), file->size(), path);
}

Table open_table(const std::string& path, const OpenOptions& options) {
  LoadReport report;
  return open_table(path, options, report);
}

Table open_table(const std::string& path, const OpenOptions& options, LoadReport& report) {
  auto file = map_table_file(path);
  if (options.cache_dir.empty()) return open_mapped(file, options, report);
  const Format f = options.format ? *options.format : detail::detect(file->view(), file->size(), file->path());
  if (f != Format::word2vec_text && f != Format::glove) return open_mapped(file, options, report);  // mapped anyway
  // The conversion cache: map the entry if it was made from this very source, else parse and (re)write it. A
  // directory that is not safe to use is not used: the table is parsed, with a warning saying why.
  try {
    detail::prepare_cache_dir(options.cache_dir);
  } catch (const IoError& e) {
    Table t = open_mapped(file, options, report);
    report.warnings.push_back(fmt::format("table cache not used, the table was parsed: {}", e.what()));
    return t;
  }
  const std::size_t threads = options.threads != 0 ? options.threads : default_threads();
  const detail::Fingerprint fp = detail::fingerprint(*file);
  const std::string entry = detail::cache_entry_path(options.cache_dir, path, f, options);
  report = LoadReport{};
  if (auto cached = detail::read_cache_entry(entry, fp, report, threads)) {
    report.file_bytes = file->size();
    report.from_cache = true;
    cached->source = path;
    cached->format = std::string(format_name(f));
    return std::move(*cached);
  }
  Table t = open_mapped(file, options, report);
  try {
    detail::write_cache_entry(entry, fp, t, report, threads);
  } catch (const IoError& e) {
    report.warnings.push_back(fmt::format("table cache not written, the table was parsed: {}", e.what()));
  }
  return t;
}

Table open_table_bytes(std::string_view bytes, const std::string& name, const OpenOptions& options,
                       LoadReport& report) {
  Table t = open_mapped(MappedFile::over(bytes, name), options, report);
  if (!t.E.owned()) t.E = t.E.clone();  // the bytes are the caller's: own a copy
  t.subwords.reset();                   // a fastText model reads its n-gram rows from those bytes: drop it
  report.mapped = false;
  return t;
}

}  // namespace lumen::io
