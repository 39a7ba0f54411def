#include "lumen/text/tokenizer_json.hpp"

namespace lumen::text {

nlohmann::json byte_level_bpe_json(const ByteLevelBpeJson& spec) {
  using json = nlohmann::json;
  const json byte_level = {{"type", "ByteLevel"}, {"trim_offsets", true}, {"use_regex", true}};
  json j;
  j["version"] = "1.0";
  j["truncation"] = nullptr;
  j["padding"] = nullptr;
  j["added_tokens"] = json::array();
  if (spec.eot >= 0)
    j["added_tokens"].push_back({{"id", spec.eot},
                                 {"content", "<|endoftext|>"},
                                 {"single_word", false},
                                 {"lstrip", false},
                                 {"rstrip", false},
                                 {"normalized", true},
                                 {"special", true}});
  j["normalizer"] = nullptr;
  j["pre_tokenizer"] = byte_level;
  j["pre_tokenizer"]["add_prefix_space"] = false;
  j["post_processor"] = nullptr;
  if (spec.post_processor) {
    j["post_processor"] = byte_level;
    j["post_processor"]["add_prefix_space"] = true;
    j["post_processor"]["trim_offsets"] = false;
  }
  j["decoder"] = byte_level;
  j["decoder"]["add_prefix_space"] = true;
  j["model"] = {{"type", "BPE"},
                {"dropout", nullptr},
                {"unk_token", nullptr},
                {"continuing_subword_prefix", ""},
                {"end_of_word_suffix", ""},
                {"fuse_unk", false},
                {"byte_fallback", false},
                {"vocab", spec.vocab},
                {"merges", spec.merges}};
  if (spec.ignore_merges) j["model"]["ignore_merges"] = true;
  return j;
}

}  // namespace lumen::text
