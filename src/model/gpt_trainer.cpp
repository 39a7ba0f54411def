// The GPT training session (see gpt_trainer.hpp): options, data windows, the step loop, held-out evaluation and
// the checkpoint that makes a resumed run bit for bit the straight one.
#include "lumen/model/gpt_trainer.hpp"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/model/gpt_backprop.hpp"
#include "lumen/model/hf_export.hpp"
#include "lumen/train/checkpoint.hpp"
#include "lumen/train/optimizer.hpp"

namespace lumen::model {

namespace {

constexpr std::string_view kMagic = "lumen-gpt-train-1";

}  // namespace

void check_gpt_train_options(const GptTrainOptions& o) {
  const auto range = [](const char* name, std::size_t v, std::size_t lo, std::size_t hi) {
    if (v < lo || v > hi) throw OptionError(name, fmt::format("{{option}} must be in {}..{} (got {})", lo, hi, v));
  };
  range("layers", o.layers, 1, 256);
  range("d_model", o.d_model, 1, 16384);
  range("heads", o.heads, 1, o.d_model);
  if (o.d_model % o.heads != 0)
    throw OptionError("heads", fmt::format("{{option}} ({}) must divide d_model ({})", o.heads, o.d_model));
  range("context", o.context, 1, 1 << 16);
  range("steps", o.steps, 1, std::size_t{1} << 40);
  range("batch", o.batch, 1, 1 << 16);
  range("eval_batches", o.eval_batches, 1, 1 << 16);
  if (!(o.lr > 0) || !std::isfinite(o.lr))
    throw OptionError("lr", fmt::format("{{option}} must be > 0 (got {})", o.lr));
  if (!(o.min_lr >= 0) || o.min_lr > o.lr)
    throw OptionError("min_lr", fmt::format("{{option}} must be in [0, lr] (got {})", o.min_lr));
  if (o.warmup > o.steps)
    throw OptionError("warmup", fmt::format("{{option}} must be at most steps ({}) (got {})", o.steps, o.warmup));
  if (!(o.weight_decay >= 0) || !std::isfinite(o.weight_decay))
    throw OptionError("weight_decay", fmt::format("{{option}} must be >= 0 (got {})", o.weight_decay));
  if (!(o.grad_clip >= 0) || !std::isfinite(o.grad_clip))
    throw OptionError("grad_clip", fmt::format("{{option}} must be >= 0 (got {})", o.grad_clip));
  if (!(o.holdout > 0 && o.holdout < 1))
    throw OptionError("holdout", fmt::format("{{option}} must be in (0, 1) (got {})", o.holdout));
  if (o.tokenizer != "words" && o.tokenizer != "gpt2")
    throw OptionError("tokenizer", fmt::format("{{option}} must be words or gpt2 (got '{}')", o.tokenizer));
  if (o.tokenizer == "words") range("max_words", o.max_words, 1, std::size_t{1} << 20);
}

namespace {

nn::ModelShape shape_of(const GptTrainOptions& o, std::size_t V) {
  nn::ModelShape s;
  s.name = "lumen train gpt";
  s.V = V;
  s.d = o.d_model;
  s.layers = o.layers;
  s.heads = o.heads;
  s.kv_heads = o.heads;
  s.ffn = 4 * o.d_model;
  s.context = o.context;
  s.tied = o.tie;
  return s;
}

// FNV-1a over the ids: the stream's identity in a checkpoint.
std::uint64_t stream_hash(const std::vector<std::int32_t>& tokens) {
  std::uint64_t h = 1469598103934665603ull;
  for (std::int32_t t : tokens) {
    h ^= static_cast<std::uint32_t>(t);
    h *= 1099511628211ull;
  }
  return h;
}

template <class O, class IO>
void option_fields(O& o, IO& io) {
  io.fields(o.layers, o.d_model, o.heads, o.context, o.tie, o.steps, o.batch, o.lr, o.min_lr, o.warmup, o.weight_decay,
            o.grad_clip, o.holdout, o.eval_every, o.eval_batches, o.seed, o.threads);
}

template <class E, class IO>
void eval_fields(E& e, IO& io) {
  io.fields(e.step, e.train_loss, e.heldout_loss, e.heldout_perplexity, e.seconds);
}

// Which tensors (in tensors() order) get weight decay: the four matrices of each block. Not wte, wpe, norms,
// biases, nor an untied lm_head (the output embedding).
std::vector<bool> decay_flags(const Weights& w) {
  std::vector<bool> d{false, false};
  for (std::size_t i = 0; i < w.blocks.size(); ++i)
    for (bool x : {false, false, true, false, true, false, false, false, true, false, true, false}) d.push_back(x);
  d.push_back(false);
  d.push_back(false);
  if (!w.lm_head.empty()) d.push_back(false);
  return d;
}

}  // namespace

Weights gpt2_init(const nn::ModelShape& s, std::uint64_t seed) {
  check_trainable(s);
  const std::size_t C = s.d, F = s.ffn, V = s.V;
  Rng rng(seed);
  const auto normal = [&](std::size_t n, double std) {
    std::vector<float> v(n);
    for (float& x : v) x = static_cast<float>(rng.normal() * std);
    return v;
  };
  const double resid = 0.02 / std::sqrt(2.0 * static_cast<double>(s.layers));
  Weights w;
  w.wte = normal(V * C, 0.02);
  w.wpe = normal(s.context * C, 0.01);
  for (std::size_t l = 0; l < s.layers; ++l) {
    BlockWeights b;
    b.norm1_w.assign(C, 1.0f);
    b.norm1_b.assign(C, 0.0f);
    b.qkv_w = normal(3 * C * C, 0.02);
    b.qkv_b.assign(3 * C, 0.0f);
    b.attn_proj_w = normal(C * C, resid);
    b.attn_proj_b.assign(C, 0.0f);
    b.norm2_w.assign(C, 1.0f);
    b.norm2_b.assign(C, 0.0f);
    b.fc_w = normal(F * C, 0.02);
    b.fc_b.assign(F, 0.0f);
    b.proj_w = normal(C * F, resid);
    b.proj_b.assign(C, 0.0f);
    w.blocks.push_back(std::move(b));
  }
  w.normf_w.assign(C, 1.0f);
  w.normf_b.assign(C, 0.0f);
  if (!s.tied) w.lm_head = normal(V * C, 0.02);
  return w;
}

struct GptTrainer::State {
  const std::vector<std::int32_t>* tokens = nullptr;
  GptTrainOptions o;
  nn::ModelShape s;
  std::size_t threads = 1, train_end = 0, warmup = 1;
  Weights w, g;
  std::unique_ptr<GptBackprop> pass;
  std::unique_ptr<train::Optimizer> opt;  // AdamW
  std::uint64_t step = 0, loss_count = 0;
  double loss_sum = 0;
  std::vector<GptEval> history;
  std::vector<std::int32_t> in, tg;  // (B,T)

