#include "lumen/nn/embedding.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/kernels.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/core/threads.hpp"
#include "lumen/nn/gather.hpp"

namespace lumen::nn {

namespace {

// Below this many bytes a gather runs on one thread (starting threads costs more than the copy).
constexpr std::size_t kParallelBytes = 1u << 20;
constexpr std::size_t kStreamBytes = 8u << 20;

std::size_t threads_for(std::size_t bytes, std::size_t threads) {
  if (threads == 0) threads = default_threads();
  return bytes < kParallelBytes ? 1 : threads;
}

void check_shape(std::size_t n, std::size_t B, std::size_t T, std::size_t d, std::size_t out_size, const char* what) {
  if (n != B * T) throw UsageError(fmt::format("ids hold {} values, but B x T = {} x {} = {}", n, B, T, B * T));
  if (out_size != n * d)
    throw UsageError(fmt::format("{} holds {} floats, expected B*T*d = {}", what, out_size, n * d));
}

}  // namespace

Embedding::Embedding(std::size_t V, std::size_t d, EmbeddingOptions options)
    : Embedding(Matrix(V, d, DType::f32), options) {}

Embedding::Embedding(Matrix E, EmbeddingOptions options) : options_(options) {
  if (E.rows() == 0 || E.cols() == 0)
    throw UsageError(fmt::format("an embedding needs V > 0 and d > 0 (got {} x {})", E.rows(), E.cols()));
  E_ = E.dtype() == DType::f32 ? std::move(E) : E.to(DType::f32);
  const auto V = static_cast<Id>(E_.rows());
  if (options_.padding_idx) {
    Id p = *options_.padding_idx;
    if (p < -V || p >= V) throw UsageError(fmt::format("padding_idx {} is outside [-{}, {})", p, V, V));
    if (p < 0) p += V;
    options_.padding_idx = p;
    // PyTorch zeroes the padding row at construction; a borrowed table is left as it is (read-only).
    if (E_.owned()) std::fill_n(E_.row_mut(static_cast<std::size_t>(p)).data(), E_.cols(), 0.0f);
  }
  if (options_.max_norm && !(*options_.max_norm > 0.0f))
    throw UsageError(fmt::format("max_norm must be > 0 (got {})", *options_.max_norm));
  scale_ = options_.scale_sqrt_d ? static_cast<float>(std::sqrt(static_cast<double>(E_.cols()))) : 1.0f;
}

void Embedding::init_normal(float std, std::uint64_t seed) {
  if (!(std >= 0.0f)) throw UsageError(fmt::format("init std must be >= 0 (got {})", std));
  Rng rng(seed);
  auto e = E_.f32_mut();
  for (float& x : e) x = static_cast<float>(rng.normal() * static_cast<double>(std));
  if (options_.padding_idx)
    std::fill_n(E_.row_mut(static_cast<std::size_t>(*options_.padding_idx)).data(), E_.cols(), 0.0f);
}

Matrix& Embedding::dE() {
  if (dE_.empty()) dE_ = Matrix(E_.rows(), E_.cols(), DType::f32);
  return dE_;
}

void Embedding::zero_grad() {
  if (!dE_.empty()) std::memset(dE_.mutable_data(), 0, dE_.bytes());
}

void Embedding::check_ids(std::span<const Id> ids) const {
  const auto V = static_cast<Id>(E_.rows());
  for (std::size_t p = 0; p < ids.size(); ++p)
    if (ids[p] < 0 || ids[p] >= V) throw IdError(ids[p], p, V);
}

// PyTorch's embedding_renorm_: each distinct looked-up row with norm > max_norm is scaled by
// max_norm / (norm + 1e-7). The norm is taken in double so the rule does not depend on summation order.
void Embedding::renorm(std::span<const Id> ids) {
  std::vector<Id> unique(ids.begin(), ids.end());
  std::sort(unique.begin(), unique.end());
  unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
  const double max_norm = *options_.max_norm;
  const std::size_t d = E_.cols();
  for (Id id : unique) {
    float* row = E_.row_mut(static_cast<std::size_t>(id)).data();
    double ss = 0.0;
    for (std::size_t j = 0; j < d; ++j) ss += static_cast<double>(row[j]) * row[j];
    const double norm = std::sqrt(ss);
    if (norm > max_norm) {
      const auto scale = static_cast<float>(max_norm / (norm + 1e-7));
      for (std::size_t j = 0; j < d; ++j) row[j] *= scale;
    }
  }
}

void Embedding::forward(std::span<const Id> ids, std::size_t B, std::size_t T, std::span<float> out,
                        std::size_t threads) {
  const std::size_t d = E_.cols(), n = ids.size();
  check_shape(n, B, T, d, out.size(), "out");
  check_ids(ids);  // before anything is written
  if (options_.max_norm) renorm(ids);
  const float* E = E_.f32().data();
  float* Y = out.data();
  const std::size_t bytes = n * d * sizeof(float);
  // An output far larger than the cache is written with non-temporal stores: the next layer reads it
  // from memory anyway, and skipping the read-for-ownership saves a third of the traffic.
  const bool stream = bytes >= kStreamBytes;
  // out (B,T,d): one row copy per position; rows are independent, so any split gives the same bits.
  parallel_for(n, threads_for(bytes, threads), [&](std::size_t b, std::size_t e, std::size_t) {
    gather_rows(Y + b * d, E, ids.data() + b, e - b, d, scale_, stream);
  });
}

Matrix Embedding::forward(std::span<const Id> ids, std::size_t B, std::size_t T, std::size_t threads) {
  Matrix out(ids.size(), E_.cols(), DType::f32);
  forward(ids, B, T, out.f32_mut(), threads);
  return out;
}

void Embedding::backward(std::span<const Id> ids, std::span<const float> dY, std::size_t threads) {
  const std::size_t d = E_.cols(), n = ids.size();
  check_shape(n, n, 1, d, dY.size(), "dY");
  check_ids(ids);
  if (n == 0) return;
  if (n > 0xffffffffu) throw UsageError(fmt::format("backward takes at most 2^32 - 1 positions (got {})", n));
  float* grad = this->dE().f32_mut().data();
  const float* G = dY.data();

  // (id, position) pairs sorted by id then position: a run of equal ids is one row's work, in position order.
  std::vector<std::uint64_t> order(n);
  for (std::size_t p = 0; p < n; ++p) order[p] = (static_cast<std::uint64_t>(ids[p]) << 32) | p;
  std::sort(order.begin(), order.end());
  auto id_of = [&](std::size_t k) { return order[k] >> 32; };
  const auto pad = options_.padding_idx ? static_cast<std::uint64_t>(*options_.padding_idx) : ~std::uint64_t{0};
  const float scale = scale_;

  // Threads split the sorted pairs evenly, then each moves its edges to run boundaries, so every row of
  // dE is owned by exactly one thread: the one whose range holds the row's first position.
  parallel_for(n, threads_for(n * d * sizeof(float), threads), [&](std::size_t b, std::size_t e, std::size_t) {
    while (b > 0 && b < n && id_of(b) == id_of(b - 1)) ++b;
    while (e < n && e > 0 && id_of(e) == id_of(e - 1)) ++e;
    for (std::size_t k = b; k < e; ++k) {
      const std::uint64_t id = id_of(k);
      if (id == pad) continue;
      float* row = grad + id * d;
      const float* g = G + (order[k] & 0xffffffffu) * d;
      if (scale == 1.0f) kernels::add(row, g, d);
      else kernels::axpy(row, scale, g, d);
    }
  });
}

}  // namespace lumen::nn
