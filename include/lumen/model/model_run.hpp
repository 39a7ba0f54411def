#pragma once
// What every face's model command does first (`lumen drift`, `lumen probe MODEL --layers`, Python's lumen.drift and
// lumen.probe): the picture's format checked before anything is read, the checkpoint and its tokenizer opened, and
// the picture kept off the checkpoint's own files.
#include <memory>
#include <optional>
#include <string>

#include "lumen/core/atomic_file.hpp"
#include "lumen/model/checkpoint.hpp"
#include "lumen/model/transformer.hpp"
#include "lumen/project/plot.hpp"
#include "lumen/text/tokenizer.hpp"

namespace lumen::model {

// The format of a picture to write at `output` (nullopt for no picture, an empty path). UsageError naming {output}
// unless it is a .png or .svg.
std::optional<project::PlotFormat> picture_format(const std::string& output);

struct OpenedModel {
  Transformer model;
  LoadReport report;
  std::unique_ptr<text::Tokenizer> tokenizer;
};

// load_checkpoint and tokenizer_for (tokenizer empty: the one beside the checkpoint); then UsageError
// (check_outputs_apart) when `output` would land on one of the checkpoint's files (its weights, config.json,
// tokenizer files, the tokenizer named).
OpenedModel open_model(const std::string& checkpoint, const std::string& tokenizer, const std::string& output);

// The whole of such a command around its measurement: the picture's format checked, the model opened, then
// measure(OpenedModel&) run, and render(result, format) written atomically at `output` when one is asked for.
template <class Measure, class Render>
auto measure_model(const std::string& checkpoint, const std::string& tokenizer, const std::string& output,
                   Measure measure, Render render) {
  const auto format = picture_format(output);
  OpenedModel opened = open_model(checkpoint, tokenizer, output);
  auto result = measure(opened);
  if (format) write_file_atomic(output, render(result, *format));
  return result;
}

}  // namespace lumen::model
