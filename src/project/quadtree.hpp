#pragma once
// The Barnes-Hut quadtree over a two-dimensional map: far cells act as one point at their centre of mass.
// Nodes are stored depth-first with a `skip` index past each subtree, so the traversal is a forward scan with
// no stack: summarise a cell and skip it, or step into its first child.
#include <cstdint>
#include <vector>

namespace lumen::project::detail {

class QuadTree {
 public:
  // Y (n, 2) interleaved. Rebuilt every iteration: O(n log n).
  void build(const float* Y, std::size_t n);
  // The repulsion on point `self` at (x, y): returns sum q (the point's share of Z) and adds sum q^2 (p - y_j)
  // to fx, fy; a cell is summarised when its width < theta * distance to its centre of mass.
  double repulse(float x, float y, std::int32_t self, float theta2, float& fx, float& fy) const;

 private:
  struct Node {
    float cx, cy, mass, width2;  // centre of mass, number of points, squared side
    std::int32_t skip;           // the first node after this subtree
    std::int32_t first, count;   // a leaf's points: pts_[first, first + count)
    std::int32_t leaf;
  };
  struct Point {
    float x, y;
    std::int32_t id;
  };
  void split(std::int32_t first, std::int32_t count, float x0, float y0, float size, int depth);
  std::vector<Node> nodes_;
  std::vector<Point> pts_;
};

}  // namespace lumen::project::detail
