#include "lumen/serve/served_model.hpp"

#include "lumen/model/checkpoint.hpp"
#include "lumen/model/model_tokenizer.hpp"
#include "lumen/model/transformer.hpp"
#include "lumen/text/tokenizer.hpp"

namespace lumen::serve {

ServedModel load_served_model(const std::string& path) {
  ServedModel m;
  m.model = std::make_shared<const model::Transformer>(model::load_checkpoint(path));
  m.source = model::checkpoint_dir(path);
  m.tokenizer = model::tokenizer_for(*m.model, path);
  return m;
}

}  // namespace lumen::serve
