#pragma once
// A map as a picture: a scatter plot with readable labels and a caption, as SVG or PNG (Cairo).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace lumen::project {

enum class PlotFormat { svg, png };

struct PlotData {
  std::vector<float> xy;                // (n, 2) map coordinates
  std::vector<std::string> labels;      // (n) the tokens
  std::vector<std::uint8_t> highlight;  // (n) 1: drawn in colour and always labelled (may be empty)
  std::vector<std::int32_t> priority;   // points to label, most important first (highlighted ones need not be here)
};

struct PlotOptions {
  std::string title;
  std::vector<std::string> caption;  // lines under the map: the honesty numbers
  int width = 1400, height = 1050;
  std::size_t max_labels = 250;  // labels beyond the highlighted ones
};

// The picture's bytes. Throws InputError if the data are inconsistent, Error if Cairo fails.
std::string render_plot(const PlotData& data, const PlotOptions& options, PlotFormat format);

}  // namespace lumen::project
