// libFuzzer target: `lumen train gpt --resume CHECKPOINT`. A valid checkpoint of a tiny GPT (tied or untied, by
// byte 0) is written once at start-up for a fixed token stream; the rest of the input damages it (fuzz_damage.hpp).
// Loading must succeed or throw lumen::InputError / UsageError (a ParseError with the offset, the stream mismatch,
// an option out of range); a checkpoint that loads must resume a step of training.
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fuzz_damage.hpp"
#include "lumen/core/error.hpp"
#include "lumen/model/gpt_trainer.hpp"

namespace {

namespace fs = std::filesystem;
using namespace lumen::model;

struct World {
  fs::path dir = fs::temp_directory_path() / ("lumen-fuzz-gpt-checkpoint-" + std::to_string(::getpid()));
  std::vector<std::int32_t> tokens;
  std::string tied, untied;  // the valid checkpoints' bytes

  World() {
    fs::create_directories(dir);
    for (int i = 0; i < 400; ++i) tokens.push_back((i * 7 + i / 13) % 11);
    for (bool tie : {true, false}) {
      const GptTrainOptions o{.layers = 1,
                              .d_model = 4,
                              .heads = 2,
                              .context = 4,
                              .tie = tie,
                              .steps = 4,
                              .batch = 2,
                              .eval_every = 2,
                              .eval_batches = 1,
                              .threads = 1};
      GptTrainer t(tokens, 11, o);
      std::atomic<bool> stop{false};
      lumen::train::TrainControl c;
      c.stop = &stop;
      t.train(c, [&stop](const GptStep& s) { stop = s.step >= 2; });
      const std::string p = (dir / "g.ckpt").string();
      t.save_checkpoint(p);
      (tie ? tied : untied) = slurp(p);
    }
  }
};

World& world() {
  static World w;
  return w;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  World& w = world();
  if (size < 3) return 0;
  const std::string bytes = damaged((data[0] & 1) != 0 ? w.untied : w.tied, data + 1, size - 1);
  const std::string path = (w.dir / "fuzz.ckpt").string();
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  try {
    // A damaged batch or step count is allowed to load (the file's size does not depend on them): bound the work.
    const GptTrainOptions o = GptTrainer::checkpoint_options(path);
    if (o.batch > 64 || o.eval_batches > 64 || o.steps > 1000) return 0;
    GptTrainer t = GptTrainer::load_checkpoint(path, w.tokens);
    if (t.step() > t.options().steps) std::abort();
    std::atomic<bool> stop{false};
    lumen::train::TrainControl c;
    c.stop = &stop;
    t.train(c, [&stop](const GptStep&) { stop = true; });
  } catch (const lumen::InputError&) {
  } catch (const lumen::UsageError&) {
  }
  return 0;
}
