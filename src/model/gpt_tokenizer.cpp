#include "lumen/model/gpt_tokenizer.hpp"

#include "lumen/model/word_tokenizer.hpp"
#include "lumen/text/tokenizer_files.hpp"

namespace lumen::model {

TrainingTokenizer training_tokenizer(const train::Corpus& corpus, const GptTrainOptions& options,
                                     const ProgressFn& progress) {
  TrainingTokenizer t;
  if (options.tokenizer == "words") {
    t.words_json = word_tokenizer_json(corpus, options.max_words, progress);
    t.tokenizer = text::parse_tokenizer_json(t.words_json, "the corpus's word vocabulary");
  } else {
    t.tokenizer = text::load_gpt2_tokenizer();
    t.gpt2_dir = text::default_gpt2_dir();
  }
  return t;
}

}  // namespace lumen::model
