#pragma once
// Where a path really leads and whether two paths are one file: what keeps an output from overwriting an input
// (`lumen convert a.vec ./a.vec`, a symlink or a hard link to the input, two outputs naming one file).
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

// Throws UsageError, naming both paths, when an output is the same file as an input or as another output.
void check_outputs_apart(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs);

}  // namespace lumen
