#include "lumen/text/pretokenizer.hpp"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <fmt/format.h>
#include <pcre2.h>

#include "lumen/core/error.hpp"

namespace lumen::text {

struct Regex::Impl {
  pcre2_code* code = nullptr;
  ~Impl() { pcre2_code_free(code); }
};

Regex::Regex(std::string_view pattern, bool literal) : impl_(std::make_unique<Impl>()), pattern_(pattern) {
  int err = 0;
  PCRE2_SIZE at = 0;
  // MATCH_INVALID_UTF: invalid UTF-8 in the subject is skipped over instead of failing the whole match.
  std::uint32_t options = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
  options |= literal ? PCRE2_LITERAL : PCRE2_UCP;  // UCP is not allowed (nor needed) with LITERAL
  impl_->code =
      pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), options, &err, &at, nullptr);
  if (!impl_->code) {
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(err, msg, sizeof msg);
    throw UsageError(fmt::format("bad pre-tokenizer regex at offset {}: {} (pattern: {})", at,
                                 reinterpret_cast<const char*>(msg), pattern));
  }
  jit_ = pcre2_jit_compile(impl_->code, PCRE2_JIT_COMPLETE) == 0;
}

Regex::~Regex() = default;
Regex::Regex(Regex&&) noexcept = default;
Regex& Regex::operator=(Regex&&) noexcept = default;

void Regex::find_all(std::string_view text, std::vector<std::pair<std::size_t, std::size_t>>& out) const {
  struct MatchData {
    pcre2_match_data* p;
    ~MatchData() { pcre2_match_data_free(p); }
  } md{pcre2_match_data_create(1, nullptr)};
  if (!md.p) throw std::bad_alloc();
  const auto* subject = reinterpret_cast<PCRE2_SPTR>(text.data());
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const int rc = jit_ ? pcre2_jit_match(impl_->code, subject, text.size(), pos, 0, md.p, nullptr)
                        : pcre2_match(impl_->code, subject, text.size(), pos, 0, md.p, nullptr);
    if (rc == PCRE2_ERROR_NOMATCH) break;
    if (rc < 0) {
      PCRE2_UCHAR msg[256];
      pcre2_get_error_message(rc, msg, sizeof msg);
      throw InputError(
          fmt::format("pre-tokenizer regex failed at byte {}: {}", pos, reinterpret_cast<const char*>(msg)));
    }
    const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md.p);
    const std::size_t b = ov[0], e = ov[1];
    if (e > b) {
      out.emplace_back(b, e);
      pos = e;
    } else {
      // An empty match: step over one character (a whole UTF-8 sequence) so the scan moves on.
      pos = b + 1;
      while (pos < text.size() && (static_cast<unsigned char>(text[pos]) & 0xC0) == 0x80) ++pos;
    }
  }
}

void Pretokenizer::add_split(std::string_view pattern, bool literal, SplitBehavior behavior) {
  stages_.push_back(Stage{Regex(pattern, literal), behavior});
}

void Pretokenizer::split(std::string_view text, std::vector<std::string_view>& pieces) const {
  if (text.empty()) return;
  if (stages_.empty()) {
    pieces.push_back(text);
    return;
  }
  std::vector<std::pair<std::size_t, std::size_t>> matches;
  std::vector<std::string_view> cur{text}, next;
  for (std::size_t s = 0; s < stages_.size(); ++s) {
    const Stage& st = stages_[s];
    auto& dst = s + 1 == stages_.size() ? pieces : next;
    for (std::string_view piece : cur) {
      matches.clear();
      st.regex.find_all(piece, matches);
      std::size_t last = 0;
      for (auto [b, e] : matches) {
        if (b > last) dst.push_back(piece.substr(last, b - last));
        if (st.behavior == SplitBehavior::isolated) dst.push_back(piece.substr(b, e - b));
        last = e;
      }
      if (last < piece.size()) dst.push_back(piece.substr(last));
    }
    if (s + 1 < stages_.size()) {
      cur.swap(next);
      next.clear();
    }
  }
}

}  // namespace lumen::text
