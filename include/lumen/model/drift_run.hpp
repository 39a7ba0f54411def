#pragma once
// Figure 3 as a face asks for it (`lumen drift`, Python's lumen.drift): a checkpoint named by its path, its
// tokenizer, the drift of one token between two contexts, and the picture written where asked.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "lumen/model/checkpoint.hpp"
#include "lumen/model/drift.hpp"
#include "lumen/model/transformer.hpp"
#include "lumen/text/tokenizer.hpp"

namespace lumen::model {

struct DriftRequest {
  std::string checkpoint;             // a checkpoint directory, or a file in it
  std::string tokenizer;              // empty: the one beside the checkpoint (tokenizer_for)
  std::string token;                  // as drift() takes it (" bank", "␣bank", "Ġbank", "bank")
  std::vector<std::string> contexts;  // two texts that both hold the token
  std::size_t k = 5;                  // nearest rows and logit-lens tokens per layer; more than V: all V
  std::string output;                 // the picture to write, a .png or .svg (empty: none)
  std::size_t threads = 0;            // 0: the default
};

struct DriftRun {
  Transformer model;
  LoadReport report;
  std::unique_ptr<text::Tokenizer> tokenizer;
  std::size_t k = 0;  // the k used: the request's, at most V (less than asked: the caller may say so)
  Drift drift;
};

// Throws UsageError naming {output} for a picture that is not .png or .svg, before anything is read; then what
// load_checkpoint, tokenizer_for and drift() throw; UsageError (check_outputs_apart) when the picture would land on
// one of the checkpoint's files (its weights, config.json, tokenizer files, the tokenizer named). The picture is
// written atomically.
DriftRun run_drift(const DriftRequest& request);

}  // namespace lumen::model
