#pragma once
// Figure 3: one token's vector through the blocks in different contexts. At layer 0 (the input layer: E's row plus
// the position's row) the lookup cannot see context, so the occurrences differ only by the position term; block by
// block the residual stream pulls them apart. Per layer: the cosine between the occurrences, each one's nearest
// rows of E and its logit-lens top tokens (the final norm, then the head); a PCA of all the states for a picture.
// A cosine between residual states means little alone (GPT-2's later layers are strongly anisotropic): each layer's
// cosine comes with that layer's baseline, the anisotropy of every position's state in both contexts, and the
// cosine set beside it (project::baseline_adjusted).
#include <cstdint>
#include <string>
#include <vector>

#include "lumen/model/generate.hpp"
#include "lumen/model/transformer.hpp"
#include "lumen/project/anisotropy.hpp"
#include "lumen/project/plot.hpp"
#include "lumen/text/tokenizer.hpp"

namespace lumen::model {

struct DriftNeighbour {
  std::int32_t id = 0;
  double cosine = 0;
};

struct DriftOccurrence {
  std::string context;                               // the text
  std::vector<std::int32_t> ids;                     // its tokens
  std::size_t position = 0;                          // where the token is
  std::int32_t token = 0;                            // the token's id there
  std::vector<std::vector<float>> states;            // (N+1) x (C): the hidden state per layer
  std::vector<std::vector<DriftNeighbour>> nearest;  // (N+1) x k: nearest rows of E (cosine)
  std::vector<std::vector<TokenChoice>> lens;        // (N+1) x k: logit lens
};

struct Drift {
  std::vector<DriftOccurrence> occurrences;   // 2
  std::vector<double> cosine;                 // (N+1): between the two occurrences' states per layer
  std::vector<project::Anisotropy> baseline;  // (N+1): every pair of positions' states, both contexts pooled
  std::vector<double> adjusted;               // (N+1): the cosine beside its layer's baseline
  bool learned_positions = false;
  double position_term_norm = 0;           // |wpe[p0] - wpe[p1]| (learned positions; 0 otherwise)
  double token_row_norm = 0;               // |E[token]| of the first occurrence
  bool same_token = true;                  // both occurrences are the same id (same row of E)
  std::vector<float> pca_xy;               // ((N+1) * 2, 2): occurrence 0's layers, then occurrence 1's
  std::vector<double> pca_variance_ratio;  // (2)
};

// Where the token is in one context: its tokens and the first position that holds it.
struct DriftSite {
  std::vector<std::int32_t> ids;
  std::size_t position = 0;
};

// The sites drift() would use, found and checked as it checks them (the same errors, below), without running the
// model: a caller (the explorer) refuses a bad request at once instead of in a background job.
std::vector<DriftSite> drift_sites(const Transformer& model, const text::Tokenizer& tokenizer, const std::string& token,
                                   const std::vector<std::string>& contexts);

// token: " bank", "␣bank", "Ġbank" (a token as other commands take it) or a bare word "bank", matched in each
// context to the token that spells it (with or without its leading space); the first match is used. Throws
// UsageError unless there are exactly two contexts, InputError if the token is not in a context (listing its tokens)
// or a context is longer than the model's context.
Drift drift(const Transformer& model, const text::Tokenizer& tokenizer, const std::string& token,
            const std::vector<std::string>& contexts, std::size_t k = 5, std::size_t threads = 0);

// The picture: both trajectories on the PCA plane (points numbered by layer) and the cosine by layer.
std::string render_drift(const Drift& d, const text::Tokenizer& tokenizer, project::PlotFormat format);

}  // namespace lumen::model
