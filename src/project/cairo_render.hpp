#pragma once
// The one place lumen's pictures meet Cairo: a surface of the asked size and format, a context for the caller
// to draw on, and the bytes of the finished PNG or SVG. Shared by the map (plot.cpp) and the drift picture
// (trajectory_plot.cpp).
#include <cairo.h>

#include <functional>
#include <string>

#include "lumen/project/plot.hpp"

namespace lumen::project::detail {

// UsageError for a size outside 200..20000 pixels; Error naming the Cairo step that failed.
std::string render_cairo(int width, int height, PlotFormat format, const std::function<void(cairo_t*)>& draw);

}  // namespace lumen::project::detail
