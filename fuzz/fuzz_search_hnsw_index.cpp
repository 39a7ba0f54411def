// libFuzzer target: `lumen neighbours --approx --index FILE`, an HNSW index file. A valid index of a small
// random table is saved once at start-up; each input damages it: byte 0 picks the metric it is loaded for,
// bytes 1-2 (little-endian) cut that many bytes off its end (modulo its size + 1), and each further 3 bytes
// (offset: 2 bytes, value: 1) overwrite one byte. Loading must succeed or throw lumen::InputError; an index that
// loads must answer a query with rows of the table. (hnswlib trusts its files: lumen checks them first.)
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "fuzz_damage.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/search/hnsw.hpp"

namespace {

namespace fs = std::filesystem;
using namespace lumen;
using namespace lumen::search;

struct World {
  fs::path file = fs::temp_directory_path() / ("lumen-fuzz-hnsw-" + std::to_string(::getpid()));
  Table table;
  std::unique_ptr<Searcher> searcher;
  std::string bytes;  // the valid index

  World() {
    Matrix E(40, 6);
    Rng rng(3);
    for (auto& x : E.f32_mut()) x = static_cast<float>(rng.normal());
    table.E = std::move(E);
    table.vocab = Vocab::numbered(40);
    searcher = std::make_unique<Searcher>(table, 1);
    HnswOptions o;
    o.M = 4;
    o.ef_construction = 20;
    HnswIndex::build(*searcher, Metric::cosine, 0, o).save(file.string());
    bytes = slurp(file.string());
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static World w;  // built on the first input
  if (size < 3) return 0;
  const Metric m = data[0] % 3 == 0 ? Metric::cosine : data[0] % 3 == 1 ? Metric::dot : Metric::euclidean;
  const std::string path = w.file.string() + ".damaged";
  write_damaged(path, w.bytes, data + 1, size - 1);
  try {
    const HnswIndex index = HnswIndex::load(path, *w.searcher, m);
    for (const auto& n : index.search(w.searcher->row(5), 5, {}, 16)) {
      if (n.id < 0 || static_cast<std::size_t>(n.id) >= w.table.V()) {
        std::fprintf(stderr, "answer %lld is not a row\n", static_cast<long long>(n.id));
        std::abort();
      }
    }
  } catch (const InputError&) {
  }
  return 0;
}
