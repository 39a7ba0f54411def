#include "lumen/eval/probe.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <fmt/format.h>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <numeric>
#include <thread>

#include "lumen/core/error.hpp"
#include "lumen/core/huge_pages.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/eval/allowed_vocab.hpp"

namespace lumen::eval {

namespace {

void shuffle(std::vector<int>& v, Rng& rng) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(i)]);
}

// Floats for gathered rows, never zeroed: 2 MB-aligned and marked for transparent huge pages (where the kernel
// allows them on request), so that first touching 10 MB takes a few page faults instead of 2,500, which on a VM cost
// more than the copies themselves.
struct FreeRows {
  void operator()(float* p) const { std::free(p); }
};
using Rows = std::unique_ptr<float[], FreeRows>;

Rows gathered_rows(std::size_t count) {
  constexpr std::size_t kHuge = std::size_t{2} << 20;
  const std::size_t bytes = std::max<std::size_t>(count * sizeof(float), 1);
  const std::size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge;
  void* p = std::aligned_alloc(kHuge, rounded);
  if (!p) throw std::bad_alloc();
  advise_huge_pages(p, rounded);
  return Rows(static_cast<float*>(p));
}

double mean(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

double stddev(const std::vector<double>& v) {  // population (ddof = 0), as numpy.std
  const double m = mean(v);
  double s = 0.0;
  for (const double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size()));
}

}  // namespace

std::vector<int> stratified_folds(const std::vector<int>& y, std::size_t folds, std::uint64_t seed) {
  if (folds < 2) throw UsageError(fmt::format("cross-validation needs at least 2 folds, got {}", folds));
  Rng rng(seed);
  const int K = y.empty() ? 0 : *std::max_element(y.begin(), y.end()) + 1;
  std::vector<int> fold(y.size());
  std::size_t next = 0;  // continue dealing where the previous class stopped, so the folds stay even
  for (int k = 0; k < K; ++k) {
    std::vector<int> members;
    for (std::size_t i = 0; i < y.size(); ++i)
      if (y[i] == k) members.push_back(static_cast<int>(i));
    shuffle(members, rng);
    for (const int i : members) fold[static_cast<std::size_t>(i)] = static_cast<int>(next++ % folds);
  }
  return fold;
}

namespace {

// cross_validate on X (y.size(), d), sizes already checked; fold_done (if set) after each fold's fit.
CrossValidation cross_validate_rows(const float* X, const std::vector<int>& y, std::size_t d, std::size_t K,
                                    const std::vector<int>& fold, std::size_t folds, const LogisticOptions& options,
                                    const std::function<void()>& fold_done = {}) {
  const std::size_t n = y.size();
  CrossValidation cv;
  LogisticModel previous;
  // One buffer for each side, filled again for every fold and never zeroed first: fresh or zeroed ones per fold
  // cost more in page faults (tens of thousands over a probe) and memset than the fits' own passes over the rows.
  std::vector<std::size_t> fold_size(std::max<std::size_t>(folds, 1), 0);
  for (const int f : fold)
    if (f >= 0 && static_cast<std::size_t>(f) < folds) ++fold_size[static_cast<std::size_t>(f)];
  const Rows train_x = gathered_rows(n * d);
  const Rows test_x = gathered_rows(*std::max_element(fold_size.begin(), fold_size.end()) * d);
  std::vector<int> train_y, test_y;
  train_y.reserve(n);
  test_y.reserve(n);
  for (std::size_t f = 0; f < folds; ++f) {
    train_y.clear();
    test_y.clear();
    for (std::size_t i = 0; i < n; ++i) {
      const bool test = fold[i] == static_cast<int>(f);
      auto& ys = test ? test_y : train_y;
      std::copy_n(X + i * d, d, (test ? test_x : train_x).get() + ys.size() * d);
      ys.push_back(y[i]);
    }
    if (test_y.empty() || train_y.empty())
      throw InputError(
          fmt::format("cross-validation: fold {} of {} is empty (too few words for the folds)", f + 1, folds));
    const LogisticModel m =
        fit_logistic(train_x.get(), train_y.data(), train_y.size(), d, K, options, f > 0 ? &previous : nullptr);
    cv.iterations = std::max(cv.iterations, m.iterations);
    cv.converged = cv.converged && m.converged;
    const std::vector<int> predicted = m.predict(test_x.get(), test_y.size());
    std::size_t right = 0;
    for (std::size_t i = 0; i < test_y.size(); ++i) right += predicted[i] == test_y[i];
    cv.accuracy.push_back(static_cast<double>(right) / static_cast<double>(test_y.size()));
    std::vector<std::size_t> count(K, 0);
    for (const int c : train_y) ++count[static_cast<std::size_t>(c)];
    const auto major = static_cast<int>(std::max_element(count.begin(), count.end()) - count.begin());
    cv.majority.push_back(static_cast<double>(std::count(test_y.begin(), test_y.end(), major)) /
                          static_cast<double>(test_y.size()));
    previous = m;
    if (fold_done) fold_done();
  }
  return cv;
}

}  // namespace

