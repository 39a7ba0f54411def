#include "lumen/train/lm.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <limits>
#include <optional>

#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/nn/embedding.hpp"
#include "lumen/nn/linear.hpp"
#include "lumen/nn/loss.hpp"
#include "lumen/nn/output_head.hpp"
#include "lumen/train/checkpoint.hpp"
#include "trained_table.hpp"

namespace lumen::train {

namespace {

constexpr std::uint64_t kStart = std::numeric_limits<std::uint64_t>::max();
constexpr std::string_view kMagic{"LUMEN-LM-CKPT\0\0\x02", 16};  // 2: the thread count is kept
constexpr Id kEos = 0, kUnk = 1;

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

void check_holdout(double holdout) {
  if (!(holdout > 0 && holdout < 1))
    throw OptionError("holdout", fmt::format("{{option}} must be in (0, 1) (got {})", holdout));
}

void check_options(const LmOptions& o) {
  if (o.context == 0 || o.context > 64)
    throw OptionError("context", fmt::format("{{option}} must be in 1..64 (got {})", o.context));
  if (o.dim == 0 || o.dim > 65536)
    throw OptionError("dim", fmt::format("{{option}} must be in 1..65536 (got {})", o.dim));
  if (o.hidden == 0 || o.hidden > 65536)
    throw OptionError("hidden", fmt::format("{{option}} must be in 1..65536 (got {})", o.hidden));
  if (!(o.init_std > 0) || !std::isfinite(o.init_std)) throw OptionError("init_std", "{option} must be positive");
  if (!(o.lr > 0) || !std::isfinite(o.lr)) throw OptionError("lr", "{option} must be positive");
  if (o.batch == 0 || o.batch > 1'000'000) throw OptionError("batch", "{option} must be in 1..1000000");
  if (o.epochs == 0) throw OptionError("epochs", "{option} must be at least 1");
  check_holdout(o.holdout);
  if (o.shuffle_window == 0) throw OptionError("shuffle_window", "{option} must hold at least one example");
  if (o.threads > 4096) throw OptionError("threads", fmt::format("{{option}} must be in 0..4096 (got {})", o.threads));
}

void init_normal(Matrix& m, float std, std::uint64_t seed) {
  Rng rng(seed);
  for (float& x : m.f32_mut()) x = static_cast<float>(rng.normal() * static_cast<double>(std));
}

// The checkpoint's field lists: save and load walk the same lists, so the two cannot disagree on the order.
// `io` is a CheckpointWriter (fields read) or a CheckpointReader (fields written).
template <class O, class IO>
void option_fields(O& o, IO& io) {
  io.fields(o.context, o.dim, o.hidden, o.tie, o.init_std, o.scale_sqrt_d);
  io.field(o.optimizer, 2);
  io.fields(o.lr, o.batch, o.epochs, o.holdout, o.max_train_tokens, o.shuffle_window, o.seed, o.threads,
            o.tokenizer.lower, o.tokenizer.split_punct);
}

template <class E, class IO>
void epoch_fields(E& e, IO& io) {
  io.fields(e.epoch, e.train_loss, e.heldout_loss, e.heldout_perplexity, e.heldout_tokens, e.seconds);
}

}  // namespace

struct LanguageModel::State {
  const Corpus* corpus = nullptr;
  Vocab vocab;
  LmOptions o;
  std::uint64_t train_end = 0, tokens_per_epoch = 0;
  std::unique_ptr<nn::Embedding> emb;
  std::unique_ptr<nn::OutputHead> head;
  Matrix W1, b1, P, bout;  // W1 (H,n*d), b1 (1,H), P (d,H) if H != d, bout (1,V)
  Matrix dW1, db1, dP, dbout;
  std::unique_ptr<Optimizer> opt;
  // Where training is: epoch, the shuffle window (index, first byte), batches done in it.
  std::uint64_t epoch = 0, window = 0, window_offset = kStart, batch_in_window = 0;
  std::uint64_t tokens_done = 0, tokens_in_epoch = 0, epoch_batches = 0;
  double epoch_loss = 0;
  std::vector<LmEpoch> history;
  // Scratch for one batch.
  std::vector<Id> ctx, tgt;
  std::vector<float> X, A, Z, logits, dZ, dA, dX;

