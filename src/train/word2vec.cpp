#include "lumen/train/word2vec.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <fmt/format.h>
#include <limits>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "lumen/core/error.hpp"
#include "lumen/core/kernels.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/train/checkpoint.hpp"
#include "lumen/train/kernels.hpp"
#include "lumen/train/vocabulary.hpp"
#include "trained_table.hpp"

namespace lumen::train {

W2VModel parse_w2v_model(std::string_view name) {
  if (name == "skipgram" || name == "sg" || name == "skip-gram") return W2VModel::skipgram;
  if (name == "cbow") return W2VModel::cbow;
  throw UsageError(fmt::format("unknown word2vec model '{}' (expected skipgram or cbow)", name));
}

std::string_view w2v_model_name(W2VModel m) { return m == W2VModel::skipgram ? "skipgram" : "cbow"; }

namespace {

constexpr std::uint64_t kStart = std::numeric_limits<std::uint64_t>::max();  // "at the start of my range"
constexpr std::string_view kMagic{"LUMEN-W2V-CKPT\0\x01", 16};
constexpr int kSigmoidTable = 512;
constexpr float kMaxSigmoid = 8.0f;
constexpr int kLogTable = 512;

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The seed of one sentence's random stream: a function of where the sentence is, not of what ran before.
std::uint64_t sentence_seed(std::uint64_t seed, std::uint64_t thread, std::uint64_t epoch, std::uint64_t sentence) {
  return mix(mix(mix(mix(seed) ^ thread) ^ epoch) ^ sentence);
}

struct ThreadPos {
  std::uint64_t epoch = 0, offset = kStart, sentence = 0;
  bool done = false;
};

// The checkpoint's field lists (save and load walk the same ones). `io`: CheckpointWriter or CheckpointReader.
template <class O, class IO>
void option_fields(O& o, IO& io) {
  io.field(o.model, 2);
  io.fields(o.dim, o.window, o.negative, o.epochs, o.lr, o.sample, o.seed, o.tokenizer.lower, o.tokenizer.split_punct);
}

template <class P, class IO>
void position_fields(P& p, IO& io) {
  io.fields(p.epoch, p.offset, p.sentence, p.done);
}

}  // namespace

struct Word2Vec::State {
  const Corpus* corpus = nullptr;
  Vocab vocab;
  Word2VecOptions o;
  Matrix E, Eout;  // E (V,d), E_out (V,d)
  std::vector<ThreadPos> pos;
  std::atomic<std::uint64_t> words_done{0};
  std::uint64_t words_per_epoch = 0;
  std::vector<float> keep;
  std::vector<std::int32_t> negatives;  // unigram^0.75, shuffled
  std::unordered_map<std::string, std::int32_t, StringHash, std::equal_to<>> ids;
  float sigmoid[kSigmoidTable + 1];
  float log[kLogTable + 1];
  // Per-thread figures for progress reports (written by the thread, read by the monitor).
  std::unique_ptr<std::atomic<double>[]> loss_sum;
  std::unique_ptr<std::atomic<std::uint64_t>[]> loss_n;
  std::unique_ptr<std::atomic<std::uint64_t>[]> epoch_now;
  std::atomic<std::uint64_t> pause_at{kStart};
  const std::atomic<bool>* stop = nullptr;

