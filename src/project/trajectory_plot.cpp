// Two panels with Cairo: paths through a 2-D map (each point numbered), and a curve by index.
#include "lumen/project/trajectory_plot.hpp"

#include <algorithm>
#include <cairo.h>
#include <cmath>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "project/cairo_render.hpp"

namespace lumen::project {

namespace {

constexpr double kColours[][3] = {{0.12, 0.38, 0.70}, {0.80, 0.25, 0.10}, {0.15, 0.55, 0.25},
                                  {0.55, 0.25, 0.65}, {0.70, 0.55, 0.05}, {0.30, 0.30, 0.30}};

void text(cairo_t* cr, double x, double y, const std::string& s, double size, bool bold = false) {
  cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                         bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, size);
  cairo_move_to(cr, x, y);
  cairo_show_text(cr, s.c_str());
}

struct Panel {
  double x0, y0, x1, y1;
};

void frame(cairo_t* cr, const Panel& p, const std::string& title) {
  cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
  cairo_set_line_width(cr, 1);
  cairo_rectangle(cr, p.x0, p.y0, p.x1 - p.x0, p.y1 - p.y0);
  cairo_stroke(cr);
  cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
  text(cr, p.x0, p.y0 - 10, title, 15, true);
}

void draw_paths(cairo_t* cr, const TrajectoryPlot& t, const Panel& p) {
  float lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
  for (const auto& path : t.paths)
    for (std::size_t i = 0; i < path.xy.size(); ++i) {
      lo[i % 2] = std::min(lo[i % 2], path.xy[i]);
      hi[i % 2] = std::max(hi[i % 2], path.xy[i]);
    }
  const double pad = 30;
  const auto X = [&](float v) {
    return hi[0] > lo[0] ? p.x0 + pad + (v - lo[0]) / (hi[0] - lo[0]) * (p.x1 - p.x0 - 2 * pad) : (p.x0 + p.x1) / 2;
  };
  const auto Y = [&](float v) {
    return hi[1] > lo[1] ? p.y1 - pad - (v - lo[1]) / (hi[1] - lo[1]) * (p.y1 - p.y0 - 2 * pad) : (p.y0 + p.y1) / 2;
  };
  for (std::size_t k = 0; k < t.paths.size(); ++k) {
    const auto& path = t.paths[k];
    const double* c = kColours[k % 6];
    const std::size_t n = path.xy.size() / 2;
    cairo_set_source_rgba(cr, c[0], c[1], c[2], 0.8);
    cairo_set_line_width(cr, 2);
    for (std::size_t i = 0; i < n; ++i) {
      if (i == 0) cairo_move_to(cr, X(path.xy[0]), Y(path.xy[1]));
      else cairo_line_to(cr, X(path.xy[2 * i]), Y(path.xy[2 * i + 1]));
    }
    cairo_stroke(cr);
    for (std::size_t i = 0; i < n; ++i) {
      const double x = X(path.xy[2 * i]), y = Y(path.xy[2 * i + 1]);
      cairo_set_source_rgb(cr, c[0], c[1], c[2]);
      cairo_arc(cr, x, y, i == 0 || i + 1 == n ? 6 : 4, 0, 2 * M_PI);
      cairo_fill(cr);
      cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
      text(cr, x + 7, y - 5 + 12 * static_cast<double>(k), path.labels[i], 11);
    }
    cairo_set_source_rgb(cr, c[0], c[1], c[2]);
    text(cr, p.x0 + 10, p.y1 + 22 + 18 * static_cast<double>(k), "\u25cf " + path.name, 13);
  }
}

// One series of the curve panel: a line through its finite points, each one marked (dots, or none when dashed).
template <class X, class Y>
void draw_series(cairo_t* cr, const std::vector<double>& ys, const X& x, const Y& y, bool dashed) {
  bool started = false;
  if (dashed) {
    const double dash[] = {6, 4};
    cairo_set_dash(cr, dash, 2, 0);
  }
  for (std::size_t i = 0; i < ys.size(); ++i) {
    if (!std::isfinite(ys[i])) continue;
    if (!started) cairo_move_to(cr, x(i), y(ys[i]));
    else cairo_line_to(cr, x(i), y(ys[i]));
    started = true;
  }
  cairo_stroke(cr);
  cairo_set_dash(cr, nullptr, 0, 0);
  for (std::size_t i = 0; i < ys.size(); ++i) {
    if (!std::isfinite(ys[i])) continue;
    cairo_arc(cr, x(i), y(ys[i]), dashed ? 2.5 : 4, 0, 2 * M_PI);
    cairo_fill(cr);
  }
}

void draw_curve(cairo_t* cr, const TrajectoryPlot& t, const Panel& p) {
  double lo = t.curve_min, hi = t.curve_max;
  for (const auto* ys : {&t.curve, &t.reference})
    for (double v : *ys)
      if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  if (hi <= lo) hi = lo + 1;
  const double pad = 40;
  const std::size_t n = t.curve.size();
  const auto X = [&](std::size_t i) {
    return n > 1 ? p.x0 + pad + static_cast<double>(i) / static_cast<double>(n - 1) * (p.x1 - p.x0 - 2 * pad)
                 : (p.x0 + p.x1) / 2;
  };
  const auto Y = [&](double v) { return p.y1 - pad - (v - lo) / (hi - lo) * (p.y1 - p.y0 - 2 * pad); };
  cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
  for (double v : {lo, (lo + hi) / 2, hi}) text(cr, p.x0 + 2, Y(v) + 4, fmt::format("{:.2f}", v), 11);
  for (std::size_t i = 0; i < n; ++i) text(cr, X(i) - 4, p.y1 - 12, std::to_string(i), 11);
  text(cr, (p.x0 + p.x1) / 2 - 20, p.y1 + 22, t.curve_x, 13);
  text(cr, p.x0 + 2, p.y0 + 16, t.curve_y, 13);
  cairo_set_line_width(cr, 2);
  if (!t.reference.empty()) {
    cairo_set_source_rgb(cr, 0.55, 0.55, 0.55);
    draw_series(cr, t.reference, X, Y, true);
    text(cr, p.x1 - 260, p.y0 + 34, "- - " + t.reference_name, 12);
    cairo_set_source_rgb(cr, 0.12, 0.38, 0.70);
    text(cr, p.x1 - 260, p.y0 + 16, "\u25cf " + t.curve_name, 12);
  }
  cairo_set_source_rgb(cr, 0.12, 0.38, 0.70);
  draw_series(cr, t.curve, X, Y, false);
}

}  // namespace