  bool has_proj() const { return o.hidden != o.dim; }
  std::size_t V() const { return vocab.size(); }
  std::size_t K() const { return o.context * o.dim; }
  Id id_of(std::string_view w) const {
    const auto id = vocab.find(w);  // </s> and <unk> as words of the text are unknown words
    return id && *id > kUnk ? *id : kUnk;
  }
  void build_params();
  void build_optimizer();
  // One batch of B examples in ctx (B,n) and tgt (B). forward: the mean cross-entropy; with `learn`, logits
  // then hold dloss/dlogits for backward, which fills every gradient; update takes one optimizer step.
  double forward(std::size_t B, bool learn);
  void backward(std::size_t B);
  void update() { opt->step(lr_now()); }
  double train_batch(std::size_t B) {
    const double loss = forward(B, true);
    backward(B);
    update();
    return loss;
  }
  // Where training stands, and the parameters, as the checkpoint lists them.
  template <class S, class IO>
  static void position_fields(S& s, IO& io) {
    io.fields(s.epoch, s.window, s.window_offset, s.batch_in_window, s.tokens_done, s.tokens_in_epoch, s.epoch_batches,
              s.epoch_loss);
  }
  template <class S>
  static auto params(S& s) {
    std::vector<decltype(&s.W1)> ps{&s.emb->E()};
    if (!s.o.tie) ps.push_back(&s.head->W());
    for (auto* m : {&s.W1, &s.b1}) ps.push_back(m);
    if (s.has_proj()) ps.push_back(&s.P);
    ps.push_back(&s.bout);
    return ps;
  }
  // Appends the examples (n context ids, then the target) of one sentence.
  void examples(const Sentence& s, std::vector<Id>& out) const;
  float lr_now() const {
    const double total = static_cast<double>(o.epochs) * static_cast<double>(tokens_per_epoch);
    return static_cast<float>(o.lr * std::max(1e-4, 1.0 - static_cast<double>(tokens_done) / std::max(1.0, total)));
  }
};

void LanguageModel::State::examples(const Sentence& s, std::vector<Id>& out) const {
  if (s.size() == 0) return;
  const std::size_t n = o.context;
  std::vector<Id> seq(n, kEos);  // the context before the first word is </s> padding
  seq.reserve(n + s.size() + 1);
  for (std::size_t i = 0; i < s.size(); ++i) seq.push_back(id_of(s[i]));
  seq.push_back(kEos);
  for (std::size_t t = n; t < seq.size(); ++t)
    out.insert(out.end(), seq.begin() + static_cast<std::ptrdiff_t>(t - n),
               seq.begin() + static_cast<std::ptrdiff_t>(t + 1));
}

void LanguageModel::State::build_params() {
  const std::size_t V = this->V(), d = o.dim, H = o.hidden, K = this->K();
  nn::EmbeddingOptions eo;
  eo.scale_sqrt_d = o.scale_sqrt_d;
  emb = std::make_unique<nn::Embedding>(V, d, eo);
  head = std::make_unique<nn::OutputHead>(o.tie ? nn::OutputHead::tied(*emb) : nn::OutputHead::untied(V, d));
  W1 = Matrix(H, K);
  b1 = Matrix(1, H);
  if (has_proj()) P = Matrix(d, H);
  bout = Matrix(1, V);
  dW1 = Matrix(H, K);
  db1 = Matrix(1, H);
  if (has_proj()) dP = Matrix(d, H);
  dbout = Matrix(1, V);
}

void LanguageModel::State::build_optimizer() {
  std::vector<ParamRef> ps;
  auto add = [&](Matrix& w, Matrix& g) { ps.push_back({w.f32_mut().data(), g.f32().data(), w.size()}); };
  add(emb->E(), emb->dE());
  if (!o.tie) add(head->W(), head->dW());
  add(W1, dW1);
  add(b1, db1);
  if (has_proj()) add(P, dP);
  add(bout, dbout);
  opt = std::make_unique<Optimizer>(o.optimizer, std::move(ps));
}

double LanguageModel::State::forward(std::size_t B, bool learn) {
  const std::size_t V = this->V(), d = o.dim, H = o.hidden, K = this->K(), n = o.context;
  const std::size_t threads = o.threads;  // every GEMM below at this count, whatever an earlier call left
  X.resize(B * K);
  A.resize(B * H);
  logits.resize(B * V);
  // x (B,n*d) = concat E[ids]
  emb->forward(std::span<const Id>(ctx.data(), B * n), B, n, std::span<float>(X.data(), B * K), threads);
  // a (B,H) = tanh(x W1^T + b1)
  nn::matmul_forward(A.data(), X.data(), W1.f32().data(), nullptr, B, K, H, threads);  // b1 joins inside the tanh
  const float* bb = b1.f32().data();
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t j = 0; j < H; ++j) A[b * H + j] = std::tanh(A[b * H + j] + bb[j]);
  // z (B,d) = a P^T, or a itself
  const float* z = A.data();
  if (has_proj()) {
    Z.resize(B * d);
    nn::matmul_forward(Z.data(), A.data(), P.f32().data(), nullptr, B, H, d, threads);
    z = Z.data();
  }
  // logits (B,V) = z W^T + bout
  head->forward(std::span<const float>(z, B * d), B, logits, threads);
  const float* bo = bout.f32().data();
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t v = 0; v < V; ++v) logits[b * V + v] += bo[v];
  const std::span<const Id> targets(tgt.data(), B);
  if (!learn) return nn::cross_entropy(logits, targets, V, threads);
  return nn::softmax_cross_entropy(logits, targets, V, logits, threads);  // logits := dlogits
}

