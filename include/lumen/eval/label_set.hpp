#pragma once
// Words with labels for a probe: `word<TAB>label` lines, or one of the sets lumen makes from the analogy
// benchmark's sections (countries vs capitals, singular vs plural, male vs female words).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lumen/eval/analogy_set.hpp"

namespace lumen::eval {

struct LabelledWord {
  std::string word, label;
  std::uint64_t line = 0;  // 1-based line in the file (0 for a built-in set)
};

struct LabelSet {
  std::string name;                  // the path, or the built-in set's name
  std::vector<LabelledWord> words;   // each word once, in file order
  std::vector<std::string> classes;  // the distinct labels, in order of first appearance
  std::size_t duplicates = 0;        // repeated `word<TAB>same label` lines, dropped
};

// Parses `word<TAB>label` lines (UTF-8; a trailing \r is dropped; blank lines are skipped). ParseError naming
// `path` and the line for a line without a tab, an empty word or label, a second tab, invalid UTF-8, or a word
// given two different labels; InputError when no line remains or every word has the same label.
LabelSet parse_label_set(std::string_view text, const std::string& path);
// Reads and parses a file (IoError if it cannot be read).
LabelSet read_label_set(const std::string& path);

// The built-in sets: name, what it separates, and the analogy sections it is made from.
struct BuiltinLabelSet {
  std::string name, description;
  std::vector<std::string> sections;
};
const std::vector<BuiltinLabelSet>& builtin_label_sets();
bool is_builtin_label_set(std::string_view name);

// A built-in set from an analogy benchmark: each question a b c d of the named sections gives a and c the first
// label and b and d the second (capital/country, singular/plural, male/female). A word met with both labels is
// left out. UsageError for an unknown name; InputError if the benchmark lacks the sections.
LabelSet builtin_label_set(std::string_view name, const AnalogySet& analogies);

// A label set as a user names it: a `word<TAB>label` file when `spec` is one (or is not a built-in set's name), else
// the built-in set made from the analogy benchmark at `analogies`. A bare word that is neither: UsageError listing
// the sets. InputError naming the option "analogies" when a built-in set's benchmark is not there (or not given).
LabelSet load_label_set(const std::string& spec, const std::string& analogies);

}  // namespace lumen::eval
