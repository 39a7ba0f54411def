#include "lumen/eval/label_set.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <unordered_map>

#include "lumen/core/error.hpp"
#include "lumen/core/read_file.hpp"
#include "lumen/core/text_fold.hpp"
#include "lumen/core/utf8.hpp"
#include "text_lines.hpp"

namespace lumen::eval {

namespace {

// Adds `word` with `label`; a repeat with the same label is counted, with another label it is reported by the
// caller (returns the earlier entry's index).
struct Builder {
  LabelSet set;
  std::unordered_map<std::string, std::size_t> index;  // word -> position in set.words

  // Returns the index of an earlier entry with another label, or npos.
  std::size_t add(std::string word, std::string label, std::uint64_t line) {
    const auto [it, inserted] = index.emplace(word, set.words.size());
    if (!inserted) {
      if (set.words[it->second].label == label) ++set.duplicates;
      else return it->second;
      return std::string::npos;
    }
    if (std::find(set.classes.begin(), set.classes.end(), label) == set.classes.end()) set.classes.push_back(label);
    set.words.push_back({std::move(word), std::move(label), line});
    return std::string::npos;
  }

  LabelSet finish() {
    if (set.words.empty())
      throw InputError(fmt::format("{}: no labelled words (expected word<TAB>label lines)", set.name));
    if (set.classes.size() < 2)
      throw InputError(fmt::format("{}: every word has the label '{}'; a probe needs at least two classes", set.name,
                                   set.classes.front()));
    return std::move(set);
  }
};

}  // namespace

LabelSet parse_label_set(std::string_view text, const std::string& path) {
  Builder b;
  b.set.name = path;
  std::uint64_t line_no = 0;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line_no == 1 && line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);  // a byte-order mark
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    if (!valid_utf8(line)) throw ParseError(path, line_no, 0, "invalid UTF-8");
    const std::size_t tab = line.find('\t');
    if (tab == std::string_view::npos) throw ParseError(path, line_no, 0, "expected word<TAB>label, found no tab");
    const std::string_view word = line.substr(0, tab), label = line.substr(tab + 1);
    if (label.find('\t') != std::string_view::npos)
      throw ParseError(path, line_no, 0, "expected word<TAB>label, found a second tab");
    if (word.empty()) throw ParseError(path, line_no, 0, "empty word before the tab");
    if (label.empty()) throw ParseError(path, line_no, 0, "empty label after the tab");
    const std::size_t clash = b.add(std::string(word), std::string(label), line_no);
    if (clash != std::string::npos)
      throw ParseError(path, line_no, 0,
                       fmt::format("'{}' is labelled '{}' here and '{}' on line {}", word, label,
                                   b.set.words[clash].label, b.set.words[clash].line));
  }
  return b.finish();
}

LabelSet read_label_set(const std::string& path) { return parse_label_set(read_file(path), path); }

const std::vector<BuiltinLabelSet>& builtin_label_sets() {
  static const std::vector<BuiltinLabelSet> sets = {
      {"capitals", "capital vs country: Athens / Greece", {"capital-common-countries", "capital-world"}},
      {"plural", "singular vs plural noun: banana / bananas", {"gram8-plural"}},
      {"gender", "male vs female word: king / queen", {"family"}},
  };
  return sets;
}

bool is_builtin_label_set(std::string_view name) {
  const auto& sets = builtin_label_sets();
  return std::any_of(sets.begin(), sets.end(), [&](const auto& s) { return s.name == name; });
}

LabelSet builtin_label_set(std::string_view name, const AnalogySet& analogies) {
  static const std::unordered_map<std::string, std::pair<std::string, std::string>> kLabels = {
      {"capitals", {"capital", "country"}}, {"plural", {"singular", "plural"}}, {"gender", {"male", "female"}}};
  const auto& sets = builtin_label_sets();
  const auto it = std::find_if(sets.begin(), sets.end(), [&](const auto& s) { return s.name == name; });
  if (it == sets.end()) {
    std::string names;
    for (const auto& s : sets) names += (names.empty() ? "" : ", ") + s.name;
    throw UsageError(
        fmt::format("unknown label set '{}' (built in: {}; or a file of word<TAB>label lines)", name, names));
  }
  const auto& [first, second] = kLabels.at(it->name);
  // Collect each word's labels; a word met with both is ambiguous and left out.
  std::vector<std::pair<std::string, std::string>> seen;
  std::unordered_map<std::string, std::size_t> at;
  std::vector<bool> clash;
  std::size_t sections = 0;
  for (const auto& section : analogies.sections) {
    if (std::find(it->sections.begin(), it->sections.end(), section.name) == it->sections.end()) continue;
    ++sections;
    for (const auto& q : section.questions)
      for (const auto& [w, l] : {std::pair{&q.a, &first}, {&q.b, &second}, {&q.c, &first}, {&q.d, &second}}) {
        const auto [pos, inserted] = at.emplace(*w, seen.size());
        if (inserted) {
          seen.emplace_back(*w, *l);
          clash.push_back(false);
        } else if (seen[pos->second].second != *l) {
          clash[pos->second] = true;
        }
      }
  }
  if (sections == 0)
    throw InputError(
        fmt::format("{}: no section {} for the label set '{}'", analogies.path, it->sections.front(), name));
  Builder b;
  b.set.name = it->name;
  for (std::size_t i = 0; i < seen.size(); ++i)
    if (!clash[i]) b.add(seen[i].first, seen[i].second, 0);
  return b.finish();
}

LabelSet load_label_set(const std::string& spec, const std::string& analogies) {
  std::error_code ec;
  const bool file = std::filesystem::exists(spec, ec);
  if (file || !is_builtin_label_set(spec)) {
    if (!file && spec.find_first_of("/.") == std::string::npos)
      return builtin_label_set(spec, {});  // neither a file nor a set: the UsageError names the sets
    return read_label_set(spec);
  }
  if (analogies.empty() || !std::filesystem::exists(analogies, ec))
    throw InputError(OptionText{
        fmt::format("the label set '{}' is made from the analogy benchmark (questions-words.txt), {}; give its path "
                    "with {{analogies}}",
                    spec, analogies.empty() ? "and none was given" : "not found at " + analogies),
        {"analogies"}});
  return builtin_label_set(spec, read_analogy_set(analogies));
}

}  // namespace lumen::eval
