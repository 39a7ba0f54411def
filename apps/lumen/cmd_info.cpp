// lumen info TABLE: what a table file holds (format, V x d, storage, bytes, row norms, NaN/Inf, duplicates) and how
// anisotropic its rows are (the baseline any cosine it shows should be read against).
#include <algorithm>
#include <fmt/format.h>

#include "command.hpp"
#include "common.hpp"
#include "lumen/io/summary.hpp"
#include "lumen/io/table_json.hpp"
#include "lumen/project/anisotropy.hpp"
#include "lumen/project/anisotropy_json.hpp"
#include "progress_bar.hpp"

namespace lumen::cli::cmd_info {
namespace {

struct InfoArgs {
  TableArgs table;
  bool json = false;
};

// How many rows with NaN/Inf the text output names (JSON names up to the Summary's bound).
constexpr std::size_t kNamedInText = 5;

int run_info(const InfoArgs& a) {
  if (a.json) Progress::set_enabled(false);
  io::LoadReport report;
  const Table t = load_table(a.table, report);
  const io::Summary s = io::summarize(t.E);
  const project::Anisotropy an = project::anisotropy(t.E);
  if (a.json) {
    nlohmann::json j = io::table_info_json(t, report, s);
    j["anisotropy"] = project::anisotropy_json(an);
    print_json(j);
    return kOk;
  }
  fmt::print("file        {}\n", t.source);
  fmt::print("format      {}{}\n", t.format, report.tensor.empty() ? "" : fmt::format(" (tensor {})", report.tensor));
  fmt::print("rows (V)    {}\n", t.V());
  fmt::print("dim (d)     {}\n", t.d());
  fmt::print("dtype       {} (file: {})\n", dtype_name(t.E.dtype()),
             report.file_dtype || !report.quantisation.empty() ? io::file_type_name(report) : "decimal text");
  fmt::print("bytes       {} in E{}; file {}\n", t.E.bytes(),
             report.from_cache ? " (memory-mapped from the table cache, not parsed)"
             : report.mapped   ? " (memory-mapped, not copied)"
                               : "",
             report.file_bytes);
  fmt::print("row norm    min {:.6g}  median {:.6g}  max {:.6g}{}\n", s.norm_min, s.norm_median, s.norm_max,
             s.zero_rows ? fmt::format("  ({} zero rows)", s.zero_rows) : "");
  fmt::print("nan / inf   {} / {}{}\n", s.nan, s.inf,
             s.nonfinite_rows ? fmt::format("  (in {} rows, left out of the norms)", s.nonfinite_rows) : "");
  if (s.nonfinite_rows != 0) {
    std::string names;
    const std::size_t shown = std::min(kNamedInText, s.nonfinite_ids.size());
    for (std::size_t i = 0; i < shown; ++i)
      names += fmt::format("{}'{}' (row {})", i ? ", " : "", t.vocab.token(s.nonfinite_ids[i]), s.nonfinite_ids[i]);
    if (s.nonfinite_rows > shown)
      names += fmt::format(" and {} more (--json names up to 1000)", s.nonfinite_rows - shown);
    fmt::print("  rows      {}\n", names);
  }
  fmt::print(
      "duplicates  {}{}\n", report.duplicates,
      report.duplicates ? fmt::format(" (first: '{}'; the first row of each kept)", report.first_duplicate) : "");
  if (an.defined())
    fmt::print(
        "anisotropy  random pairs' cosine {:.4f} ± {:.4f} ({}{} pairs); top direction {:.1f}% of the variance "
        "(isotropic: {:.1f}%)\n",
        an.mean_cosine, an.std_cosine, an.all_pairs ? "all " : "", an.pairs, 100 * an.top_direction,
        100.0 / static_cast<double>(t.d()));
  if (report.repaired_tokens) fmt::print("repaired    {} tokens with invalid UTF-8\n", report.repaired_tokens);
  return kOk;
}

const Register reg(
    "info", "Describe a table file: format, V x d, dtype, bytes, row norms, NaN/Inf, duplicates, anisotropy",
    [](CLI::App& cmd) -> Action {
      auto a = std::make_shared<InfoArgs>();
      add_table_options(cmd, a->table);
      add_json_flag(cmd, a->json);
      set_example(cmd, {"lumen info glove.6B.100d.txt", "lumen info model.safetensors --json"});
      return [a] { return run_info(*a); };
    },
    20);

}  // namespace
}  // namespace lumen::cli::cmd_info
