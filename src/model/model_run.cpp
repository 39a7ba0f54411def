#include "lumen/model/model_run.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/file_identity.hpp"
#include "lumen/core/text_fold.hpp"
#include "lumen/model/model_tokenizer.hpp"

namespace lumen::model {

std::optional<project::PlotFormat> picture_format(const std::string& output) {
  if (output.empty()) return std::nullopt;
  const std::string ext = ascii_lower(std::filesystem::path(output).extension().string());
  if (ext == ".png") return project::PlotFormat::png;
  if (ext == ".svg") return project::PlotFormat::svg;
  throw UsageError(OptionText{fmt::format("{{output}} {}: expected a .png or .svg file", output), {"output"}});
}

OpenedModel open_model(const std::string& checkpoint, const std::string& tokenizer, const std::string& output) {
  LoadReport report;
  Transformer m = load_checkpoint(checkpoint, &report);
  std::unique_ptr<text::Tokenizer> tok = tokenizer_for(m, checkpoint, tokenizer);
  if (!output.empty()) {  // the picture never goes over the checkpoint's files
    const std::filesystem::path dir = checkpoint_dir(checkpoint);
    std::vector<std::string> inputs = report.files;
    for (const char* f : {"config.json", "tokenizer.json", "encoder.json", "vocab.bpe"})
      inputs.push_back((dir / f).string());
    if (!tokenizer.empty()) inputs.push_back(tokenizer);
    check_outputs_apart(inputs, {output});
  }
  return OpenedModel{std::move(m), std::move(report), std::move(tok)};
}

}  // namespace lumen::model