std::string render_trajectories(const TrajectoryPlot& t, PlotFormat format) {
  for (const auto& path : t.paths)
    if (path.xy.size() != 2 * path.labels.size())
      throw InputError(
          fmt::format("plot: {} coordinates for {} labels in '{}'", path.xy.size(), path.labels.size(), path.name));
  return detail::render_cairo(t.width, t.height, format, [&](cairo_t* c) {
    cairo_set_source_rgb(c, 1, 1, 1);
    cairo_paint(c);
    cairo_set_source_rgb(c, 0.05, 0.05, 0.05);
    text(c, 30, 32, t.title, 18, true);
    const double w = t.width, h = t.height;
    const double bottom = h - 30 - 18 * static_cast<double>(std::max(t.paths.size(), t.caption.size()) + 1);
    // Without paths the curve takes the whole width.
    const Panel left{30, 75, w * 0.55, bottom}, right{t.paths.empty() ? 30 : w * 0.60, 75, w - 30, bottom};
    if (!t.paths.empty()) {
      frame(c, left, t.map_title);
      draw_paths(c, t, left);
    }
    frame(c, right, t.curve_title);
    draw_curve(c, t, right);
    cairo_set_source_rgb(c, 0.2, 0.2, 0.2);
    for (std::size_t l = 0; l < t.caption.size(); ++l)
      text(c, right.x0, bottom + 40 + 18 * static_cast<double>(l), t.caption[l], 12);
  });
}

}  // namespace lumen::project