// The forward pass in reverse, from dlogits (B,V) in logits.
void LanguageModel::State::backward(std::size_t B) {
  const std::size_t V = this->V(), d = o.dim, H = o.hidden, K = this->K(), n = o.context;
  const std::size_t threads = o.threads;
  const float* z = has_proj() ? Z.data() : A.data();
  emb->zero_grad();
  head->zero_grad();
  std::memset(dW1.mutable_data(), 0, dW1.bytes());
  std::memset(db1.mutable_data(), 0, db1.bytes());
  std::memset(dbout.mutable_data(), 0, dbout.bytes());
  float* dbo = dbout.f32_mut().data();
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t v = 0; v < V; ++v) dbo[v] += logits[b * V + v];
  dZ.resize(B * d);
  head->backward(std::span<const float>(z, B * d), logits, B, dZ, threads);
  const float* da = dZ.data();
  if (has_proj()) {
    std::memset(dP.mutable_data(), 0, dP.bytes());
    dA.assign(B * H, 0.0f);
    // da = dz P, dP = dz^T a
    nn::matmul_backward(dA.data(), dP.f32_mut().data(), nullptr, dZ.data(), A.data(), P.f32().data(), B, H, d, threads);
    da = dA.data();
  } else {
    dA.assign(dZ.begin(), dZ.end());
    da = dA.data();
  }
  // through tanh: da_pre = da * (1 - a^2)
  float* dap = dA.data();
  float* db = db1.f32_mut().data();
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t j = 0; j < H; ++j) {
      const float a = A[b * H + j];
      dap[b * H + j] = da[b * H + j] * (1.0f - a * a);
      db[j] += dap[b * H + j];
    }
  dX.assign(B * K, 0.0f);
  // dx = da W1, dW1 = da^T x (b1's gradient is summed above)
  nn::matmul_backward(dX.data(), dW1.f32_mut().data(), nullptr, dap, X.data(), W1.f32().data(), B, K, H, threads);
  emb->backward(std::span<const Id>(ctx.data(), B * n), dX, threads);
}

std::uint64_t LanguageModel::train_end(const Corpus& corpus, double holdout) {
  check_holdout(holdout);
  return static_cast<std::uint64_t>(static_cast<double>(corpus.bytes()) * (1.0 - holdout));
}

LanguageModel::LanguageModel(std::unique_ptr<State> s) : s_(std::move(s)) {}
LanguageModel::~LanguageModel() = default;
LanguageModel::LanguageModel(LanguageModel&&) noexcept = default;
LanguageModel& LanguageModel::operator=(LanguageModel&&) noexcept = default;

