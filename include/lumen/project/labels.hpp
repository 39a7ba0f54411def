#pragma once
// Placing labels on a scatter plot without overlaps: greedy, in priority order, each label tried at positions
// around its point (right, left, above, below, the diagonals, then further out); a label that fits nowhere is
// left off, unless it is a must (a highlighted word), which then takes the least crowded spot.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace lumen::project {

struct Box {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // x0 < x1, y0 < y1 (device units)
  bool overlaps(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

struct LabelRequest {
  double px = 0, py = 0;  // the point
  double r = 0;           // its radius: the label keeps clear of it
  double w = 0, h = 0;    // the text's extent
  bool must = false;      // highlighted: always placed
};

struct LabelPlacement {
  bool placed = false;
  Box box;  // where the text goes
};

// Requests in priority order (first placed first); labels stay inside `bounds`.
std::vector<LabelPlacement> place_labels(const std::vector<LabelRequest>& requests, const Box& bounds);

}  // namespace lumen::project
