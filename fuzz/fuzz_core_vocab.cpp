// Fuzzes lumen::Vocab against a plain model: the bytes are a script of operations on tokens (any bytes,
// invalid UTF-8 and empty tokens included). Ids must stay dense and stable, duplicates rejected, find/require
// agree, unknown tokens throw UnknownTokenError with suggestions that are vocabulary tokens, and truncate
// forgets exactly the dropped tokens, whether the vocabulary started empty, numbered or from_unique. Any
// disagreement aborts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/vocab.hpp"

namespace {

void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz_core_vocab: %s\n", what);
  std::abort();
}

// Reads the next token: a length byte (mod 24) then that many bytes.
std::string next_token(const std::uint8_t*& p, const std::uint8_t* end) {
  if (p == end) return {};
  std::size_t len = *p++ % 24;
  if (len > static_cast<std::size_t>(end - p)) len = static_cast<std::size_t>(end - p);
  std::string t(reinterpret_cast<const char*>(p), len);
  p += len;
  return t;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  lumen::Vocab v;
  std::vector<std::string> tokens;       // the model: id -> token
  std::map<std::string, lumen::Id> ids;  // token -> id
  const std::uint8_t* p = data;
  const std::uint8_t* end = data + size;
  // The first byte picks the start: empty, numbered (labels parsed, not hashed) or from_unique (index deferred).
  if (p != end) {
    const std::size_t n = (*p / 3) % 20;
    const int start = *p++ % 3;
    if (start != 0) {
      for (std::size_t i = 0; i < n; ++i) {
        tokens.push_back(start == 1 ? std::to_string(i) : "u" + std::to_string(i));
        ids[tokens.back()] = static_cast<lumen::Id>(i);
      }
      v = start == 1 ? lumen::Vocab::numbered(n) : lumen::Vocab::from_unique(tokens);
    }
  }
  int ops = 0;
  while (p != end && ++ops < 256) {
    const std::uint8_t op = *p++;
    switch (op % 5) {
      case 0:
      case 1: {  // add, with a count on odd ops
        std::string t = next_token(p, end);
        const std::uint64_t count = (op & 8) ? op : 0;
        const auto got = v.add(t, count);
        if (ids.count(t)) {
          check(!got.has_value(), "a duplicate token was added");
        } else {
          check(got.has_value() && *got == static_cast<lumen::Id>(tokens.size()), "add did not return the next id");
          ids[t] = *got;
          tokens.push_back(t);
          check(!v.has_counts() || v.count(*got) == count, "count not kept");
        }
        break;
      }
      case 2: {  // find and require
        const std::string t = next_token(p, end);
        const auto it = ids.find(t);
        const auto got = v.find(t);
        if (it == ids.end()) {
          check(!got.has_value(), "find returned an id for an unknown token");
          try {
            v.require(t);
            check(false, "require did not throw for an unknown token");
          } catch (const lumen::UnknownTokenError& e) {
            check(e.token() == t, "UnknownTokenError names another token");
            check(e.suggestions().size() <= 5, "more than five suggestions");
            for (const auto& s : e.suggestions()) check(ids.count(s) == 1, "a suggestion is not in the vocabulary");
          }
        } else {
          check(got.has_value() && *got == it->second, "find returned the wrong id");
          check(v.require(t) == it->second, "require returned the wrong id");
        }
        break;
      }
      case 3: {  // suggest: distinct vocabulary tokens, at most max
        const std::string t = next_token(p, end);
        const std::size_t max = op >> 5;
        const auto s = v.suggest(t, max);
        check(s.size() <= max, "suggest returned more than max");
        for (std::size_t i = 0; i < s.size(); ++i) {
          check(ids.count(s[i]) == 1, "suggest returned a token not in the vocabulary");
          for (std::size_t j = 0; j < i; ++j) check(s[i] != s[j], "suggest returned a token twice");
        }
        break;
      }
      case 4: {  // truncate to a prefix
        const std::size_t n = tokens.empty() ? 0 : (op >> 3) % (tokens.size() + 1);
        v.truncate(n);
        while (tokens.size() > n) {
          ids.erase(tokens.back());
          tokens.pop_back();
        }
        break;
      }
    }
    check(v.size() == tokens.size(), "size differs from the model");
  }
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    check(v.token(static_cast<lumen::Id>(i)) == tokens[i], "token(id) differs from the model");
    check(v.find(tokens[i]) == static_cast<lumen::Id>(i), "find(token(id)) != id");
  }
  const lumen::Vocab numbered = lumen::Vocab::numbered(size % 64);
  check(numbered.size() == size % 64, "numbered has the wrong size");
  return 0;
}