  std::size_t n() const { return tokens->size(); }

  State(const std::vector<std::int32_t>& t, std::size_t V, const GptTrainOptions& options) : tokens(&t), o(options) {
    check_gpt_train_options(o);
    if (V == 0) throw InputError("a vocabulary of 0 tokens");
    s = shape_of(o, V);
    for (std::size_t i = 0; i < t.size(); ++i)
      if (t[i] < 0 || static_cast<std::size_t>(t[i]) >= V) throw IdError(t[i], i, static_cast<std::int64_t>(V));
    train_end = static_cast<std::size_t>(std::floor(static_cast<double>(t.size()) * (1.0 - o.holdout)));
    const std::size_t need = o.context + 1;
    if (train_end < need || t.size() - train_end < need)
      throw InputError(
          fmt::format("{} tokens: too few for windows of context {} + 1 in both the training part ({}) "
                      "and the held-out part ({}); use a larger corpus or a smaller context",
                      t.size(), o.context, train_end, t.size() - train_end));
    // The activations GptBackprop keeps: per layer about 17 (B*T,C) buffers and att (B,NH,T,T), plus the logits.
    const double B = static_cast<double>(o.batch), T = static_cast<double>(o.context),
                 C = static_cast<double>(o.d_model);
    const double floats =
        B * T * (static_cast<double>(V) + static_cast<double>(o.layers) * (17 * C + static_cast<double>(o.heads) * T));
    if (floats * 4 > 64.0 * (1ull << 30))
      throw OptionError("batch", fmt::format("{{option}} {} x context {} would need about {:.0f} GiB of activations; "
                                             "use a smaller batch or context",
                                             o.batch, o.context, floats * 4 / (1ull << 30)));
    threads = o.threads == 0 ? default_threads() : o.threads;
    warmup = o.warmup == 0 ? std::max<std::size_t>(1, o.steps / 20) : o.warmup;
    w = gpt2_init(s, o.seed);
    g = zeros_like(w);
    pass = std::make_unique<GptBackprop>(s, o.batch, o.context);
    // AdamW over every tensor (State lives on the heap: the pointers stay valid), b2 0.95, decay on the matrices.
    std::vector<train::ParamRef> ps;
    const std::vector<bool> decay = decay_flags(w);
    const auto wt = tensors(w), gt = tensors(g);
    for (std::size_t k = 0; k < wt.size(); ++k) ps.push_back({wt[k]->data(), gt[k]->data(), wt[k]->size(), decay[k]});
    opt = std::make_unique<train::Optimizer>(train::OptimizerKind::adam, std::move(ps),
                                             train::AdamOptions{.beta2 = 0.95f, .weight_decay = o.weight_decay});
    in.resize(o.batch * o.context);
    tg.resize(o.batch * o.context);
  }

