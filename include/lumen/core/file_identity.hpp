#pragma once
// Where a path really leads and whether two paths are one file: what keeps an output from overwriting an input
// (`lumen convert a.vec ./a.vec`, a symlink or a hard link to the input, two outputs naming one file), and an
// output directory that is replaced as a whole from taking an input inside it with it
// (`lumen train gpt m/config.json -o m`).
#include <string>
#include <vector>

namespace lumen {

// The path a write to `path` lands on: symlinks followed, including one whose target does not exist yet (the
// write creates it) and chains of them; a relative target is taken from its link's directory. A path that is
// not a symlink comes back as it is. Throws IoError on a symlink loop.
std::string resolve_symlinks(const std::string& path);

// True when `a` and `b` name one file: the same device and inode when both exist (so symlinks, hard links and
// `./a.vec` vs `a.vec` are caught), else the same absolute path once symlinks and `.`/`..` are resolved.
// "-" stands for standard output (the file or pipe it is).
bool same_file(const std::string& a, const std::string& b);

// True when `path` is the directory `dir` or lies inside it at any depth, symlinks resolved (in `path`'s
// directories and in `dir`), `.`/`..` and relative spellings alike: what replacing `dir` as a whole would take
// with it. A `dir` that does not exist yet is compared by its resolved path; one that is not a directory holds
// nothing.
bool lies_within(const std::string& path, const std::string& dir);

// Throws UsageError, naming both paths, when an output is the same file as an input or as another output; and,
// for `output_dirs` (directories written as a whole, replacing what was there: lumen::AtomicDir), when an input
// or an output file is such a directory or lies inside one, or two of them overlap.
void check_outputs_apart(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs,
                         const std::vector<std::string>& output_dirs = {});

}  // namespace lumen
