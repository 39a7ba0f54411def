#pragma once
// The tokenizer a GPT is trained with, chosen in one place for `lumen train gpt`, Python's lumen.train.gpt and
// `lumen claims`' tied/untied GPTs: GPT-2's byte-level BPE ("gpt2", its files from text::default_gpt2_dir()) or
// the corpus's own word vocabulary ("words", word_tokenizer.hpp), which is then written beside the model.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "lumen/core/progress.hpp"
#include "lumen/model/gpt_trainer.hpp"
#include "lumen/text/tokenizer.hpp"
#include "lumen/train/corpus.hpp"

namespace lumen::model {

struct TrainingTokenizer {
  std::unique_ptr<text::Tokenizer> tokenizer;
  std::string words_json;  // "words": the tokenizer.json to write with the model ("" for gpt2)
  std::string gpt2_dir;    // "gpt2": where GPT-2's files were read (copied beside the model)
};

// options.tokenizer and options.max_words as check_gpt_train_options allows. progress(bytes done, total) while a
// word vocabulary is counted. Throws InputError when GPT-2's files are not there, IoError for an unreadable corpus.
TrainingTokenizer training_tokenizer(const train::Corpus& corpus, const GptTrainOptions& options,
                                     const ProgressFn& progress = {});

}  // namespace lumen::model
