#include "project/quadtree.hpp"

#include <algorithm>
#include <cmath>

namespace lumen::project::detail {

namespace {
constexpr std::int32_t kLeafSize = 64;  // points per leaf: one interaction list serves them all (measured best)
constexpr int kMaxDepth = 48;           // equal points cannot be split: stop there
}  // namespace

void QuadTree::build(const float* Y, std::size_t n) {
  nodes_.clear();
  leaves_.clear();
  pts_.resize(n);
  if (n == 0) return;
  float xmin = Y[0], xmax = Y[0], ymin = Y[1], ymax = Y[1];
  for (std::size_t i = 0; i < n; ++i) {
    pts_[i] = {Y[2 * i], Y[2 * i + 1], static_cast<std::int32_t>(i)};
    xmin = std::min(xmin, Y[2 * i]);
    xmax = std::max(xmax, Y[2 * i]);
    ymin = std::min(ymin, Y[2 * i + 1]);
    ymax = std::max(ymax, Y[2 * i + 1]);
  }
  float size = std::max(xmax - xmin, ymax - ymin);
  size = size > 0 ? size * (1.0f + 1e-5f) : 1.0f;
  nodes_.reserve(2 * n / kLeafSize + 16);
  split(0, static_cast<std::int32_t>(n), xmin, ymin, size, 0);
}

void QuadTree::split(std::int32_t first, std::int32_t count, float x0, float y0, float size, int depth) {
  const auto at = static_cast<std::int32_t>(nodes_.size());
  double sx = 0, sy = 0;
  for (std::int32_t i = first; i < first + count; ++i) {
    sx += pts_[static_cast<std::size_t>(i)].x;
    sy += pts_[static_cast<std::size_t>(i)].y;
  }
  const bool leaf = count <= kLeafSize || depth >= kMaxDepth;
  nodes_.push_back({static_cast<float>(sx / count), static_cast<float>(sy / count), static_cast<float>(count),
                    size * size, 0, first, count, leaf ? 1 : 0});
  if (leaf) {
    Leaf l{at, pts_[static_cast<std::size_t>(first)].x, pts_[static_cast<std::size_t>(first)].y,
           pts_[static_cast<std::size_t>(first)].x, pts_[static_cast<std::size_t>(first)].y};
    for (std::int32_t i = first; i < first + count; ++i) {
      const Point& p = pts_[static_cast<std::size_t>(i)];
      l.x0 = std::min(l.x0, p.x);
      l.x1 = std::max(l.x1, p.x);
      l.y0 = std::min(l.y0, p.y);
      l.y1 = std::max(l.y1, p.y);
    }
    leaves_.push_back(l);
  } else {
    const float h = size / 2, mx = x0 + h, my = y0 + h;
    auto b = pts_.begin() + first, e = b + count;
    // Quadrants in order: (left, bottom), (right, bottom), (left, top), (right, top).
    auto mid = std::partition(b, e, [my](const Point& p) { return p.y < my; });
    auto q1 = std::partition(b, mid, [mx](const Point& p) { return p.x < mx; });
    auto q3 = std::partition(mid, e, [mx](const Point& p) { return p.x < mx; });
    const std::pair<decltype(b), decltype(b)> parts[4] = {{b, q1}, {q1, mid}, {mid, q3}, {q3, e}};
    const float ox[4] = {x0, mx, x0, mx}, oy[4] = {y0, y0, my, my};
    for (int c = 0; c < 4; ++c) {
      const auto cnt = static_cast<std::int32_t>(parts[c].second - parts[c].first);
      if (cnt > 0) split(static_cast<std::int32_t>(parts[c].first - pts_.begin()), cnt, ox[c], oy[c], h, depth + 1);
    }
  }
  nodes_[static_cast<std::size_t>(at)].skip = static_cast<std::int32_t>(nodes_.size());
}

double QuadTree::repulse_leaves(std::size_t begin, std::size_t end, float theta2, const kernels::TsneTable& kern,
                                float* rep) const {
  std::vector<float> xs, ys, ms;
  double z = 0;
  const Node* nodes = nodes_.data();
  const auto count = static_cast<std::int32_t>(nodes_.size());
  for (std::size_t l = begin; l < end; ++l) {
    const Leaf& g = leaves_[l];
    xs.clear();
    ys.clear();
    ms.clear();
    bool self_listed = false;
    std::int32_t i = 0;
    while (i < count) {
      const Node& nd = nodes[i];
      // Distance from the cell's centre of mass to the nearest point of the leaf's box.
      const float dx = std::max(0.0f, std::max(g.x0 - nd.cx, nd.cx - g.x1));
      const float dy = std::max(0.0f, std::max(g.y0 - nd.cy, nd.cy - g.y1));
      if (nd.width2 < theta2 * (dx * dx + dy * dy)) {
        xs.push_back(nd.cx);
        ys.push_back(nd.cy);
        ms.push_back(nd.mass);
        i = nd.skip;
      } else if (nd.leaf) {
        for (std::int32_t p = nd.first; p < nd.first + nd.count; ++p) {
          xs.push_back(pts_[static_cast<std::size_t>(p)].x);
          ys.push_back(pts_[static_cast<std::size_t>(p)].y);
          ms.push_back(1.0f);
        }
        self_listed |= i == g.node;
        i = nd.skip;
      } else {
        ++i;
      }
    }
    const Node& leaf = nodes[g.node];
    for (std::int32_t p = leaf.first; p < leaf.first + leaf.count; ++p) {
      const Point& pt = pts_[static_cast<std::size_t>(p)];
      float fx = 0, fy = 0;
      // The point itself is in the list (q = 1, no force) when its leaf was opened: take it off.
      z += kern.repulse_mass(xs.data(), ys.data(), ms.data(), xs.size(), pt.x, pt.y, &fx, &fy) -
           (self_listed ? 1.0 : 0.0);
      rep[2 * static_cast<std::size_t>(pt.id)] = fx;
      rep[2 * static_cast<std::size_t>(pt.id) + 1] = fy;
    }
  }
  return z;
}

}  // namespace lumen::project::detail
