#include "lumen/model/embedding_table.hpp"

#include "lumen/model/model_tokenizer.hpp"
#include "lumen/text/table_labels.hpp"

namespace lumen::model {

Table embedding_table(std::shared_ptr<const Transformer> model, const text::Tokenizer& tokenizer,
                      const std::string& source) {
  check_tokenizer(*model, tokenizer);
  const std::size_t V = model->shape().V, C = model->shape().d;
  Table t;
  const Param& E = model->weights().wte;  // a half E stays half: tables read f16 and bf16 rows as they lie
  t.E = E.dtype() == DType::f32 ? Matrix::borrow(E.data(), V, C, DType::f32, model)
                                : Matrix::borrow(E.half(), V, C, E.dtype(), model);
  t.vocab = Vocab::numbered(V);
  t.source = source;
  t.format = "checkpoint";
  text::label_rows(t, tokenizer);
  return t;
}

}  // namespace lumen::model
