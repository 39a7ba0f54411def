#pragma once
// A linear probe: can a multinomial logistic regression read a label off the rows of a table? Scored by k-fold
// cross-validation split by word (no word is both trained and tested on), against the majority baseline and a
// control task (Hewitt & Liang 2019): the same words with their labels shuffled across word types. A probe that
// scores well on the control only memorises; selectivity = accuracy − control accuracy says how much it reads.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lumen/core/progress.hpp"
#include "lumen/core/table.hpp"
#include "lumen/eval/label_set.hpp"
#include "lumen/eval/logistic.hpp"

namespace lumen::eval {

struct ProbeOptions {
  std::size_t folds = 5;
  LogisticOptions logistic;  // C, iterations, tolerance, threads
  std::uint64_t seed = 1;    // the folds and the control task's shuffle
  // (stage, done, total): stage "probe" or "control" (the chain whose fit just ended), counted in fits over
  // both chains (total 2 x folds). The probe and control chains may run on two threads; calls never overlap.
  ProgressFn progress;
};

// Accuracy per fold of k-fold cross-validation with the given folds: fold[i] in [0, folds) is the fold row i is
// tested in. X (n, d) row-major, y (n) in [0, K). Each fold's model starts from the previous fold's (a warm start:
// the same optimum, reached sooner).
struct CrossValidation {
  std::vector<double> accuracy;  // (folds)
  std::vector<double> majority;  // (folds): predicting the training part's most frequent class
  std::size_t iterations = 0;    // the most L-BFGS iterations a fold took
  bool converged = true;         // every fold's fit converged
};
CrossValidation cross_validate(const std::vector<float>& X, const std::vector<int>& y, std::size_t d, std::size_t K,
                               const std::vector<int>& fold, std::size_t folds, const LogisticOptions& options);

// Folds stratified by label: each class's rows shuffled with lumen::Rng(seed), then dealt to the folds in turn.
std::vector<int> stratified_folds(const std::vector<int>& y, std::size_t folds, std::uint64_t seed);

struct ProbeResult {
  std::vector<std::string> classes;
  std::vector<std::string> words;    // the words probed (in the table), in label-set order
  std::vector<Id> rows;              // their rows
  std::vector<int> labels;           // (words) class index
  std::vector<int> control_labels;   // (words) the control task's labels
  std::vector<int> fold;             // (words) the fold each word is tested in
  std::vector<std::string> missing;  // label-set words not in the table (skipped)
  std::size_t folds = 0;
  double C = 0, tol = 0;  // the fits' inverse L2 strength and stopping tolerance
  CrossValidation probe, control;
  double accuracy = 0, accuracy_std = 0;  // mean and standard deviation over folds
  double control_accuracy = 0, control_std = 0;
  double majority = 0;     // mean majority-baseline accuracy over folds
  double selectivity = 0;  // accuracy − control_accuracy
  double seconds = 0;
};

// Looks each word up in the table (exactly, else case-insensitively with the first casing winning, as the
// benchmarks do); words not found are skipped and listed. InputError when fewer than `folds` words or fewer than
// two classes remain; UsageError for folds < 2.
ProbeResult run_probe(const Table& table, const LabelSet& labels, const ProbeOptions& options);

}  // namespace lumen::eval
