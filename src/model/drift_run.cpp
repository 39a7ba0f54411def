#include "lumen/model/drift_run.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>

#include "lumen/core/atomic_file.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/file_identity.hpp"
#include "lumen/core/text_fold.hpp"
#include "lumen/model/model_tokenizer.hpp"

namespace lumen::model {

DriftRun run_drift(const DriftRequest& r) {
  const std::string ext = r.output.empty() ? "" : ascii_lower(std::filesystem::path(r.output).extension().string());
  if (!r.output.empty() && ext != ".png" && ext != ".svg")
    throw UsageError(OptionText{fmt::format("{{output}} {}: expected a .png or .svg file", r.output), {"output"}});
  LoadReport report;
  Transformer m = load_checkpoint(r.checkpoint, &report);
  const std::filesystem::path dir = checkpoint_dir(r.checkpoint);
  std::unique_ptr<text::Tokenizer> tok = tokenizer_for(m, r.checkpoint, r.tokenizer);
  if (!r.output.empty()) {  // the picture never goes over the checkpoint's files
    std::vector<std::string> inputs = report.files;
    for (const char* f : {"config.json", "tokenizer.json", "encoder.json", "vocab.bpe"})
      inputs.push_back((dir / f).string());
    if (!r.tokenizer.empty()) inputs.push_back(r.tokenizer);
    check_outputs_apart(inputs, {r.output});
  }
  const std::size_t k = std::min(r.k, m.shape().V);
  Drift d = drift(m, *tok, r.token, r.contexts, k, r.threads);
  if (!r.output.empty())
    write_file_atomic(r.output,
                      render_drift(d, *tok, ext == ".svg" ? project::PlotFormat::svg : project::PlotFormat::png));
  return DriftRun{std::move(m), std::move(report), std::move(tok), k, std::move(d)};
}

}  // namespace lumen::model
