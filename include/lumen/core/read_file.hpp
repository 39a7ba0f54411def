#pragma once
// Reading input files without ever blocking on one: a FIFO, socket or device named where a file is expected (a
// config.json, a tokenizer.json, a corpus, a word list) is refused with a message saying what it is, before any
// read could wait for a writer that never comes.
#include <string>

namespace lumen {

// The whole of `path` (symlinks followed). Throws IoError naming the path and what stands there instead of a
// regular file ("is a directory", "is a FIFO"), or why it cannot be opened (no such file, a symlink loop).
std::string read_file(const std::string& path);

// Throws as read_file would unless `path` is a regular file now; for readers that then stream it through a
// std::ifstream or FILE*. (It looks by path, so a file swapped in between is not caught: that is a hang, not
// a hole, and the commands that read untrusted places open by descriptor.)
void require_regular_file(const std::string& path);

}  // namespace lumen