LanguageModel::LanguageModel(const Corpus& corpus, const Vocab& words, const LmOptions& options)
    : s_(std::make_unique<State>()) {
  auto& s = *s_;
  s.corpus = &corpus;
  s.o = options;
  if (s.o.lr == 0) s.o.lr = s.o.optimizer == OptimizerKind::adam ? 1e-3f : 0.1f;
  // Some OpenBLAS kernels sum in another order at another thread count: the count is part of the run, kept in
  // its checkpoint, so that a resumed run computes what the straight one would have.
  if (s.o.threads == 0) s.o.threads = default_threads();
  check_options(s.o);
  s.train_end = train_end(corpus, s.o.holdout);
  // Count </s> (sentences) and <unk> (other words) over the training part, as the trainer will see it.
  std::uint64_t sentences = 0, unk = 0, tokens = 0;
  {
    CorpusReader r(corpus, text::WordSplitter(s.o.tokenizer), 0, s.train_end, true);
    Sentence sent;
    while (r.next_sentence(sent)) {
      if (sent.size() == 0) continue;
      ++sentences;
      tokens += sent.size() + 1;
      for (std::size_t i = 0; i < sent.size(); ++i)
        if (!words.contains(sent[i])) ++unk;
      if (s.o.max_train_tokens > 0 && tokens >= s.o.max_train_tokens) break;
    }
  }
  s.vocab.add("</s>", std::max<std::uint64_t>(sentences, 1));
  s.vocab.add("<unk>", std::max<std::uint64_t>(unk, 1));
  for (std::size_t i = 0; i < words.size(); ++i)
    s.vocab.add(words.token(static_cast<Id>(i)), words.count(static_cast<Id>(i)));
  s.tokens_per_epoch = tokens;
  if (tokens == 0) throw InputError("the training part of the corpus holds no words");
  s.build_params();
  s.emb->init_normal(s.o.init_std, s.o.seed);
  if (!s.o.tie) s.head->init_normal(s.o.init_std, mix(s.o.seed ^ 1));
  init_normal(s.W1, 1.0f / std::sqrt(static_cast<float>(s.K())), mix(s.o.seed ^ 2));
  if (s.has_proj()) init_normal(s.P, 1.0f / std::sqrt(static_cast<float>(s.o.hidden)), mix(s.o.seed ^ 3));
  s.build_optimizer();
}

bool LanguageModel::finished() const { return s_->epoch >= s_->o.epochs; }

LmEpoch LanguageModel::evaluate() const {
  auto& s = *s_;
  const auto start = std::chrono::steady_clock::now();
  CorpusReader r(*s.corpus, text::WordSplitter(s.o.tokenizer), s.train_end, s.corpus->bytes(), false);
  Sentence sent;
  std::vector<Id> ex;
  double sum = 0;
  std::uint64_t count = 0;
  const std::size_t n = s.o.context, B = 512;
  auto flush = [&](std::size_t m) {
    s.ctx.resize(m * n);
    s.tgt.resize(m);
    for (std::size_t b = 0; b < m; ++b) {
      std::copy_n(ex.begin() + static_cast<std::ptrdiff_t>(b * (n + 1)), n,
                  s.ctx.begin() + static_cast<std::ptrdiff_t>(b * n));
      s.tgt[b] = ex[b * (n + 1) + n];
    }
    sum += s.forward(m, false) * static_cast<double>(m);
    count += m;
    ex.erase(ex.begin(), ex.begin() + static_cast<std::ptrdiff_t>(m * (n + 1)));
  };
  while (r.next_sentence(sent)) {
    s.examples(sent, ex);
    while (ex.size() >= B * (n + 1)) flush(B);
  }
  if (!ex.empty()) flush(ex.size() / (n + 1));
  LmEpoch e;
  e.heldout_tokens = count;
  e.heldout_loss = count > 0 ? sum / static_cast<double>(count) : std::nan("");
  e.heldout_perplexity = std::exp(e.heldout_loss);
  e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return e;
}

