// lumen onehot TABLE TOKEN...: the chapter's three views of one token side by side: the one-hot vector,
// row i of E, and the dense vector one-hot x E, with the check that the last two are the same numbers.
#include <fmt/format.h>
#include <vector>

#include "command.hpp"
#include "common.hpp"
#include "lumen/core/error.hpp"
#include "lumen/nn/onehot.hpp"
#include "nn_views.hpp"
#include "option_checks.hpp"

namespace lumen::cli::cmd_onehot {
namespace {

struct OnehotArgs : TableAndWords {  // the words are tokens
  std::size_t show = 8;
  bool json = false;
};

Action setup(CLI::App& cmd) {
  auto a = std::make_shared<OnehotArgs>();
  add_table_and_words(cmd, a->table, a->words, "TOKEN...: tokens to look up (none: one per line on stdin)");
  cmd.add_option("--show", a->show, "Values of each vector to print (0: all)")
      ->capture_default_str()
      ->check(at_least(0));
  add_json_flag(cmd, a->json);
  set_example(cmd, {"lumen onehot toy cat", "lumen onehot vectors.txt the of --json",
                    "printf 'king\\nqueen\\n' | lumen onehot glove.txt"});
  return [a]() {
    split_table_argument(a->table, a->words);
    if (a->words.empty()) a->words = stdin_lines();
    if (a->words.empty()) throw UsageError("no tokens given (on the command line or stdin)");
    const Table t = load_table(a->table);
    const std::size_t V = t.V(), d = t.d();
    nlohmann::json out = nlohmann::json::array();
    std::vector<float> row(d);
    bool all_equal = true;
    std::vector<Id> ids;  // every token resolved before anything is printed
    for (const auto& token : a->words) ids.push_back(t.vocab.require(token));  // UnknownTokenError: exit 1
    for (std::size_t k = 0; k < ids.size(); ++k) {
      const std::string& token = a->words[k];
      const Id id = ids[k];
      t.E.row_f32(static_cast<std::size_t>(id), row.data());
      const std::vector<Id> one = {id};
      const Matrix dense = nn::embed_via_onehot(t.E, one);  // (1,V) . (V,d): really multiplies
      std::size_t equal = 0;
      for (std::size_t j = 0; j < d; ++j) equal += dense.at(0, j) == row[j];
      all_equal = all_equal && equal == d;
      if (a->json) {
        out.push_back({{"token", token},
                       {"id", id},
                       {"onehot", {{"length", V}, {"one_at", id}}},
                       {"row", row},
                       {"dense", std::vector<float>(dense.row(0).begin(), dense.row(0).end())},
                       {"equal", equal == d}});
        continue;
      }
      fmt::print("token '{}' -> id {}   (table: V = {}, d = {}, {})\n", token, id, V, d, dtype_name(t.E.dtype()));
      fmt::print("  one-hot x      (length V = {}, its 1 at position {}):\n    {}\n", V, id,
                 onehot_text(V, static_cast<std::size_t>(id)));
      fmt::print("  row {} of E    (a lookup):\n    {}\n", id, vector_text(row, a->show));
      fmt::print("  one-hot x E   (a ({} x {}) . ({} x {}) sgemm):\n    {}\n", 1, V, V, d,
                 vector_text(dense.row(0), a->show));
      fmt::print("  one-hot x E == E[{}]: {} ({} of {} values equal)\n\n", id, equal == d ? "yes, exactly" : "NO",
                 equal, d);
    }
    if (a->json) print_json({{"table", t.source}, {"V", V}, {"d", d}, {"tokens", out}});
    return all_equal ? kOk : kInternalError;
  };
}

const Register reg("onehot", "One token three ways: one-hot vector, row of E, one-hot x E (and the check)", setup, 22);

}  // namespace
}  // namespace lumen::cli::cmd_onehot
