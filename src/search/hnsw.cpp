#include "lumen/search/hnsw.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
// hnswlib 0.6.2's SSE path prefetches through a read one element past a link list (AddressSanitizer:
// heap-buffer-overflow in searchBaseLayer); without it the graph code is plain C++, and the distances come from
// lumen's own run-time-dispatched kernels (KernelSpace below) rather than hnswlib's compile-time SSE ones.
#define NO_MANUAL_VECTORIZATION
#include <hnswlib/hnswlib.h>
#include <mutex>
#include <vector>

#include "lumen/core/atomic_file.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/read_file.hpp"
#include "lumen/search/scan.hpp"
#include "topk.hpp"

namespace lumen::search {

struct HnswIndex::Impl {
  std::unique_ptr<hnswlib::SpaceInterface<float>> space;
  std::unique_ptr<hnswlib::HierarchicalNSW<float>> graph;
  mutable std::mutex mu;  // hnswlib's search breadth (ef_) is a member: set it under the lock
};

namespace {

// hnswlib's distances with the scan kernels: 1 - q.r (as hnswlib's InnerProductSpace; cosine on unit rows) or
// |q - r|^2 (as its L2Space).
class KernelSpace final : public hnswlib::SpaceInterface<float> {
 public:
  KernelSpace(Metric m, std::size_t d) : param_{d, &scan_kernels()}, l2_(m == Metric::euclidean) {}
  std::size_t get_data_size() override { return param_.d * sizeof(float); }
  hnswlib::DISTFUNC<float> get_dist_func() override { return l2_ ? &l2 : &inner; }
  void* get_dist_func_param() override { return &param_; }

