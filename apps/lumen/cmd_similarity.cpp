// lumen similarity TABLE W1 W2: cosine similarity of two words (or dot product, or euclidean distance).
// No words on the command line: one pair "W1 W2" per stdin line.
#include <fmt/format.h>
#include <vector>

#include "command.hpp"
#include "common.hpp"
#include "lumen/core/error.hpp"
#include "lumen/search/query_word.hpp"
#include "lumen/search/result_json.hpp"
#include "lumen/search/searcher.hpp"
#include "messages.hpp"
#include "score_text.hpp"

namespace lumen::cli::cmd_similarity {
namespace {

struct SimilarityArgs : TableAndWords {
  std::string metric = "cosine";
  bool json = false;
};

Action setup(CLI::App& cmd) {
  auto a = std::make_shared<SimilarityArgs>();
  add_table_and_words(cmd, a->table, a->words, "W1 W2: two words (none: one pair per stdin line)");
  cmd.add_option("--metric", a->metric, "cosine, dot or euclidean (a distance)")->capture_default_str();
  add_json_flag(cmd, a->json);
  set_example(cmd, {"lumen similarity glove.txt king queen", "lumen similarity king queen   # the default table",
                    "printf 'king queen\\ncat dog\\n' | lumen similarity glove.txt --json"});
  return [a]() {
    split_table_argument(a->table, a->words);
    const search::Metric metric = search::parse_metric(a->metric);
    std::vector<std::pair<std::string, std::string>> pairs;
    const bool from_stdin = a->words.empty();
    if (!from_stdin) {
      if (a->words.size() != 2) throw UsageError(fmt::format("similarity takes two words, got {}", a->words.size()));
      pairs.emplace_back(a->words[0], a->words[1]);
    } else {
      std::size_t line_no = 0;
      for (const auto& w : stdin_word_lines()) {
        ++line_no;
        if (w.size() != 2)
          throw UsageError(fmt::format("stdin line {}: expected two words, got {}", line_no, w.size()));
        pairs.emplace_back(w[0], w[1]);
      }
      if (pairs.empty()) throw UsageError("no words given (on the command line or stdin)");
    }
    const Table t = load_table(a->table);
    const search::Searcher s(t);
    int code = kOk;
    for (const auto& [w1, w2] : pairs) {
      try {
        // Words outside a fastText model's vocabulary get their subword vectors.
        const search::QueryWord q1 = search::lookup(t, w1), q2 = search::lookup(t, w2);
        const float score = search::similarity(s, q1, q2, metric);
        if (a->json) print_json(search::similarity_json(q1, q2, metric, score, search::similarity_parts(s, q1, q2)));
        else fmt::print("{} {} {}: {:.6f}\n", search::metric_name(metric), w1, w2, shown(score));
      } catch (const UnknownTokenError& e) {
        if (!from_stdin) throw;
        code = kInputError;
        if (a->json) print_json({{"w1", w1}, {"w2", w2}, {"error", e.message()}});
        else print_error(e.message());
      }
    }
    return code;
  };
}

const Register reg("similarity", "Similarity of two words (cosine, dot, or euclidean distance)", setup, 32);

}  // namespace
}  // namespace lumen::cli::cmd_similarity
