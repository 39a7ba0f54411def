#pragma once
// Paths through a map, beside a curve: the picture of lumen drift (a token's vector layer by layer in each context,
// projected by PCA, and the cosine between the contexts by layer), as SVG or PNG (Cairo).
#include <string>
#include <vector>

#include "lumen/project/plot.hpp"

namespace lumen::project {

struct Trajectory {
  std::string name;                 // the legend
  std::vector<float> xy;            // (n, 2) points in order
  std::vector<std::string> labels;  // (n) a label per point ("0", "1", ...)
};

struct TrajectoryPlot {
  std::string title;
  std::string map_title, curve_title;      // the two panels
  std::vector<Trajectory> paths;           // left panel
  std::vector<double> curve;               // right panel: y by index 0..n-1
  std::vector<double> reference;           // right panel, dashed grey: what the curve is read against (may be empty)
  std::string curve_name, reference_name;  // their legend (shown when there is a reference)
  std::string curve_x, curve_y;            // axis names
  double curve_min = 0, curve_max = 1;     // y range (widened to hold the curve)
  std::vector<std::string> caption;
  int width = 1400, height = 700;
};

// Throws InputError for inconsistent data (labels not matching points), UsageError for a size outside 200..20000.
std::string render_trajectories(const TrajectoryPlot& plot, PlotFormat format);

}  // namespace lumen::project