 private:
  struct Param {
    std::size_t d;
    const ScanKernels* k;
  };
  static float inner(const void* a, const void* b, const void* p) {
    const auto& q = *static_cast<const Param*>(p);
    float dot = 0.0f;
    q.k->dots_f32(static_cast<const float*>(a), static_cast<const float*>(b), 1, q.d, &dot);
    return 1.0f - dot;
  }
  static float l2(const void* a, const void* b, const void* p) {
    const auto& q = *static_cast<const Param*>(p);
    float d2 = 0.0f;
    q.k->l2sq_f32(static_cast<const float*>(a), static_cast<const float*>(b), 1, q.d, &d2);
    return d2;
  }
  Param param_;
  bool l2_;
};

std::unique_ptr<hnswlib::SpaceInterface<float>> make_space(Metric m, std::size_t d) {
  return std::make_unique<KernelSpace>(m, d);
}

// The vector the graph stores for row r: the row, or the unit row for cosine.
std::vector<float> stored_vector(const Searcher& s, Metric m, Id r) {
  return m == Metric::cosine ? s.unit_row(r) : s.row(r);
}

// hnswlib trusts its files (a bad one makes it free uninitialised memory): walk the layout saveIndex() writes
// first, so a truncated or foreign file is a ParseError with a byte offset, never a crash.
void check_layout(const std::string& path) {
  require_regular_file(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError(fmt::format("{}: cannot open", path));
  in.seekg(0, std::ios::end);
  const auto total = static_cast<std::uint64_t>(in.tellg());
  in.seekg(0);
  std::uint64_t at = 0;
  auto read = [&](auto& v, const char* what) {
    in.read(reinterpret_cast<char*>(&v), sizeof v);
    if (!in) throw ParseError(path, 0, at, fmt::format("not an HNSW index: file ends in its header ({})", what));
    at += sizeof v;
  };
  std::size_t offset0, max_elements, count, per_element, label_offset, offset_data, maxM, maxM0, M, efc;
  int maxlevel;
  unsigned enterpoint;
  double mult;
  read(offset0, "offsetLevel0");
  read(max_elements, "max_elements");
  read(count, "element count");
  read(per_element, "bytes per element");
  read(label_offset, "label offset");
  read(offset_data, "data offset");
  read(maxlevel, "max level");
  read(enterpoint, "entry point");
  read(maxM, "maxM");
  read(maxM0, "maxM0");
  read(M, "M");
  read(mult, "mult");
  read(efc, "ef_construction");
  const std::uint64_t header = at;
  // max_elements == count: lumen saves full graphs, and hnswlib allocates max_elements slots on load (a huge
  // claimed capacity must fail here, not in the allocator).
  const bool sane = offset0 == 0 && count == max_elements && count > 0 && count < (1ull << 32) && maxM0 >= 1 &&
                    maxM0 <= 20000 && maxM >= 1 && maxM <= 10000 && offset_data == maxM0 * 4 + 4 &&
                    label_offset > offset_data && per_element == label_offset + 8 && per_element < (1u << 30) &&
                    maxlevel >= 0 && maxlevel < 64 && enterpoint < count;
  if (!sane) throw ParseError(path, 0, 0, "not an HNSW index saved by lumen (inconsistent header)");
  if (count > (total - header) / per_element)
    throw ParseError(path, 0, header, fmt::format("HNSW index truncated: {} elements do not fit", count));
  // hnswlib follows links without checking them: every neighbour id must name an element, every label a row,
  // and a link on level l must lead to an element that has level l (else the search reads past its lists).
  std::vector<std::uint32_t> list(std::max(maxM0, maxM) + 1);
  auto read_list = [&](std::uint64_t at_, std::size_t max_links, std::size_t element, std::size_t level) {
    in.seekg(static_cast<std::streamoff>(at_));
    in.read(reinterpret_cast<char*>(list.data()), static_cast<std::streamsize>((max_links + 1) * 4));
    if (!in) throw ParseError(path, 0, at_, fmt::format("HNSW index truncated in the links of element {}", element));
    const std::size_t n = list[0] & 0xffffu;  // hnswlib's list size is the low 16 bits
    if (n > max_links)
      throw ParseError(
          path, 0, at_,
          fmt::format("HNSW index: element {} has {} links on level {} (at most {})", element, n, level, max_links));
    return n;
  };
  // Pass 1: every element's level (from its upper-level block size) and label.
  std::vector<std::uint8_t> level(count);
  std::vector<std::uint64_t> upper(count);  // where each element's upper-level lists start
  std::uint64_t pos = header + count * per_element;
  const std::uint64_t per_level = maxM * 4 + 4;
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t label = 0;
    in.seekg(static_cast<std::streamoff>(header + i * per_element + label_offset));
    in.read(reinterpret_cast<char*>(&label), sizeof label);
    if (!in || label >= count)
      throw ParseError(path, 0, header + i * per_element + label_offset,
                       fmt::format("HNSW index: element {} has label {} (the index has {} rows)", i, label, count));
    unsigned size = 0;
    in.seekg(static_cast<std::streamoff>(pos));
    in.read(reinterpret_cast<char*>(&size), sizeof size);
    if (!in) throw ParseError(path, 0, pos, fmt::format("HNSW index truncated in the links of element {}", i));
    if (size % per_level != 0 || size / per_level > static_cast<unsigned>(maxlevel))
      throw ParseError(path, 0, pos, fmt::format("HNSW index: bad link list size {} for element {}", size, i));
    level[i] = static_cast<std::uint8_t>(size / per_level);
    upper[i] = pos + 4;
    pos += 4 + size;
  }
  if (pos != total) throw ParseError(path, 0, pos, "HNSW index: unexpected bytes after the last element");
  if (level[enterpoint] != maxlevel)
    throw ParseError(path, 0, 0, fmt::format("HNSW index: the entry point {} is not on the top level", enterpoint));
  // Pass 2: the links themselves.
  for (std::size_t i = 0; i < count; ++i) {
    for (std::size_t l = 0; l <= level[i]; ++l) {
      const std::uint64_t at_ = l == 0 ? header + i * per_element : upper[i] + (l - 1) * per_level;
      const std::size_t n = read_list(at_, l == 0 ? maxM0 : maxM, i, l);
      for (std::size_t j = 0; j < n; ++j)
        if (list[j + 1] >= count || level[list[j + 1]] < l)
          throw ParseError(path, 0, at_ + 4 * (j + 1),
                           fmt::format("HNSW index: element {} links to {} on level {}", i, list[j + 1], l));
    }
  }
}

std::size_t indexed_rows(const Searcher& s, std::size_t rows) { return rows == 0 ? s.V() : std::min(rows, s.V()); }

}  // namespace

HnswIndex::HnswIndex(const Searcher& s, Metric m, std::unique_ptr<Impl> impl)
    : searcher_(&s), metric_(m), impl_(std::move(impl)) {}
HnswIndex::HnswIndex(HnswIndex&&) noexcept = default;
HnswIndex& HnswIndex::operator=(HnswIndex&&) noexcept = default;
HnswIndex::~HnswIndex() = default;

std::size_t HnswIndex::size() const { return impl_->graph->cur_element_count; }

HnswIndex HnswIndex::build(const Searcher& s, Metric m, std::size_t rows, const HnswOptions& o) {
  const std::size_t n = indexed_rows(s, rows);
  if (n == 0) throw InputError("cannot index an empty table");
  if (o.M < 2 || o.M > 10000) throw UsageError("HNSW M must be in [2, 10000]");
  auto impl = std::make_unique<Impl>();
  impl->space = make_space(m, s.d());
  impl->graph = std::make_unique<hnswlib::HierarchicalNSW<float>>(impl->space.get(), n, o.M, o.ef_construction, o.seed);
  // Inserted one at a time: concurrent addPoint in Debian's hnswlib overflows a heap buffer in
  // searchBaseLayer under AddressSanitizer (Hnsw.* tests), so the build stays single-threaded.
  for (std::size_t i = 0; i < n; ++i) {
    const Id r = static_cast<Id>(i);
    impl->graph->addPoint(stored_vector(s, m, r).data(), static_cast<hnswlib::labeltype>(r));
    if (o.on_progress && ((i & 255) == 0 || i + 1 == n)) o.on_progress("HNSW index", i + 1, n);
  }
  return HnswIndex(s, m, std::move(impl));
}

HnswIndex HnswIndex::load(const std::string& path, const Searcher& s, Metric m, std::size_t rows) {
  const std::size_t n = indexed_rows(s, rows);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw IoError(fmt::format("{}: no such index file", path));
  check_layout(path);
  auto impl = std::make_unique<Impl>();
  impl->space = make_space(m, s.d());
  impl->graph = std::make_unique<hnswlib::HierarchicalNSW<float>>(impl->space.get());
  try {
    impl->graph->loadIndex(path, impl->space.get());
  } catch (const std::exception& e) {
    // A half-loaded graph cannot be destroyed safely (hnswlib frees members it never set): leak it.
    (void)impl->graph.release();
    throw ParseError(path, 0, 0, fmt::format("not an HNSW index ({})", e.what()));
  }
  auto& g = *impl->graph;
  if (g.label_offset_ - g.offsetData_ != s.d() * sizeof(float))
    throw InputError(fmt::format("{}: index vectors have {} dimensions, the table has d = {}", path,
                                 (g.label_offset_ - g.offsetData_) / sizeof(float), s.d()));
  if (g.cur_element_count != n)
    throw InputError(fmt::format("{}: index has {} rows, the table (restricted) has {}", path, g.cur_element_count, n));
  // The stored vectors must be this table's rows (unit rows for cosine): check a few.
  for (std::size_t r : {std::size_t{0}, n / 2, n - 1}) {
    const auto want = stored_vector(s, m, static_cast<Id>(r));
    const auto it = g.label_lookup_.find(r);
    if (it == g.label_lookup_.end()) throw InputError(fmt::format("{}: index lacks row {}", path, r));
    const float* got = reinterpret_cast<const float*>(g.getDataByInternalId(it->second));
    for (std::size_t i = 0; i < want.size(); ++i)
      if (std::fabs(got[i] - want[i]) > 1e-6f * (1.0f + std::fabs(want[i])))
        throw InputError(OptionText{fmt::format("{}: index was built for another table or metric (row {} differs; "
                                                "rebuild it for {{metric}} {})",
                                                path, r, metric_name(m)),
                                    {"metric"}});
  }
  return HnswIndex(s, m, std::move(impl));
}

void HnswIndex::save(const std::string& path) const {
  // hnswlib writes to a path itself: let it write a scratch file, then copy it through AtomicFile.
  const std::string scratch = path + ".hnswlib-scratch";
  try {
    impl_->graph->saveIndex(scratch);
    std::ifstream in(scratch, std::ios::binary);
    if (!in) throw IoError(fmt::format("{}: cannot write the index", path));
    AtomicFile out(path);
    std::vector<char> buf(1 << 20);
    while (in) {
      in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
      if (in.gcount() > 0) out.write(buf.data(), static_cast<std::size_t>(in.gcount()));
    }
    out.commit();
  } catch (...) {
    std::remove(scratch.c_str());
    throw;
  }
  std::remove(scratch.c_str());
}

std::vector<Neighbour> HnswIndex::search(std::span<const float> q, std::size_t k, const std::vector<Id>& exclude,
                                         std::size_t ef) const {
  if (k == 0) throw UsageError("k must be at least 1");
  if (q.size() != searcher_->d())
    throw InputError(fmt::format("query has {} dimensions, the table has d = {}", q.size(), searcher_->d()));
  std::vector<float> v(q.begin(), q.end());
  if (metric_ == Metric::cosine) {
    double n2 = 0;
    for (float x : v) n2 += static_cast<double>(x) * x;
    if (n2 > 0)
      for (float& x : v) x = static_cast<float>(x / std::sqrt(n2));
  }
  // Never more than the graph holds: a k beyond it asks for every row (and 2 k must not overflow).
  const std::size_t want = std::min(k, size()) + std::min(exclude.size(), size());
  std::priority_queue<std::pair<float, hnswlib::labeltype>> found;
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    impl_->graph->setEf(std::max(ef == 0 ? std::max<std::size_t>(64, 2 * want) : ef, want));
    found = impl_->graph->searchKnn(v.data(), want);
  }
  std::vector<detail::Entry> all;
  while (!found.empty()) {
    const Id id = static_cast<Id>(found.top().second);
    found.pop();
    if (std::find(exclude.begin(), exclude.end(), id) != exclude.end()) continue;
    const float score = searcher_->score(q, id, metric_);
    all.push_back({rank_key(metric_, score), score, id});
  }
  return detail::best(std::move(all), k);
}

}  // namespace lumen::search
