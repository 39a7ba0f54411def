#pragma once
// Writing a table in any format lumen writes. Every file goes through lumen::AtomicFile: an error leaves the
// target untouched (no half-written file), and a format written as two files commits both only at the end.
#include <string>
#include <vector>

#include "lumen/core/table.hpp"
#include "lumen/io/open.hpp"

namespace lumen::io {

struct WriteOptions {
  std::string vocab_path;             // npy / projector-tsv: the token file (empty: beside the output, see below)
  std::string tensor = "wte.weight";  // safetensors: the tensor's name (a conventional one, found on reading)
};

// The format an output path asks for, by extension: .txt/.vec word2vec-text, .bin word2vec-binary,
// .glove glove, .safetensors, .npy, .tsv projector-tsv; "-" (standard output) word2vec-text. Throws UsageError
// for others (use --to).
Format format_from_path(const std::string& path);

// Throws UsageError when `format` cannot go to `path` with these options: fastText .bin (not writable), a binary
// format to "-" (standard output takes the text formats: word2vec-text, glove, and projector-tsv when its
// metadata has a file of its own in options.vocab_path). options.vocab_path may be "-" too (tokens are text).
// Cheap: for checking before a table is loaded.
void check_destination(const std::string& path, Format format, const WriteOptions& options = {});

// Every file write_table(t, path, format, options) writes, the table's own first: the projector's metadata and
// the .npy vocabulary (when the rows are not simply numbered "0".."V-1", or options.vocab_path asks for one).
std::vector<std::string> output_paths(const Table& t, const std::string& path, Format format,
                                      const WriteOptions& options = {});

// Writes t as `format` (in t.E's storage type where the format has it; text is written with the shortest
// decimal that reads back to the same float). "-" is standard output (see check_destination). Every file goes
// through AtomicFile: a symlink is written through, a FIFO or a device in place (lumen/core/atomic_file.hpp).
void write_table(const Table& t, const std::string& path, Format format, const WriteOptions& options = {});

// Files that go with another: projector vectors.tsv -> metadata.tsv (the last "vectors" in the file name
// becomes "metadata", else "<stem>-metadata.tsv"); foo.npy -> foo.vocab.txt.
std::string projector_metadata_path(const std::string& vectors_path);
std::string npy_vocab_path(const std::string& npy_path);

}  // namespace lumen::io