  void window(std::size_t row, std::size_t offset) {
    const std::size_t T = o.context;
    for (std::size_t t = 0; t < T; ++t) {
      in[row * T + t] = (*tokens)[offset + t];
      tg[row * T + t] = (*tokens)[offset + t + 1];
    }
  }

  // The training windows of step `k`: offsets in [0, train_end - T - 1], keyed by (seed, k).
  void fill_train_batch(std::uint64_t k) {
    Rng rng(o.seed * 0x9e3779b97f4a7c15ull + k + 1);
    for (std::size_t b = 0; b < o.batch; ++b) window(b, static_cast<std::size_t>(rng.below(train_end - o.context)));
  }

  double train_step() {
    fill_train_batch(step);
    set_zero(g);
    const double loss = pass->forward(w, in.data(), tg.data(), threads);
    pass->backward(w, g, in.data(), tg.data(), threads);
    std::vector<float*> gp;
    std::vector<std::size_t> sizes;
    for (auto* p : tensors(g)) {
      gp.push_back(p->data());
      sizes.push_back(p->size());
    }
    last_norm = clip_grad_norm(gp, sizes, o.grad_clip);
    last_lr = cosine_lr(step, o.steps, warmup, o.lr, o.min_lr);
    opt->step(last_lr);
    ++step;
    loss_sum += loss;
    ++loss_count;
    return loss;
  }
  double last_norm = 0;
  float last_lr = 0;

  // eval_batches x B windows evenly spread over the held-out part, the same ones at every evaluation: after each
  // batch's forward, visit(its mean loss) while pass->losses() and tg hold the batch's positions.
  template <class Visit>
  void heldout_batches(Visit visit) const {
    const std::size_t T = o.context, W = o.eval_batches * o.batch, span = n() - train_end - T - 1;
    auto& self = const_cast<State&>(*this);  // NOLINT(cppcoreguidelines-pro-type-const-cast): scratch only
    for (std::size_t e = 0; e < o.eval_batches; ++e) {
      for (std::size_t b = 0; b < o.batch; ++b) {
        const std::size_t k = e * o.batch + b;
        self.window(b, train_end + (W > 1 ? span * k / (W - 1) : 0));
      }
      visit(self.pass->forward(w, in.data(), tg.data(), threads));
    }
  }

