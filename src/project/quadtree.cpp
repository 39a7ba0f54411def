#include "project/quadtree.hpp"

#include <algorithm>
#include <cmath>

namespace lumen::project::detail {

namespace {
constexpr std::int32_t kLeafSize = 8;  // a few points per leaf: shallower tree, a tight inner loop
constexpr int kMaxDepth = 48;          // equal points cannot be split: stop there
}  // namespace

void QuadTree::build(const float* Y, std::size_t n) {
  nodes_.clear();
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
  if (!leaf) {
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

double QuadTree::repulse(float x, float y, std::int32_t self, float theta2, float& fx, float& fy) const {
  double sum = 0;
  float gx = 0, gy = 0;
  const Node* nodes = nodes_.data();
  const auto end = static_cast<std::int32_t>(nodes_.size());
  std::int32_t i = 0;
  while (i < end) {
    const Node& nd = nodes[i];
    const float dx = x - nd.cx, dy = y - nd.cy, d2 = dx * dx + dy * dy;
    if (nd.width2 < theta2 * d2) {  // far enough: the cell acts as one point of mass `mass`
      const float q = 1.0f / (1.0f + d2), mq = nd.mass * q;
      sum += mq;
      gx += mq * q * dx;
      gy += mq * q * dy;
      i = nd.skip;
    } else if (nd.leaf) {
      for (std::int32_t p = nd.first; p < nd.first + nd.count; ++p) {
        const Point& pt = pts_[static_cast<std::size_t>(p)];
        if (pt.id == self) continue;
        const float ex = x - pt.x, ey = y - pt.y;
        const float q = 1.0f / (1.0f + ex * ex + ey * ey);
        sum += q;
        gx += q * q * ex;
        gy += q * q * ey;
      }
      i = nd.skip;
    } else {
      ++i;
    }
  }
  fx += gx;
  fy += gy;
  return sum;
}

}  // namespace lumen::project::detail
