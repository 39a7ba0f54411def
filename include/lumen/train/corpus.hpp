#pragma once
// A corpus: UTF-8 text files (or directories of them) read as one stream, never held in memory whole.
// Files are read in 1 MiB chunks. A line ends a sentence; so does the end of a file, and a sentence is cut
// after `max_sentence` tokens (word2vec's 1000). Byte offsets are into the concatenation of the files, which
// lets threads split the corpus by bytes (as word2vec and fastText do) and checkpoints resume mid-file.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lumen/text/word_splitter.hpp"

namespace lumen::train {

struct CorpusFile {
  std::string path;
  std::uint64_t size = 0;
  std::uint64_t offset = 0;  // where the file starts in the concatenation
};

class Corpus {
 public:
  // Paths are files or directories (read recursively, files in name order; hidden files skipped).
  // Throws IoError for a path that does not exist or cannot be read, InputError for an empty corpus.
  static Corpus open(const std::vector<std::string>& paths);
  const std::vector<CorpusFile>& files() const { return files_; }
  std::uint64_t bytes() const { return bytes_; }

 private:
  std::vector<CorpusFile> files_;
  std::uint64_t bytes_ = 0;
};

// One sentence: tokens as views into an arena the reader reuses.
struct Sentence {
  std::string arena;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> spans;  // (begin, length) in arena
  std::size_t size() const { return spans.size(); }
  std::string_view operator[](std::size_t i) const { return {arena.data() + spans[i].first, spans[i].second}; }
  void clear() {
    arena.clear();
    spans.clear();
  }
};

class CorpusReader {
 public:
  static constexpr std::size_t kMaxSentence = 1000;
  // Reads the words that start in [begin, end) of the concatenation. If `aligned` is false and begin falls
  // inside a word, that word belongs to the previous range and is skipped; `aligned` = true trusts begin to
  // be a token boundary (a position() from an earlier reader), which is how a checkpoint resumes.
  CorpusReader(const Corpus& corpus, text::WordSplitter tokenizer, std::uint64_t begin, std::uint64_t end,
               bool aligned = false, std::size_t max_sentence = kMaxSentence);
  CorpusReader(const Corpus& corpus, text::WordSplitter tokenizer)
      : CorpusReader(corpus, tokenizer, 0, corpus.bytes(), true) {}
  ~CorpusReader();
  CorpusReader(const CorpusReader&) = delete;
  CorpusReader& operator=(const CorpusReader&) = delete;

  // The next sentence (possibly empty: a blank line); false at the end of the range.
  bool next_sentence(Sentence& out);
  // Byte offset just past what has been consumed: where a reader with aligned = true continues identically.
  std::uint64_t position() const { return pos_; }

 private:
  bool open_file(std::size_t index, std::uint64_t offset_in_file);
  int get();  // next byte or -1 at the end of the current file
  int peek();
  bool fill();

  const Corpus* corpus_;
  text::WordSplitter tokenizer_;
  std::uint64_t end_;
  std::size_t max_sentence_;
  std::size_t file_ = 0;
  std::FILE* fp_ = nullptr;
  std::vector<char> buf_;
  std::size_t buf_pos_ = 0, buf_len_ = 0;
  std::uint64_t pos_ = 0;  // global offset of the next byte get() returns
  bool done_ = false;
  std::string word_;
};

}  // namespace lumen::train
