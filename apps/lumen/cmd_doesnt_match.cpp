// lumen doesnt-match TABLE W...: the word that doesn't match the others: the one whose unit vector is least
// similar to the unit mean of them all (gensim's doesnt_match). No words on the command line: one list per stdin line.
#include <cmath>
#include <fmt/format.h>
#include <vector>

#include "command.hpp"
#include "common.hpp"
#include "lumen/core/error.hpp"
#include "lumen/search/analogy.hpp"
#include "lumen/search/result_json.hpp"
#include "messages.hpp"
#include "score_text.hpp"

namespace lumen::cli::cmd_doesnt_match {
namespace {

struct DoesntMatchArgs : TableAndWords {
  bool json = false;
};

Action setup(CLI::App& cmd) {
  auto a = std::make_shared<DoesntMatchArgs>();
  add_table_and_words(cmd, a->table, a->words, "WORD...: two or more words (none: one list per stdin line)");
  add_json_flag(cmd, a->json);
  set_example(cmd, {"lumen doesnt-match glove.txt breakfast cereal dinner lunch",
                    "printf 'cat dog mouse car\\n' | lumen doesnt-match glove.txt --json"});
  return [a]() {
    split_table_argument(a->table, a->words);
    std::vector<std::vector<std::string>> lists;
    const bool from_stdin = a->words.empty();
    if (!from_stdin) {
      lists.push_back(a->words);
    } else {
      lists = stdin_word_lines();
      if (lists.empty()) throw UsageError("no words given (on the command line or stdin)");
    }
    for (const auto& w : lists) search::check_odd_one_out_count(w.size());
    const Table t = load_table(a->table);
    const search::Searcher s(t);
    int code = kOk;
    for (const auto& words : lists) {
      try {
        std::vector<Id> ids;
        ids.reserve(words.size());
        for (const auto& w : words) ids.push_back(t.vocab.require(w));
        const auto r = search::doesnt_match(s, ids);
        if (a->json) {
          print_json(search::doesnt_match_json(words, r, RowNames{t.vocab, {}}));
        } else {
          if (r.id) fmt::print("doesn't match: {}\n", t.vocab.token(*r.id));
          else fmt::print("doesn't match: none (every cosine is nan)\n");
          for (const auto& n : r.by_distance)
            fmt::print("  {:<16} {:>9.6f}  (cosine to the mean)\n", t.vocab.token(n.id), shown(n.score));
        }
        for (Id id : ids)
          if (!std::isfinite(s.norm(id)))
            print_note(fmt::format("'{}' has NaN or Inf in its row: every cosine is nan", t.vocab.token(id)));
      } catch (const UnknownTokenError& e) {
        if (!from_stdin) throw;
        code = kInputError;
        if (a->json) print_json({{"words", words}, {"error", e.message()}});
        else print_error(e.message());
      }
    }
    return code;
  };
}

const Register reg("doesnt-match", "The word that doesn't match the others (farthest from their mean)", setup, 33);

}  // namespace
}  // namespace lumen::cli::cmd_doesnt_match
