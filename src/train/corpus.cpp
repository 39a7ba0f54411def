#include "lumen/train/corpus.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/core/read_file.hpp"

namespace lumen::train {

namespace fs = std::filesystem;

Corpus Corpus::open(const std::vector<std::string>& paths) {
  if (paths.empty()) throw UsageError("no corpus given");
  Corpus c;
  auto add = [&](const fs::path& p) {
    require_regular_file(p.string());  // a FIFO named as the corpus is refused, never waited on
    std::error_code ec;
    const auto size = fs::file_size(p, ec);
    if (ec) throw IoError(fmt::format("{}: cannot read: {}", p.string(), ec.message()));
    c.files_.push_back({p.string(), size, c.bytes_});
    c.bytes_ += size;
  };
  for (const auto& path : paths) {
    std::error_code ec;
    const auto st = fs::status(path, ec);
    if (ec || !fs::exists(st)) require_regular_file(path);  // throws, saying why (missing, a symlink loop)
    if (fs::is_directory(st)) {
      std::vector<fs::path> found;
      for (auto it = fs::recursive_directory_iterator(path, fs::directory_options::skip_permission_denied, ec);
           !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        const auto name = it->path().filename().string();
        if (!name.empty() && name[0] == '.') {
          if (it->is_directory()) it.disable_recursion_pending();
          continue;
        }
        if (it->is_regular_file()) found.push_back(it->path());
      }
      if (ec) throw IoError(fmt::format("{}: cannot list: {}", path, ec.message()));
      std::sort(found.begin(), found.end());
      for (auto& f : found) add(f);
    } else {
      add(path);
    }
  }
  if (c.bytes_ == 0) throw InputError("the corpus is empty (no text in the files given)");
  return c;
}

CorpusReader::CorpusReader(const Corpus& corpus, text::WordSplitter tokenizer, std::uint64_t begin, std::uint64_t end,
                           bool aligned, std::size_t max_sentence)
    : corpus_(&corpus),
      tokenizer_(tokenizer),
      end_(std::min(end, corpus.bytes())),
      max_sentence_(max_sentence == 0 ? kMaxSentence : max_sentence),
      buf_(1 << 20) {
  begin = std::min(begin, end_);
  const auto& files = corpus.files();
  // The file holding `begin` (the last one whose offset <= begin, skipping empty files).
  std::size_t f = 0;
  while (f + 1 < files.size() && files[f + 1].offset <= begin) ++f;
  if (begin >= corpus.bytes()) {
    done_ = true;
    pos_ = begin;
    return;
  }
  open_file(f, begin - files[f].offset);
  if (!aligned && begin > 0 && begin > files[f].offset) {
    // Mid-file: if the byte before begin is part of a word, that word is the previous range's.
    std::FILE* probe = std::fopen(files[f].path.c_str(), "rb");
    if (!probe) throw IoError(fmt::format("{}: cannot open: {}", files[f].path, std::strerror(errno)));
    std::fseek(probe, static_cast<long>(begin - files[f].offset - 1), SEEK_SET);
    const int prev = std::fgetc(probe);
    std::fclose(probe);
    if (prev != EOF && !text::is_ascii_space(static_cast<char>(prev)))
      while (true) {
        const int c = peek();
        if (c < 0 || text::is_ascii_space(static_cast<char>(c))) break;
        get();
      }
  }
}

CorpusReader::~CorpusReader() {
  if (fp_) std::fclose(fp_);
}

bool CorpusReader::open_file(std::size_t index, std::uint64_t offset_in_file) {
  if (fp_) std::fclose(fp_);
  fp_ = nullptr;
  file_ = index;
  buf_pos_ = buf_len_ = 0;
  const auto& f = corpus_->files()[index];
  fp_ = std::fopen(f.path.c_str(), "rb");
  if (!fp_) throw IoError(fmt::format("{}: cannot open: {}", f.path, std::strerror(errno)));
  if (offset_in_file > 0 && std::fseek(fp_, static_cast<long>(offset_in_file), SEEK_SET) != 0)
    throw IoError(fmt::format("{}: cannot seek to byte {}: {}", f.path, offset_in_file, std::strerror(errno)));
  pos_ = f.offset + offset_in_file;
  return true;
}

bool CorpusReader::fill() {
  if (!fp_) return false;
  buf_len_ = std::fread(buf_.data(), 1, buf_.size(), fp_);
  buf_pos_ = 0;
  if (buf_len_ == 0) {
    if (std::ferror(fp_))
      throw IoError(fmt::format("{}: read error near byte {}", corpus_->files()[file_].path,
                                pos_ - corpus_->files()[file_].offset));
    return false;
  }
  return true;
}

int CorpusReader::peek() {
  if (buf_pos_ == buf_len_ && !fill()) return -1;
  return static_cast<unsigned char>(buf_[buf_pos_]);
}

int CorpusReader::get() {
  const int c = peek();
  if (c >= 0) {
    ++buf_pos_;
    ++pos_;
  }
  return c;
}

bool CorpusReader::next_sentence(Sentence& out) {
  out.clear();
  if (done_) return false;
  bool any = false;  // consumed anything in this call
  while (true) {
    if (pos_ >= end_) {
      done_ = true;
      return any || !out.spans.empty();
    }
    int c = get();
    if (c < 0) {
      // End of this file: it ends the sentence too. Move to the next non-empty file.
      const auto& files = corpus_->files();
      std::size_t f = file_ + 1;
      while (f < files.size() && files[f].size == 0) ++f;
      if (f >= files.size() || files[f].offset >= end_) {
        done_ = true;
        pos_ = std::max(pos_, std::min(end_, corpus_->bytes()));
        return any || !out.spans.empty();
      }
      open_file(f, 0);
      if (any) return true;
      continue;
    }
    any = true;
    if (c == '\n') return true;
    if (text::is_ascii_space(static_cast<char>(c))) continue;
    // A word: read to the next space (a word started before end_ is read whole, even past end_).
    word_.clear();
    word_.push_back(static_cast<char>(c));
    while (true) {
      const int n = peek();
      if (n < 0 || text::is_ascii_space(static_cast<char>(n))) break;
      word_.push_back(static_cast<char>(get()));
    }
    tokenizer_.split(word_, out.arena, [&](std::size_t b, std::size_t len) {
      out.spans.emplace_back(static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(len));
    });
    if (out.spans.size() >= max_sentence_) return true;
  }
}

}  // namespace lumen::train