  void prepare();
  void worker(std::size_t t);
  float lr_now() const {
    const double total = static_cast<double>(o.epochs) * static_cast<double>(words_per_epoch);
    const double done = static_cast<double>(words_done.load(std::memory_order_relaxed));
    return static_cast<float>(o.lr * std::max(1e-4, 1.0 - done / total));
  }
  // Written so that NaN (from NaN weights, e.g. in a resumed checkpoint) takes a branch: indexing with it is UB.
  float sig(float x) const {
    if (!(x > -kMaxSigmoid)) return 0.0f;
    if (x >= kMaxSigmoid) return 1.0f;
    return sigmoid[static_cast<int>((x + kMaxSigmoid) * (kSigmoidTable / kMaxSigmoid / 2))];
  }
  float logf(float x) const {
    if (!(x < 1.0f)) return 0.0f;
    return log[static_cast<int>(x * kLogTable)];
  }
};

void Word2Vec::State::prepare() {
  const std::size_t V = vocab.size();
  if (V < 2)
    throw InputError(OptionText{fmt::format("the vocabulary has {} word(s); word2vec needs at least two "
                                            "(lower {{min_count}} or give more text)",
                                            V),
                                {"min_count"}});
  ids.clear();
  ids.reserve(V);
  words_per_epoch = 0;
  for (std::size_t i = 0; i < V; ++i) {
    ids.emplace(vocab.token(static_cast<Id>(i)), static_cast<std::int32_t>(i));
    words_per_epoch += vocab.count(static_cast<Id>(i));
  }
  if (words_per_epoch == 0) throw InputError("the vocabulary has no counts (build it from the corpus)");
  keep = keep_probabilities(vocab, o.sample);
  // The noise distribution: count^0.75, as a table the threads walk from a random start (fastText's layout:
  // sequential reads from a shuffled table stay in cache better than random ones).
  const std::size_t size = std::clamp<std::size_t>(V * 1000, 1'000'000, 10'000'000);
  double z = 0;
  for (std::size_t i = 0; i < V; ++i) z += std::pow(static_cast<double>(vocab.count(static_cast<Id>(i))), 0.75);
  negatives.clear();
  negatives.reserve(size + V);
  for (std::size_t i = 0; i < V; ++i) {
    const double c = std::pow(static_cast<double>(vocab.count(static_cast<Id>(i))), 0.75) / z;
    const auto n = static_cast<std::size_t>(std::ceil(c * static_cast<double>(size)));
    negatives.insert(negatives.end(), n, static_cast<std::int32_t>(i));
  }
  Rng rng(mix(o.seed ^ 0x6e6567ull));
  for (std::size_t i = negatives.size(); i > 1; --i) std::swap(negatives[i - 1], negatives[rng.below(i)]);
  for (int i = 0; i <= kSigmoidTable; ++i) {
    const double x = static_cast<double>(i) * 2 * kMaxSigmoid / kSigmoidTable - kMaxSigmoid;
    sigmoid[i] = static_cast<float>(1.0 / (1.0 + std::exp(-x)));
  }
  for (int i = 0; i <= kLogTable; ++i)
    log[i] = static_cast<float>(std::log((static_cast<double>(i) + 1e-5) / kLogTable));
  const std::size_t T = pos.size();
  loss_sum = std::make_unique<std::atomic<double>[]>(T);
  loss_n = std::make_unique<std::atomic<std::uint64_t>[]>(T);
  epoch_now = std::make_unique<std::atomic<std::uint64_t>[]>(T);
  for (std::size_t t = 0; t < T; ++t) {
    loss_sum[t] = 0;
    loss_n[t] = 0;
    epoch_now[t] = pos[t].epoch;
  }
}

void Word2Vec::State::worker(std::size_t t) {
  ThreadPos& p = pos[t];
  if (p.done) return;
  const std::size_t T = pos.size(), d = o.dim;
  const std::uint64_t begin = corpus->bytes() * t / T, end = corpus->bytes() * (t + 1) / T;
  const auto dot = lumen::kernels::active().dot_f32;
  const auto add = lumen::kernels::active().add_f32;
  const auto& tk = kernels::active();
  float* const Ein = E.f32_mut().data();
  float* const Eo = Eout.f32_mut().data();
  const std::size_t nneg = negatives.size();
  std::vector<float> grad_buf(d), hidden_buf(d);
  float* grad = grad_buf.data();
  float* hidden = hidden_buf.data();
  std::vector<std::int32_t> sent, kept;
  Sentence s;
  double loss_total = loss_sum[t].load(std::memory_order_relaxed);
  std::uint64_t loss_count = loss_n[t].load(std::memory_order_relaxed);
  std::size_t negpos = 0;

  // One input vector h against the target and `negative` noise words: logistic loss, SGD on E_out, gradient
  // for the input rows collected in grad. Returns the loss.
  auto score = [&](const float* h, std::int32_t target, float lr) {
    float loss = 0;
    float* out = Eo + static_cast<std::size_t>(target) * d;
    float sc = sig(dot(h, out, d));
    tk.pair_update(grad, out, h, lr * (1.0f - sc), d);
    loss -= logf(sc);
    for (std::size_t k = 0; k < o.negative; ++k) {
      std::int32_t neg;
      do {
        neg = negatives[negpos];
        if (++negpos == nneg) negpos = 0;
      } while (neg == target);
      out = Eo + static_cast<std::size_t>(neg) * d;
      sc = sig(dot(h, out, d));
      tk.pair_update(grad, out, h, -lr * sc, d);
      loss -= logf(1.0f - sc);
    }
    return loss;
  };

  while (p.epoch < o.epochs) {
    const bool aligned = p.offset != kStart;
    CorpusReader reader(*corpus, text::WordSplitter(o.tokenizer), aligned ? p.offset : begin, end, aligned);
    while (reader.next_sentence(s)) {
      sent.clear();
      for (std::size_t i = 0; i < s.size(); ++i) {
        auto it = ids.find(s[i]);
        if (it != ids.end()) sent.push_back(it->second);
      }
      Rng rng(sentence_seed(o.seed, t, p.epoch, p.sentence));
      kept.clear();
      for (auto id : sent)
        if (keep[static_cast<std::size_t>(id)] >= 1.0f || rng.uniform() < keep[static_cast<std::size_t>(id)])
          kept.push_back(id);
      const float lr = lr_now();
      negpos = static_cast<std::size_t>(rng.below(nneg));
      const std::size_t n = kept.size();
      const auto W = static_cast<std::ptrdiff_t>(o.window);
      for (std::size_t i = 0; i < n; ++i) {
        const auto b = static_cast<std::ptrdiff_t>(1 + rng.below(static_cast<std::uint64_t>(W)));
        const auto lo = static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, static_cast<std::ptrdiff_t>(i) - b));
        const std::size_t hi = std::min(n - 1, i + static_cast<std::size_t>(b));
        if (o.model == W2VModel::skipgram) {
          // Skip-gram: the centre word's row predicts each context word (fastText's orientation).
          float* h = Ein + static_cast<std::size_t>(kept[i]) * d;
          for (std::size_t c = lo; c <= hi; ++c) {
            if (c == i) continue;
            std::memset(grad, 0, d * sizeof(float));
            loss_total += score(h, kept[c], lr);
            ++loss_count;
            add(h, grad, d);
          }
        } else {
          // CBOW: the mean of the context rows predicts the centre word; each context row gets the gradient.
          std::memset(hidden, 0, d * sizeof(float));
          std::size_t cnt = 0;
          for (std::size_t c = lo; c <= hi; ++c) {
            if (c == i) continue;
            add(hidden, Ein + static_cast<std::size_t>(kept[c]) * d, d);
            ++cnt;
          }
          if (cnt == 0) continue;
          tk.scale(hidden, 1.0f / static_cast<float>(cnt), d);
          std::memset(grad, 0, d * sizeof(float));
          loss_total += score(hidden, kept[i], lr);
          ++loss_count;
          for (std::size_t c = lo; c <= hi; ++c)
            if (c != i) add(Ein + static_cast<std::size_t>(kept[c]) * d, grad, d);
        }
      }
      p.offset = reader.position();
      ++p.sentence;
      const auto done = words_done.fetch_add(sent.size(), std::memory_order_relaxed) + sent.size();
      loss_sum[t].store(loss_total, std::memory_order_relaxed);
      loss_n[t].store(loss_count, std::memory_order_relaxed);
      if ((stop && stop->load(std::memory_order_relaxed)) || done >= pause_at.load(std::memory_order_relaxed)) return;
    }
    ++p.epoch;
    p.offset = kStart;
    p.sentence = 0;
    epoch_now[t].store(p.epoch, std::memory_order_relaxed);
  }
  p.done = true;
}

