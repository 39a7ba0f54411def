#include "lumen/nn/params_json.hpp"

namespace lumen::nn {

nlohmann::json params_json(const ModelShape& s, const ParamCount& c) {
  nlohmann::json mem;
  for (const auto& p : precisions()) mem[std::string(p.name)] = c.total * p.bytes;
  return {{"name", s.name},
          {"shape",
           {{"vocab", s.V},
            {"d_model", s.d},
            {"layers", s.layers},
            {"heads", s.heads},
            {"kv_heads", s.kv_heads},
            {"ffn", s.ffn},
            {"context", s.context},
            {"tied", s.tied},
            {"positional", positional_name(s.positional)},
            {"norm", norm_name(s.norm)},
            {"mlp", mlp_name(s.mlp)},
            {"biases", s.biases}}},
          {"embedding", c.token_embedding},
          {"token_embedding", c.token_embedding},
          {"positional", c.positional},
          {"per_block", {{"attention", c.attention}, {"mlp", c.mlp}, {"norms", c.norms}, {"total", c.block}}},
          {"blocks", c.blocks},
          {"final_norm", c.final_norm},
          {"output_head", c.output_head},
          {"total", c.total},
          {"embedding_share", c.embedding_share},
          {"vocab_share", c.vocab_share},
          {"memory_bytes", mem}};
}

nlohmann::json sweep_json(const ModelShape& base) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& s : sweep_shapes(base)) {
    const auto c = count_params(s);
    rows.push_back({{"d_model", s.d},
                    {"layers", s.layers},
                    {"heads", s.heads},
                    {"ffn", s.ffn},
                    {"embedding", c.token_embedding},
                    {"blocks", c.blocks},
                    {"output_head", c.output_head},
                    {"total", c.total},
                    {"embedding_share", c.embedding_share}});
  }
  return {{"vocab", base.V}, {"tied", base.tied}, {"sweep", rows}};
}

}  // namespace lumen::nn