  GptEval evaluate() const {
    double sum = 0;
    heldout_batches([&](double loss) { sum += loss; });
    GptEval r;
    r.step = step;
    r.heldout_loss = sum / static_cast<double>(o.eval_batches);
    r.heldout_perplexity = std::exp(r.heldout_loss);
    return r;
  }

  GptSubsetLoss heldout_loss_where(const std::vector<bool>& targets) const {
    if (targets.size() != s.V)
      throw InputError(fmt::format("a mask of {} tokens for a vocabulary of {}", targets.size(), s.V));
    double sum = 0;
    GptSubsetLoss r;
    heldout_batches([&](double) {
      const std::vector<float>& losses = pass->losses();
      for (std::size_t i = 0; i < tg.size(); ++i)
        if (targets[static_cast<std::size_t>(tg[i])]) {
          sum += losses[i];
          ++r.targets;
        }
    });
    r.positions = o.eval_batches * tg.size();
    if (r.targets > 0) r.loss = sum / static_cast<double>(r.targets);
    return r;
  }
};

GptTrainer::GptTrainer(const std::vector<std::int32_t>& tokens, std::size_t V, const GptTrainOptions& options)
    : s_(std::make_unique<State>(tokens, V, options)) {}
GptTrainer::GptTrainer(std::unique_ptr<State> s) : s_(std::move(s)) {}
GptTrainer::~GptTrainer() = default;
GptTrainer::GptTrainer(GptTrainer&&) noexcept = default;
GptTrainer& GptTrainer::operator=(GptTrainer&&) noexcept = default;

bool GptTrainer::train(const train::TrainControl& control, const std::function<void(const GptStep&)>& on_step,
                       const std::function<void(const GptEval&)>& on_eval) {
  State& s = *s_;
  const auto start = std::chrono::steady_clock::now();
  const auto since = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  std::uint64_t done_here = 0;
  while (s.step < s.o.steps) {
    if (control.stop != nullptr && control.stop->load()) return false;
    const double loss = s.train_step();
    ++done_here;
    const double secs = since();
    if (on_step) {
      GptStep st;
      st.step = s.step;
      st.steps = s.o.steps;
      st.loss = loss;
      st.grad_norm = s.last_norm;
      st.lr = s.last_lr;
      st.seconds = secs;
      st.tokens_per_second = secs > 0 ? static_cast<double>(done_here * s.o.batch * s.o.context) / secs : 0.0;
      on_step(st);
    }
    if (control.on_progress) {
      train::TrainStatus ts;
      ts.words_done = s.step * s.o.batch * s.o.context;
      ts.words_total = s.o.steps * s.o.batch * s.o.context;
      ts.loss = loss;
      ts.lr = s.last_lr;
      ts.seconds = secs;
      control.on_progress(ts);
    }
    if ((s.o.eval_every > 0 && s.step % s.o.eval_every == 0) || s.step == s.o.steps) {
      GptEval e = s.evaluate();
      e.train_loss = s.loss_count > 0 ? s.loss_sum / static_cast<double>(s.loss_count) : 0.0;
      e.seconds = secs;
      s.loss_sum = 0;
      s.loss_count = 0;
      s.history.push_back(e);
      if (on_eval) on_eval(e);
    }
    if (control.checkpoint_every > 0 && s.step % control.checkpoint_every == 0 && control.on_checkpoint)
      control.on_checkpoint();
  }
  return true;
}

bool GptTrainer::finished() const { return s_->step >= s_->o.steps; }
GptEval GptTrainer::evaluate() const { return s_->evaluate(); }
GptSubsetLoss GptTrainer::heldout_loss_where(const std::vector<bool>& targets) const {
  return s_->heldout_loss_where(targets);
}
const nn::ModelShape& GptTrainer::shape() const { return s_->s; }
const Weights& GptTrainer::weights() const { return s_->w; }
const GptTrainOptions& GptTrainer::options() const { return s_->o; }
std::uint64_t GptTrainer::step() const { return s_->step; }
const std::vector<GptEval>& GptTrainer::history() const { return s_->history; }
std::uint64_t GptTrainer::train_tokens() const { return s_->train_end; }
std::uint64_t GptTrainer::heldout_tokens() const { return s_->n() - s_->train_end; }

std::string ResumeNote::text_for(const std::string& spelled) const {
  return fmt::format(
      "{} is {} here, but the checkpoint was made with {}: a resumed run keeps its checkpoint's "
      "options, so {} is used",
      spelled, asked, kept, kept);
}

std::vector<ResumeNote> resume_notes(const GptTrainOptions& asked, const GptTrainOptions& kept) {
  std::vector<ResumeNote> notes;
  const auto note = [&](const char* name, const auto& a, const auto& k) {
    if (a != k) notes.push_back({name, fmt::format("{}", a), fmt::format("{}", k)});
  };
  note("layers", asked.layers, kept.layers);
  note("d_model", asked.d_model, kept.d_model);
  note("heads", asked.heads, kept.heads);
  note("context", asked.context, kept.context);
  if (asked.tie != kept.tie) notes.push_back({"tie", asked.tie ? "tied" : "untied", kept.tie ? "tied" : "untied"});
  note("steps", asked.steps, kept.steps);
  note("batch", asked.batch, kept.batch);
  note("lr", asked.lr, kept.lr);
  note("min_lr", asked.min_lr, kept.min_lr);
  note("warmup", asked.warmup, kept.warmup);
  note("weight_decay", asked.weight_decay, kept.weight_decay);
  note("grad_clip", asked.grad_clip, kept.grad_clip);
  note("holdout", asked.holdout, kept.holdout);
  note("eval_every", asked.eval_every, kept.eval_every);
  note("eval_batches", asked.eval_batches, kept.eval_batches);
  note("seed", asked.seed, kept.seed);
  note("threads", asked.threads, kept.threads);
  note("tokenizer", asked.tokenizer, kept.tokenizer);
  note("max_words", asked.max_words, kept.max_words);
  return notes;
}

void GptTrainer::export_hf(const std::string& dir, const std::string& gpt2_tokenizer_dir,
                           const std::string& tokenizer_json) const {
  write_gpt2_checkpoint(dir, s_->s, s_->w, gpt2_tokenizer_dir, tokenizer_json);
}

void GptTrainer::save_checkpoint(const std::string& path) const {
  const State& s = *s_;
  train::CheckpointWriter w(path, kMagic);
  option_fields(s.o, w);
  w.str(s.o.tokenizer);
  w.field(s.o.max_words);
  w.fields(s.s.V, s.tokens->size(), stream_hash(*s.tokens));
  w.fields(s.step, s.loss_count, s.loss_sum);
  w.field(s.history.size());
  for (const GptEval& e : s.history) eval_fields(e, w);
  for (const auto* t : tensors(s.w)) {
    w.field(t->size());
    w.floats(t->data(), t->size());
  }
  w.field(s.opt->steps());
  for (std::size_t k = 0; k < s.opt->m().size(); ++k) {
    w.floats(s.opt->m()[k].data(), s.opt->m()[k].size());
    w.floats(s.opt->v()[k].data(), s.opt->v()[k].size());
  }
  w.commit();
}

GptTrainOptions GptTrainer::checkpoint_options(const std::string& path) {
  train::CheckpointReader r(path, kMagic);
  GptTrainOptions o;
  option_fields(o, r);
  o.tokenizer = r.str();
  r.field(o.max_words);
  return o;
}

GptTrainer GptTrainer::load_checkpoint(const std::string& path, const std::vector<std::int32_t>& tokens) {
  train::CheckpointReader r(path, kMagic);
  GptTrainOptions o;
  option_fields(o, r);
  o.tokenizer = r.str();
  r.field(o.max_words);
  if (o.tokenizer != "gpt2" && o.tokenizer != "words") r.fail(fmt::format("unknown tokenizer '{}'", o.tokenizer));
  std::uint64_t V = 0, n = 0, hash = 0;
  r.fields(V, n, hash);
  if (V == 0 || V > (std::uint64_t{1} << 31)) r.fail(fmt::format("a vocabulary of {} tokens", V));
  if (n != tokens.size() || hash != stream_hash(tokens))
    throw InputError(
        fmt::format("{}: the checkpoint was trained on another token stream ({} tokens; this corpus "
                    "gives {}): resume on the same corpus and tokenizer",
                    path, n, tokens.size()));
  std::uint64_t step = 0, loss_count = 0;
  double loss_sum = 0;
  r.fields(step, loss_count, loss_sum);
  if (step > o.steps) r.fail("the training position lies past the end of training");
  const std::uint64_t nh = r.u64();
  if (nh > o.steps + 1) r.fail("bad evaluation history");
  std::vector<GptEval> history;
  for (std::uint64_t i = 0; i < nh; ++i) {
    GptEval e;
    eval_fields(e, r);
    history.push_back(e);
  }
  // The rest of the file must be exactly the tensors these options make (weights, then AdamW's two moments):
  // checked before anything is allocated, so damaged sizes are a ParseError, never a huge allocation.
  {
    if (o.d_model == 0 || o.d_model > 16384 || o.layers > 256 || o.context > (1 << 16))
      r.fail("model options out of range");
    const std::uint64_t C = o.d_model, L = o.layers;
    const std::uint64_t P = V * C + o.context * C + L * (12 * C * C + 13 * C) + 2 * C + (o.tie ? 0 : V * C);
    const std::uint64_t count = 4 + 12 * L + (o.tie ? 0 : 1);
    // 26 u64 fields before the history (17 options, the tokenizer's length, max_words, V, n, hash, step,
    // loss_count, loss_sum, the history's count), the tokenizer's bytes, 5 per evaluation.
    constexpr std::uint64_t kField = 8;
    const std::uint64_t head = kMagic.size() + 26 * kField + o.tokenizer.size() + nh * 5 * kField;
    std::error_code ec;
    if (std::filesystem::file_size(path, ec) != head + count * 8 + 4 * P + 8 + 8 * P)
      r.fail("the file's size does not match the model its options describe (damaged or cut short)");
  }
  std::unique_ptr<State> sp;
  try {
    sp = std::make_unique<State>(tokens, static_cast<std::size_t>(V), o);
  } catch (const UsageError& e) {
    r.fail(std::string("bad training options: ") + e.what());
  }
  State& s = *sp;
  s.step = step;
  s.loss_count = loss_count;
  s.loss_sum = loss_sum;
  s.history = std::move(history);
  for (auto* t : tensors(s.w)) {
    if (r.u64() != t->size()) r.fail("a parameter tensor of the wrong size");
    r.floats(t->data(), t->size());
  }
  std::uint64_t t = 0;
  r.field(t);
  s.opt->set_steps(t);
  for (std::size_t k = 0; k < s.opt->m().size(); ++k) {
    r.floats(s.opt->m()[k].data(), s.opt->m()[k].size());
    r.floats(s.opt->v()[k].data(), s.opt->v()[k].size());
  }
  r.expect_end();
  return GptTrainer(std::move(sp));
}

}  // namespace lumen::model
