#include "lumen/model/model_json.hpp"

#include "lumen/model/config.hpp"
#include "lumen/nn/params.hpp"

namespace lumen::model {

nlohmann::json model_json(const Transformer& model, const std::string& source) {
  const nn::ModelShape& s = model.shape();
  return {{"source", source},
          {"model_type", model.config().model_type},
          {"family", std::string(family_name(model.config().family))},
          {"V", s.V},
          {"d", s.d},
          {"layers", s.layers},
          {"heads", s.heads},
          {"kv_heads", s.kv_heads},
          {"ffn", s.ffn},
          {"context", s.context},
          {"positional", std::string(nn::positional_name(s.positional))},
          {"norm", std::string(nn::norm_name(s.norm))},
          {"mlp", std::string(nn::mlp_name(s.mlp))},
          {"tied", model.tied()},
          {"parameters", nn::count_params(s).total}};
}

}  // namespace lumen::model