Word2Vec::Word2Vec(std::unique_ptr<State> s) : s_(std::move(s)) {}
Word2Vec::~Word2Vec() = default;
Word2Vec::Word2Vec(Word2Vec&&) noexcept = default;
Word2Vec& Word2Vec::operator=(Word2Vec&&) noexcept = default;

Matrix Word2Vec::init_input(std::size_t V, std::size_t d, std::uint64_t seed) {
  Matrix E(V, d);
  Rng rng(seed);
  // fastText's range, twice word2vec's +-0.5/d: on the Brown benchmark it scores WordSim-353 ~0.03 higher.
  const float scale = 2.0f / static_cast<float>(d);
  for (auto& x : E.f32_mut()) x = (static_cast<float>(rng.uniform()) - 0.5f) * scale;
  return E;
}

namespace {
void check_options(const Word2VecOptions& o) {
  if (o.dim == 0 || o.dim > 100000)
    throw OptionError("dim", fmt::format("{{option}} must be in 1..100000 (got {})", o.dim));
  if (o.window == 0) throw OptionError("window", "{option} must be at least 1");
  if (o.negative == 0 || o.negative > 1000) throw OptionError("negative", "{option} must be in 1..1000");
  if (o.epochs == 0) throw OptionError("epochs", "{option} must be at least 1");
  if (!(o.lr > 0) || !std::isfinite(o.lr))
    throw OptionError("lr", fmt::format("{{option}} must be positive (got {})", o.lr));
  if (!(o.sample >= 0) || !std::isfinite(o.sample)) throw OptionError("sample", "{option} must be >= 0");
}
}  // namespace

