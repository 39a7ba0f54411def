// lumen convert IN OUT: a table from any format lumen reads into any it writes (atomically).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "command.hpp"
#include "common.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/progress.hpp"
#include "lumen/io/write.hpp"

namespace lumen::cli {
namespace {

struct ConvertArgs {
  TableArgs in;
  std::string out, to, out_vocab, out_tensor = "wte.weight";
  bool json = false;
};

int run_convert(const ConvertArgs& a) {
  if (a.json) Progress::set_enabled(false);
  const io::Format to = a.to.empty() ? io::format_from_path(a.out) : io::parse_format(a.to);
  if (to == io::Format::fasttext_bin) throw UsageError("lumen cannot write fastText .bin models; choose another --to");
  io::LoadReport report;
  const Table t = load_table(a.in, report);
  io::WriteOptions w;
  w.vocab_path = a.out_vocab;
  w.tensor = a.out_tensor;
  io::write_table(t, a.out, to, w);
  std::vector<std::string> files{a.out};
  if (to == io::Format::projector_tsv)
    files.push_back(a.out_vocab.empty() ? io::projector_metadata_path(a.out) : a.out_vocab);
  if (to == io::Format::npy) {
    bool numbered = true;
    for (std::size_t r = 0; r < t.V() && numbered; ++r)
      numbered = t.vocab.token(static_cast<Id>(r)) == std::to_string(r);
    if (!numbered || !a.out_vocab.empty())
      files.push_back(a.out_vocab.empty() ? io::npy_vocab_path(a.out) : a.out_vocab);
  }
  if (a.json) {
    print_json({{"in", a.in.path},
                {"in_format", t.format},
                {"out", files},
                {"format", io::format_name(to)},
                {"rows", t.V()},
                {"dim", t.d()},
                {"dtype", dtype_name(t.E.dtype())},
                {"duplicates", report.duplicates}});
    return kOk;
  }
  fmt::print("{} ({}) -> {} ({}): {} x {} {}\n", a.in.path, t.format, fmt::join(files, " + "), io::format_name(to),
             t.V(), t.d(), dtype_name(t.E.dtype()));
  return kOk;
}

const Register reg(
    "convert", "Convert a table between formats (word2vec, GloVe, fastText, safetensors, .npy, projector TSV)",
    [](CLI::App& cmd) -> Action {
      auto a = std::make_shared<ConvertArgs>();
      add_table_options(cmd, a->in);
      cmd.get_option("table")->required();
      cmd.add_option("out", a->out,
                     "Output file (format from its extension: .txt/.vec .bin .glove .safetensors .npy "
                     ".tsv, or --to)")
          ->required();
      cmd.add_option("--to", a->to,
                     "Output format: word2vec-text, word2vec-binary, glove, safetensors, npy, projector-tsv");
      cmd.add_option("--out-vocab", a->out_vocab,
                     "npy/projector-tsv: where to write the tokens (default: OUT's stem + .vocab.txt / metadata.tsv)");
      cmd.add_option("--out-tensor", a->out_tensor, "safetensors: the tensor's name")->capture_default_str();
      add_json_flag(cmd, a->json);
      set_example(cmd, {"lumen convert glove.6B.100d.txt glove.safetensors --dtype f16",
                        "lumen convert GoogleNews-vectors-negative300.bin top100k.txt --limit 100000",
                        "lumen convert vectors.vec vectors.tsv   # TensorFlow Embedding Projector pair"});
      return [a] { return run_convert(*a); };
    },
    21);

}  // namespace
}  // namespace lumen::cli
