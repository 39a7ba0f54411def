// lumen convert IN OUT: a table from any format lumen reads into any it writes (atomically), never over an input;
// a model (a Hugging Face directory) into a GGUF file that llama.cpp runs.
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "command.hpp"
#include "common.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/file_identity.hpp"
#include "lumen/core/narrowing.hpp"
#include "lumen/core/text_fold.hpp"
#include "lumen/io/write.hpp"
#include "lumen/model/gguf_export.hpp"
#include "progress_bar.hpp"

namespace lumen::cli::cmd_convert {
namespace {

struct ConvertArgs {
  TableArgs in;
  std::string out, to, out_vocab, out_tensor = "wte.weight";
  bool json = false, strict = false;
};

// "f16 cannot hold 3 values of in.vec: 2 values beyond ±65504 became ±inf; 1 nonzero value ... became 0".
std::string describe(const NarrowingLoss& loss, DType dtype, const std::string& source) {
  std::vector<std::string> parts;
  const auto values = [](std::size_t n) { return fmt::format("{} value{}", n, n == 1 ? "" : "s"); };
  if (loss.to_inf != 0)
    parts.push_back(
        fmt::format("{} beyond ±{} became ±inf", values(loss.to_inf), dtype == DType::f16 ? "65504" : "3.39e38"));
  if (loss.to_zero != 0)
    parts.push_back(fmt::format("{} too small for {} became 0", values(loss.to_zero), dtype_name(dtype)));
  return fmt::format("{}: {} cannot hold every value: {}", source, dtype_name(dtype), fmt::join(parts, "; "));
}

// A model to GGUF: the whole checkpoint (weights, shape, tokenizer), for llama.cpp and what is built on it.
int run_model_to_gguf(const ConvertArgs& a) {
  if (!a.to.empty() || !a.out_vocab.empty() || a.in.limit != 0 || !a.in.tensor.empty())
    throw UsageError("--to, --out-vocab, --limit and --tensor are table options; a .gguf output takes a whole model");
  Progress bar("load", 0, "");
  const auto e =
      model::convert_to_gguf(a.in.path, a.out, parse_dtype(a.in.dtype), a.in.tokenizer == "none" ? "" : a.in.tokenizer,
                             [&](const std::string&, std::uint64_t done, std::uint64_t total) {
                               bar.update(done, fmt::format("of {}", total));
                             });
  bar.finish();
  if (a.json) {
    print_json(model::gguf_export_json(e));
    return kOk;
  }
  fmt::print("{} -> {}: {} model, {} layers, V {}, {} weights ({}), {:.1f} MiB; tokenizer from {}\n", e.source,
             e.output, e.family, e.layers, e.V, e.dtype, e.tied ? "tied" : "untied",
             static_cast<double>(e.bytes) / (1024.0 * 1024.0), e.tokenizer);
  return kOk;
}

int run_convert(const ConvertArgs& a) {
  if (a.json) Progress::set_enabled(false);
  if (ascii_lower(std::filesystem::path(a.out).extension().string()) == ".gguf") return run_model_to_gguf(a);
  const io::Format to = a.to.empty() ? io::format_from_path(a.out) : io::parse_format(a.to);
  io::WriteOptions w;
  w.vocab_path = a.out_vocab;
  w.tensor = a.out_tensor;
  io::check_destination(a.out, to, w);  // before the (maybe long) load
  if (a.json && a.out == "-")
    throw UsageError("--json and the table cannot both go to standard output (\"-\"); write the table to a file");
  const DType dtype = parse_dtype(a.in.dtype);

  // Read in f32 and narrow here, so that what f16/bf16 cannot hold is counted (docs/formats.md).
  TableArgs wide = a.in;
  wide.dtype = dtype_name(DType::f32);
  io::LoadReport report;
  std::shared_ptr<const text::Tokenizer> tokenizer;
  Table t = load_table(wide, report, tokenizer);
  NarrowingLoss loss;
  if (dtype != DType::f32) t.E = narrow_to(t.E, dtype, loss);
  if (loss.any()) {
    const std::string what = describe(loss, dtype, t.source.empty() ? a.in.path : t.source);
    if (a.strict) throw InputError(what + " (--strict)");
    fmt::print(stderr, "lumen: warning: {} (--strict refuses)\n", what);
  }

  // Nothing is written before every output is known to be apart from every input and from each other.
  const std::vector<std::string> files = io::output_paths(t, a.out, to, w);
  check_outputs_apart(table_input_files(a.in, t, tokenizer != nullptr), files);
  io::write_table(t, a.out, to, w);

  if (a.json) {
    print_json({{"in", a.in.path},
                {"in_format", t.format},
                {"out", files},
                {"format", io::format_name(to)},
                {"V", t.V()},
                {"d", t.d()},
                {"dtype", dtype_name(t.E.dtype())},
                {"duplicates", report.duplicates},
                {"narrowing", {{"to_inf", loss.to_inf}, {"to_zero", loss.to_zero}}}});
    return kOk;
  }
  // With the table on standard output, the summary goes to stderr.
  fmt::print(a.out == "-" ? stderr : stdout, "{} ({}) -> {} ({}): {} x {} {}\n", a.in.path, t.format,
             fmt::join(files, " + "), io::format_name(to), t.V(), t.d(), dtype_name(t.E.dtype()));
  return kOk;
}

const Register reg(
    "convert",
    "Convert a table between formats (from word2vec, GloVe, fastText, safetensors, .npy, projector TSV or GGUF), "
    "or a model directory to GGUF",
    [](CLI::App& cmd) -> Action {
      auto a = std::make_shared<ConvertArgs>();
      add_table_options(cmd, a->in);
      cmd.get_option("table")->required();
      cmd.add_option("out", a->out,
                     "Output file (format from its extension: .txt/.vec .bin .glove .safetensors .npy "
                     ".tsv, or --to); - for standard output (text formats). .gguf: the whole model of a GPT-2 or "
                     "Llama directory (--dtype f32 or f16), for llama.cpp. Never one of the inputs; a symlink "
                     "is written through, a FIFO or device in place")
          ->required();
      cmd.add_option("--to", a->to,
                     "Output format: word2vec-text, word2vec-binary, glove, safetensors, npy, projector-tsv");
      cmd.add_option("--out-vocab", a->out_vocab,
                     "npy/projector-tsv: where to write the tokens (default: OUT's stem + .vocab.txt / metadata.tsv)");
      cmd.add_option("--out-tensor", a->out_tensor, "safetensors: the tensor's name")->capture_default_str();
      cmd.add_flag("--strict", a->strict,
                   "With --dtype f16/bf16: refuse (exit 1) values the type cannot hold instead of writing them as "
                   "inf or 0 with a warning");
      add_json_flag(cmd, a->json);
      set_example(cmd, {"lumen convert glove.6B.100d.txt glove.safetensors --dtype f16",
                        "lumen convert GoogleNews-vectors-negative300.bin top100k.txt --limit 100000",
                        "lumen convert vectors.vec vectors.tsv   # TensorFlow Embedding Projector pair",
                        "lumen convert model.safetensors - | head -3",
                        "lumen convert build/default/gpt gpt.gguf --dtype f16   # a model, for llama.cpp"});
      return [a] { return run_convert(*a); };
    },
    21);

}  // namespace
}  // namespace lumen::cli::cmd_convert