Word2Vec::Word2Vec(const Corpus& corpus, Vocab vocab, const Word2VecOptions& options) : s_(std::make_unique<State>()) {
  auto& s = *s_;
  s.corpus = &corpus;
  s.vocab = std::move(vocab);
  s.o = options;
  if (s.o.lr == 0) s.o.lr = s.o.model == W2VModel::skipgram ? 0.025 : 0.05;
  if (s.o.threads == 0) s.o.threads = default_threads();
  check_options(s.o);
  s.pos.assign(s.o.threads, ThreadPos{});
  s.prepare();
  s.E = init_input(s.vocab.size(), s.o.dim, s.o.seed);
  s.Eout = Matrix(s.vocab.size(), s.o.dim);  // zeros, as word2vec and fastText
}

bool Word2Vec::finished() const {
  return std::all_of(s_->pos.begin(), s_->pos.end(), [](const ThreadPos& p) { return p.done; });
}

bool Word2Vec::train(const TrainControl& control) {
  auto& s = *s_;
  s.stop = control.stop;
  const auto start = std::chrono::steady_clock::now();
  double last_sum = 0;
  std::uint64_t last_n = 0;
  auto report = [&] {
    if (!control.on_progress) return;
    TrainStatus st = status();
    double sum = 0;
    std::uint64_t n = 0;
    for (std::size_t t = 0; t < s.pos.size(); ++t) {
      sum += s.loss_sum[t].load(std::memory_order_relaxed);
      n += s.loss_n[t].load(std::memory_order_relaxed);
    }
    if (n > last_n) st.loss = (sum - last_sum) / static_cast<double>(n - last_n);
    last_sum = sum;
    last_n = n;
    st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    control.on_progress(st);
  };
  while (!finished()) {
    if (control.stop && control.stop->load()) return false;
    s.pause_at = control.checkpoint_every > 0 ? s.words_done.load() + control.checkpoint_every : kStart;
    std::mutex mu;
    std::condition_variable cv;
    std::size_t running = s.pos.size();
    std::exception_ptr error;
    std::vector<std::thread> pool;
    for (std::size_t t = 0; t < s.pos.size(); ++t)
      pool.emplace_back([&, t] {
        try {
          s.worker(t);
        } catch (...) {
          std::lock_guard lock(mu);
          if (!error) error = std::current_exception();
          s.pause_at = 0;  // the others stop at their next sentence
        }
        std::lock_guard lock(mu);
        --running;
        cv.notify_all();
      });
    {
      std::unique_lock lock(mu);
      while (running > 0) {
        cv.wait_for(lock, std::chrono::milliseconds(100));
        lock.unlock();
        report();
        lock.lock();
      }
    }
    for (auto& th : pool) th.join();
    if (error) std::rethrow_exception(error);
    if (finished()) break;
    if (control.stop && control.stop->load()) return false;
    if (control.on_checkpoint) control.on_checkpoint();
  }
  report();
  return true;
}