bool LanguageModel::train(const TrainControl& control, const std::function<void(const LmEpoch&)>& on_epoch) {
  auto& s = *s_;
  const std::size_t n = s.o.context, B = s.o.batch, E = n + 1;
  const auto start = std::chrono::steady_clock::now();
  auto last_report = start;
  double report_sum = 0;
  std::uint64_t report_n = 0, since_ckpt = 0;
  std::vector<Id> ex;
  std::vector<std::size_t> order;
  Sentence sent;
  while (s.epoch < s.o.epochs) {
    const auto epoch_start = std::chrono::steady_clock::now();
    const bool aligned = s.window_offset != kStart;
    CorpusReader r(*s.corpus, text::WordSplitter(s.o.tokenizer), aligned ? s.window_offset : 0, s.train_end, true);
    bool more = true;
    while (more) {
      // Fill one shuffle window with whole sentences.
      const std::uint64_t window_start = r.position();
      ex.clear();
      std::uint64_t window_tokens = 0;
      while (ex.size() < s.o.shuffle_window * E) {
        if (s.o.max_train_tokens > 0 && s.tokens_in_epoch + window_tokens >= s.o.max_train_tokens) {
          more = false;
          break;
        }
        if (!r.next_sentence(sent)) {
          more = false;
          break;
        }
        const auto before = ex.size();
        s.examples(sent, ex);
        window_tokens += (ex.size() - before) / E;
      }
      const std::size_t m = ex.size() / E;
      if (m == 0) break;
      s.window_offset = window_start;
      order.resize(m);
      for (std::size_t i = 0; i < m; ++i) order[i] = i;
      Rng rng(mix(mix(mix(s.o.seed) ^ s.epoch) ^ s.window));
      for (std::size_t i = m; i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
      const std::size_t batches = (m + B - 1) / B;
      for (std::size_t k = s.batch_in_window; k < batches; ++k) {
        const std::size_t b0 = k * B, bn = std::min(B, m - b0);
        s.ctx.resize(bn * n);
        s.tgt.resize(bn);
        for (std::size_t b = 0; b < bn; ++b) {
          const std::size_t e = order[b0 + b];
          std::copy_n(ex.begin() + static_cast<std::ptrdiff_t>(e * E), n,
                      s.ctx.begin() + static_cast<std::ptrdiff_t>(b * n));
          s.tgt[b] = ex[e * E + n];
        }
        const double loss = s.train_batch(bn);
        s.epoch_loss += loss;
        ++s.epoch_batches;
        s.tokens_done += bn;
        since_ckpt += bn;
        s.batch_in_window = k + 1;
        report_sum += loss;
        ++report_n;
        const auto now = std::chrono::steady_clock::now();
        if (control.on_progress && now - last_report > std::chrono::milliseconds(100)) {
          TrainStatus st = status();
          st.loss = report_sum / static_cast<double>(report_n);
          st.seconds = std::chrono::duration<double>(now - start).count();
          control.on_progress(st);
          last_report = now;
          report_sum = 0;
          report_n = 0;
        }
        if (control.stop && control.stop->load()) {
          if (s.batch_in_window == batches) {  // the window is done: resume at the next one
            s.tokens_in_epoch += window_tokens;
            s.window_offset = r.position();
            ++s.window;
            s.batch_in_window = 0;
          }
          return false;
        }
        if (control.checkpoint_every > 0 && since_ckpt >= control.checkpoint_every && control.on_checkpoint &&
            s.batch_in_window < batches) {
          control.on_checkpoint();
          since_ckpt = 0;
        }
      }
      s.tokens_in_epoch += window_tokens;
      s.window_offset = r.position();
      ++s.window;
      s.batch_in_window = 0;
      if (control.checkpoint_every > 0 && since_ckpt >= control.checkpoint_every && control.on_checkpoint) {
        control.on_checkpoint();
        since_ckpt = 0;
      }
    }
    LmEpoch e = evaluate();
    e.epoch = s.epoch + 1;
    e.train_loss = s.epoch_batches > 0 ? s.epoch_loss / static_cast<double>(s.epoch_batches) : std::nan("");
    e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - epoch_start).count();
    s.history.push_back(e);
    ++s.epoch;
    s.window = 0;
    s.window_offset = kStart;
    s.batch_in_window = 0;
    s.tokens_in_epoch = 0;
    s.epoch_loss = 0;
    s.epoch_batches = 0;
    if (on_epoch) on_epoch(e);
    if (control.stop && control.stop->load() && s.epoch < s.o.epochs) return false;
  }
  return true;
}