CrossValidation cross_validate(const std::vector<float>& X, const std::vector<int>& y, std::size_t d, std::size_t K,
                               const std::vector<int>& fold, std::size_t folds, const LogisticOptions& options) {
  if (X.size() != y.size() * d || fold.size() != y.size())
    throw InputError("cross-validation: X, y and folds disagree in size");
  return cross_validate_rows(X.data(), y, d, K, fold, folds, options);
}

namespace {

using FoundWord = std::pair<Id, const LabelledWord*>;

// The label set's words found in the table (exactly, else case-folded); the rest go to r.missing. r.classes: the
// label set's classes, in its order, that kept a word.
std::vector<FoundWord> find_labelled_words(const Table& table, const LabelSet& labels, const ProbeOptions& options,
                                           ProbeResult& r) {
  const AllowedVocab folded(table.vocab, 0, true);
  std::vector<std::string> present_classes;
  std::vector<FoundWord> found;
  for (const auto& w : labels.words) {
    auto id = table.vocab.find(w.word);
    if (!id) id = folded.find(w.word);
    if (!id) {
      r.missing.push_back(w.word);
      continue;
    }
    found.emplace_back(*id, &w);
    if (std::find(present_classes.begin(), present_classes.end(), w.label) == present_classes.end())
      present_classes.push_back(w.label);
  }
  for (const auto& c : labels.classes)
    if (std::find(present_classes.begin(), present_classes.end(), c) != present_classes.end()) r.classes.push_back(c);
  if (found.size() < options.folds || r.classes.size() < 2)
    throw InputError(
        fmt::format("{}: {} of its {} words are in the table ({}), with {} class(es): a probe needs at least "
                    "{} words (one per fold) and two classes",
                    labels.name, found.size(), labels.words.size(), table.source, r.classes.size(), options.folds));
  return found;
}

int class_index(const ProbeResult& r, const std::string& label) {
  return static_cast<int>(std::find(r.classes.begin(), r.classes.end(), label) - r.classes.begin());
}

// A class with fewer words than folds is missing from some test folds: its accuracy there means nothing
// (500 two-word classes gave 0.0000). Named, the first few, so the label file can be fixed.
void refuse_thin_classes(const std::vector<FoundWord>& found, const LabelSet& labels, std::size_t folds,
                         const ProbeResult& r) {
  std::vector<std::size_t> per_class(r.classes.size(), 0);
  for (const auto& f : found) ++per_class[static_cast<std::size_t>(class_index(r, f.second->label))];
  std::vector<std::string> thin;
  for (std::size_t c = 0; c < r.classes.size(); ++c)
    if (per_class[c] < folds) thin.push_back(fmt::format("'{}' ({})", r.classes[c], per_class[c]));
  if (thin.empty()) return;
  const std::size_t shown = std::min<std::size_t>(thin.size(), 5);
  std::string names;
  for (std::size_t i = 0; i < shown; ++i) names += (i == 0 ? "" : ", ") + thin[i];
  if (thin.size() > shown) names += fmt::format(", and {} more", thin.size() - shown);
  throw InputError(fmt::format(
      "{}: {} of its {} classes have fewer words in the table than the {} folds, so some folds could not test "
      "them: {}; give each class at least {} words, drop those classes, or use fewer folds",
      labels.name, thin.size(), r.classes.size(), folds, names, folds));
}

// The probe's and the control task's cross-validations. Progress in fits, 2 x folds of them (a fit of thousands of
// classes can take many seconds): the two chains may run on two threads, so the count and the callback are
// behind one lock.
void cross_validate_both(const float* X, std::size_t d, const ProbeOptions& options, ProbeResult& r) {
  const std::size_t K = r.classes.size();
  std::mutex progress_lock;
  std::size_t fits_done = 0;
  auto fit_done = [&](const char* stage) -> std::function<void()> {
    if (!options.progress) return {};
    return [&, stage] {
      const std::lock_guard<std::mutex> lock(progress_lock);
      options.progress(stage, ++fits_done, 2 * options.folds);
    };
  };
  if (options.progress) options.progress("probe", 0, 2 * options.folds);
  const std::size_t threads = options.logistic.threads > 0 ? options.logistic.threads : default_threads();
  if (threads < 2) {
    r.probe = cross_validate_rows(X, r.labels, d, K, r.fold, options.folds, options.logistic, fit_done("probe"));
    r.control =
        cross_validate_rows(X, r.control_labels, d, K, r.fold, options.folds, options.logistic, fit_done("control"));
    return;
  }
  // The probe and the control task are independent chains of fits (each fold starts from the last): one thread
  // each (a fit is single-threaded: its objective is one fused pass over the rows).
  LogisticOptions one = options.logistic;
  one.threads = 1;
  std::exception_ptr failed;
  std::thread control([&] {
    try {
      r.control = cross_validate_rows(X, r.control_labels, d, K, r.fold, options.folds, one, fit_done("control"));
    } catch (...) {
      failed = std::current_exception();
    }
  });
  try {
    r.probe = cross_validate_rows(X, r.labels, d, K, r.fold, options.folds, one, fit_done("probe"));
  } catch (...) {
    control.join();
    throw;
  }
  control.join();
  if (failed) std::rethrow_exception(failed);
}

}  // namespace

