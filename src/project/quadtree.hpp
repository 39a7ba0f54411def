#pragma once
// The Barnes-Hut quadtree over a two-dimensional map: far cells act as one point at their centre of mass.
// Nodes are stored depth-first with a `skip` index past each subtree, so the traversal is a forward scan with
// no stack: summarise a cell and skip it, or step into its first child.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "lumen/project/tsne_kernels.hpp"

namespace lumen::project::detail {

class QuadTree {
 public:
  // Y (n, 2) interleaved. Rebuilt every iteration: O(n log n).
  void build(const float* Y, std::size_t n);
  // The repulsion on every point, leaf by leaf: one interaction list per leaf, built with the leaf's bounding box in
  // place of the point (stricter than the per-point test, so at least as accurate), then evaluated for each of the
  // leaf's points by a vectorised kernel. Leaves [begin, end) of leaves(); rep (n, 2) gets sum q^2 (p - y_j) by
  // point id; returns the leaves' share of Z.
  double repulse_leaves(std::size_t begin, std::size_t end, float theta2, const kernels::TsneTable& kern,
                        float* rep) const;
  std::size_t leaves() const { return leaves_.size(); }

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
  struct Leaf {
    std::int32_t node;
    float x0, y0, x1, y1;  // bounding box of its points
  };
  std::vector<Node> nodes_;
  std::vector<Leaf> leaves_;
  std::vector<Point> pts_;
};

}  // namespace lumen::project::detail