TrainStatus LanguageModel::status() const {
  TrainStatus st;
  st.words_done = s_->tokens_done;
  st.words_total = static_cast<std::uint64_t>(s_->o.epochs) * s_->tokens_per_epoch;
  st.lr = s_->lr_now();
  st.epoch = static_cast<std::size_t>(std::min<std::uint64_t>(s_->epoch, s_->o.epochs));
  return st;
}

const Vocab& LanguageModel::vocab() const { return s_->vocab; }
const LmOptions& LanguageModel::options() const { return s_->o; }
const std::vector<LmEpoch>& LanguageModel::history() const { return s_->history; }

Table LanguageModel::input_table() const { return trained_table(s_->vocab, s_->emb->E(), "lumen train lm (input)"); }

Table LanguageModel::output_table() const {
  return trained_table(s_->vocab, s_->head->W(), s_->o.tie ? "lumen train lm (tied)" : "lumen train lm (output)");
}

void LanguageModel::save_checkpoint(const std::string& path) const {
  const auto& s = *s_;
  CheckpointWriter w(path, kMagic);
  option_fields(s.o, w);
  w.corpus(*s.corpus);
  w.vocab(s.vocab);
  w.field(s.tokens_per_epoch);
  State::position_fields(s, w);
  w.field(s.history.size());
  for (const auto& e : s.history) epoch_fields(e, w);
  for (const Matrix* m : State::params(s)) w.matrix(*m);
  w.field(s.opt->steps());
  const auto& opt = *s.opt;
  for (std::size_t k = 0; k < opt.m().size(); ++k) {
    w.field(opt.m()[k].size());
    w.floats(opt.m()[k].data(), opt.m()[k].size());
    w.floats(opt.v()[k].data(), opt.v()[k].size());
  }
  w.commit();
}

LanguageModel LanguageModel::load_checkpoint(const std::string& path, const Corpus& corpus) {
  CheckpointReader r(path, kMagic);
  auto sp = std::make_unique<State>();
  auto& s = *sp;
  s.corpus = &corpus;
  auto& o = s.o;
  option_fields(o, r);
  if (o.threads == 0) o.threads = default_threads();
  try {
    check_options(o);
  } catch (const UsageError& e) {
    r.fail(std::string("bad training options: ") + e.what());
  }
  r.expect_corpus(corpus);
  s.vocab = r.vocab();
  if (s.vocab.size() < 2 || s.vocab.token(kEos) != "</s>" || s.vocab.token(kUnk) != "<unk>")
    r.fail("the vocabulary does not start with </s> and <unk>");
  r.field(s.tokens_per_epoch);
  State::position_fields(s, r);
  if (s.epoch > o.epochs || s.tokens_in_epoch > s.tokens_per_epoch ||
      s.tokens_done > static_cast<std::uint64_t>(o.epochs) * s.tokens_per_epoch)
    r.fail("the training position lies past the end of training");
  const auto nh = r.u64();
  if (nh > o.epochs) r.fail("bad epoch history");
  for (std::uint64_t i = 0; i < nh; ++i) {
    LmEpoch e;
    epoch_fields(e, r);
    s.history.push_back(e);
  }
  s.train_end = train_end(corpus, o.holdout);
  s.build_params();
  for (Matrix* into : State::params(s)) {
    Matrix m = r.matrix();
    if (m.rows() != into->rows() || m.cols() != into->cols())
      r.fail(
          fmt::format("a {} x {} matrix where {} x {} was expected", m.rows(), m.cols(), into->rows(), into->cols()));
    std::memcpy(into->mutable_data(), m.data(), m.bytes());
  }
  s.build_optimizer();
  s.opt->set_steps(r.u64());
  for (std::size_t k = 0; k < s.opt->m().size(); ++k) {
    if (r.u64() != s.opt->m()[k].size()) r.fail("optimizer state does not match the parameters");
    r.floats(s.opt->m()[k].data(), s.opt->m()[k].size());
    r.floats(s.opt->v()[k].data(), s.opt->v()[k].size());
  }
  r.expect_end();
  return LanguageModel(std::move(sp));
}

}  // namespace lumen::train
