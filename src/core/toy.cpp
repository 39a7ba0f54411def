#include "lumen/core/toy.hpp"

#include <cstdint>

namespace lumen {

namespace {
struct Word {
  const char* token;
  float x, y;
};

// Hand-placed: clusters sit at different angles, since cosine only sees directions.
// People and royalty form parallelograms: woman = man + g, king = man + r, queen = man + g + r with
// g = (-0.6, 0.2) and r = (-1.5, 0.6); the same offsets link boy, girl, prince and princess.
constexpr Word kWords[] = {
    // people and royalty (60..110 degrees)
    {"man", 1.0f, 3.0f},
    {"woman", 0.4f, 3.2f},
    {"king", -0.5f, 3.6f},
    {"queen", -1.1f, 3.8f},
    {"boy", 1.4f, 2.4f},
    {"girl", 0.8f, 2.6f},
    {"prince", -0.1f, 3.0f},
    {"princess", -0.7f, 3.2f},
    // animals (5..35 degrees)
    {"cat", 3.0f, 1.0f},
    {"dog", 3.2f, 1.4f},
    {"kitten", 2.2f, 0.6f},
    {"puppy", 2.4f, 0.9f},
    {"horse", 3.6f, 2.0f},
    {"cow", 3.4f, 2.2f},
    {"mouse", 2.0f, 0.3f},
    {"bird", 2.6f, 0.2f},
    // food (185..205 degrees)
    {"bread", -3.0f, -0.6f},
    {"cheese", -3.2f, -1.0f},
    {"apple", -2.6f, -1.4f},
    {"rice", -2.8f, -0.2f},
    {"soup", -2.4f, -0.9f},
    {"cake", -3.4f, -1.5f},
    // places (230..260 degrees)
    {"paris", -1.0f, -3.2f},
    {"london", -0.6f, -3.4f},
    {"city", -1.4f, -2.6f},
    {"village", -1.8f, -2.4f},
    // politics (280..295 degrees): more than a right angle away from the animals
    {"parliament", 0.6f, -3.4f},
    {"government", 1.0f, -3.2f},
    {"election", 1.3f, -2.9f},
    {"law", 0.9f, -2.7f},
};
// Made-up frequencies (the order words have in a frequency-sorted table).
constexpr std::uint64_t kCounts[] = {900, 850, 400, 380, 500, 480, 200, 190, 600, 650, 150, 160, 300, 280, 250,
                                     350, 450, 220, 420, 330, 310, 270, 700, 690, 800, 260, 240, 550, 230, 520};
}  // namespace

Table toy_table() {
  constexpr std::size_t V = sizeof(kWords) / sizeof(kWords[0]);
  static_assert(V == sizeof(kCounts) / sizeof(kCounts[0]));
  // Rows sorted by count, most frequent first, like the tables lumen reads.
  std::size_t order[V];
  for (std::size_t i = 0; i < V; ++i) order[i] = i;
  for (std::size_t i = 1; i < V; ++i)
    for (std::size_t j = i; j > 0 && kCounts[order[j]] > kCounts[order[j - 1]]; --j) std::swap(order[j], order[j - 1]);
  Table t;
  t.E = Matrix(V, 2);
  for (std::size_t r = 0; r < V; ++r) {
    const Word& w = kWords[order[r]];
    t.vocab.add(w.token, kCounts[order[r]]);
    t.E.set(r, 0, w.x);
    t.E.set(r, 1, w.y);
  }
  t.source = "toy";
  t.format = "toy";
  return t;
}

Table toy_table(std::size_t limit, DType dtype) {
  Table t = toy_table();
  if (limit != 0 && limit < t.V()) {
    t.vocab.truncate(limit);
    t.E = t.E.head(limit).clone();
  }
  if (dtype != DType::f32) t.E = t.E.to(dtype);
  return t;
}

}  // namespace lumen
