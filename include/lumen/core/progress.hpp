#pragma once
// The one way long work says how far it is: `stage` names what runs now ("HNSW index", "t-SNE optimise",
// "tokenize"), `done` of `total` units (total 0: not known). Each face turns it into what it shows: the CLI a bar
// (apps/lumen/progress_bar.hpp: StageBar), the server a job's fraction, Python a check for Ctrl-C. A callback
// may throw (an interrupt) to abandon the work. Training sessions report richer records (train/session.hpp).
#include <cstdint>
#include <functional>
#include <string>

namespace lumen {

using ProgressFn = std::function<void(const std::string& stage, std::uint64_t done, std::uint64_t total)>;

}  // namespace lumen
