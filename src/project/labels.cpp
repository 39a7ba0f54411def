#include "lumen/project/labels.hpp"

#include <algorithm>
#include <cmath>

namespace lumen::project {

namespace {

// Placed boxes bucketed on a uniform grid, so a candidate is checked only against its neighbours.
class BoxIndex {
 public:
  BoxIndex(const Box& bounds, double cell) : b_(bounds), cell_(cell) {
    nx_ = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil((bounds.x1 - bounds.x0) / cell)));
    ny_ = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil((bounds.y1 - bounds.y0) / cell)));
    cells_.resize(nx_ * ny_);
  }
  std::size_t overlaps(const Box& q) const {
    std::size_t hits = 0;
    visit(q, [&](std::size_t c) {
      for (std::size_t id : cells_[c])
        if (boxes_[id].overlaps(q)) ++hits;
    });
    return hits;
  }
  void add(const Box& q) {
    const std::size_t id = boxes_.size();
    boxes_.push_back(q);
    visit(q, [&](std::size_t c) { cells_[c].push_back(id); });
  }

 private:
  template <class F>
  void visit(const Box& q, F f) const {
    auto cx = [&](double x) { return std::min(nx_ - 1, static_cast<std::size_t>(std::max(0.0, (x - b_.x0) / cell_))); };
    auto cy = [&](double y) { return std::min(ny_ - 1, static_cast<std::size_t>(std::max(0.0, (y - b_.y0) / cell_))); };
    for (std::size_t y = cy(q.y0); y <= cy(q.y1); ++y)
      for (std::size_t x = cx(q.x0); x <= cx(q.x1); ++x) f(y * nx_ + x);
  }
  Box b_;
  double cell_;
  std::size_t nx_, ny_;
  std::vector<std::vector<std::size_t>> cells_;
  std::vector<Box> boxes_;
};

bool inside(const Box& b, const Box& bounds) {
  return b.x0 >= bounds.x0 && b.y0 >= bounds.y0 && b.x1 <= bounds.x1 && b.y1 <= bounds.y1;
}

}  // namespace

std::vector<LabelPlacement> place_labels(const std::vector<LabelRequest>& requests, const Box& bounds) {
  std::vector<LabelPlacement> out(requests.size());
  BoxIndex index(bounds, 64.0);
  // Positions around the point, preferred first: right, left, above, below, then the four diagonals;
  // must-labels also try rings further out (the plot draws a leader line to them).
  static constexpr double kDir[8][2] = {{1, 0}, {-1, 0}, {0, -1}, {0, 1}, {1, -1}, {-1, -1}, {1, 1}, {-1, 1}};
  for (std::size_t r = 0; r < requests.size(); ++r) {
    const LabelRequest& q = requests[r];
    const int rings = q.must ? 6 : 1;
    bool done = false;
    Box best;
    std::size_t best_hits = SIZE_MAX;
    for (int ring = 0; ring < rings && !done; ++ring) {
      const double gap = q.r + 3.0 + ring * (q.h + 4.0);
      for (const auto& dir : kDir) {
        Box b;
        b.x0 = dir[0] > 0 ? q.px + gap : dir[0] < 0 ? q.px - gap - q.w : q.px - q.w / 2;
        b.y0 = dir[1] > 0 ? q.py + gap : dir[1] < 0 ? q.py - gap - q.h : q.py - q.h / 2;
        b.x1 = b.x0 + q.w;
        b.y1 = b.y0 + q.h;
        if (!inside(b, bounds)) continue;
        const std::size_t hits = index.overlaps(b);
        if (hits == 0) {
          best = b;
          best_hits = 0;
          done = true;
          break;
        }
        if (hits < best_hits) {
          best = b;
          best_hits = hits;
        }
      }
    }
    if (done || (q.must && best_hits != SIZE_MAX)) {
      out[r] = {true, best};
      index.add(best);
    }
  }
  return out;
}

}  // namespace lumen::project