ProbeResult run_probe(const Table& table, const LabelSet& labels, const ProbeOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  if (options.folds < 2) throw UsageError(fmt::format("a probe needs at least 2 folds, got {}", options.folds));
  ProbeResult r;
  r.folds = options.folds;
  r.C = options.logistic.C;
  r.tol = options.logistic.tol;
  const std::vector<FoundWord> found = find_labelled_words(table, labels, options, r);
  refuse_thin_classes(found, labels, options.folds, r);
  const std::size_t n = found.size(), d = table.d();
  const Rows X = gathered_rows(n * d);  // (n, d): the found words' rows
  for (std::size_t i = 0; i < n; ++i) {
    const auto& [id, w] = found[i];
    r.words.push_back(w->word);
    r.rows.push_back(id);
    r.labels.push_back(class_index(r, w->label));
    table.E.row_f32(static_cast<std::size_t>(id), X.get() + i * d);
  }
  r.fold = stratified_folds(r.labels, options.folds, options.seed);
  // The control task: the same words, their labels shuffled across word types (same class sizes).
  r.control_labels = r.labels;
  Rng rng(options.seed ^ 0x636f6e74726f6cull);  // "control"
  for (std::size_t i = n; i > 1; --i) std::swap(r.control_labels[i - 1], r.control_labels[rng.below(i)]);
  cross_validate_both(X.get(), d, options, r);
  r.accuracy = mean(r.probe.accuracy);
  r.accuracy_std = stddev(r.probe.accuracy);
  r.control_accuracy = mean(r.control.accuracy);
  r.control_std = stddev(r.control.accuracy);
  r.majority = mean(r.probe.majority);
  r.selectivity = r.accuracy - r.control_accuracy;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace lumen::eval