TrainStatus Word2Vec::status() const {
  TrainStatus st;
  st.words_done = s_->words_done.load();
  st.words_total = static_cast<std::uint64_t>(s_->o.epochs) * s_->words_per_epoch;
  st.lr = s_->lr_now();
  std::uint64_t e = kStart;
  for (std::size_t t = 0; t < s_->pos.size(); ++t) e = std::min<std::uint64_t>(e, s_->epoch_now[t].load());
  st.epoch = static_cast<std::size_t>(std::min<std::uint64_t>(e, s_->o.epochs));
  return st;
}

const Vocab& Word2Vec::vocab() const { return s_->vocab; }
const Word2VecOptions& Word2Vec::options() const { return s_->o; }
const Matrix& Word2Vec::input() const { return s_->E; }
const Matrix& Word2Vec::output() const { return s_->Eout; }

Table Word2Vec::table() const { return trained_table(s_->vocab, s_->E, "lumen train word2vec"); }

void Word2Vec::save_checkpoint(const std::string& path) const {
  const auto& s = *s_;
  CheckpointWriter w(path, kMagic);
  option_fields(s.o, w);
  w.corpus(*s.corpus);
  w.vocab(s.vocab);
  w.field(s.words_done.load());
  w.field(s.pos.size());
  for (std::size_t t = 0; t < s.pos.size(); ++t) {
    position_fields(s.pos[t], w);
    w.field(s.loss_sum[t].load());
    w.field(s.loss_n[t].load());
  }
  w.matrix(s.E);
  w.matrix(s.Eout);
  w.commit();
}

Word2Vec Word2Vec::load_checkpoint(const std::string& path, const Corpus& corpus) {
  CheckpointReader r(path, kMagic);
  auto s = std::make_unique<State>();
  s->corpus = &corpus;
  auto& o = s->o;
  option_fields(o, r);
  try {
    check_options(o);
  } catch (const UsageError& e) {
    r.fail(std::string("bad training options: ") + e.what());
  }
  r.expect_corpus(corpus);
  s->vocab = r.vocab();
  s->words_done = r.u64();
  const auto T = r.u64();
  if (T == 0 || T > 4096) r.fail("bad thread count");
  o.threads = T;
  s->pos.resize(T);
  std::vector<double> ls(T);
  std::vector<std::uint64_t> ln(T);
  for (std::size_t t = 0; t < T; ++t) {
    auto& p = s->pos[t];
    position_fields(p, r);
    r.field(ls[t]);
    r.field(ln[t]);
    if (p.epoch > o.epochs || (p.offset != kStart && p.offset > corpus.bytes())) r.fail("bad thread position");
  }
  s->E = r.matrix();
  s->Eout = r.matrix();
  if (s->E.rows() != s->vocab.size() || s->E.cols() != o.dim || s->Eout.rows() != s->vocab.size() ||
      s->Eout.cols() != o.dim)
    r.fail("table shapes do not match the vocabulary and dimension");
  r.expect_end();
  s->prepare();
  // Progress past the end would drive the linearly decaying learning rate below zero.
  if (s->words_done > static_cast<std::uint64_t>(o.epochs) * s->words_per_epoch)
    r.fail(fmt::format("{} words done of {} in all: not a checkpoint of this corpus", s->words_done.load(),
                       static_cast<std::uint64_t>(o.epochs) * s->words_per_epoch));
  for (std::size_t t = 0; t < T; ++t) {
    s->loss_sum[t] = ls[t];
    s->loss_n[t] = ln[t];
  }
  return Word2Vec(std::move(s));
}

}  // namespace lumen::train
