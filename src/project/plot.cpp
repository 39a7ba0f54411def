#include "lumen/project/plot.hpp"

#include <algorithm>
#include <cairo.h>
#include <cmath>
#include <fmt/format.h>

#include "lumen/core/error.hpp"
#include "lumen/project/labels.hpp"
#include "project/cairo_render.hpp"

namespace lumen::project {

namespace {

void draw(cairo_t* cr, const PlotData& data, const PlotOptions& o) {
  const std::size_t n = data.labels.size();
  const double W = o.width, H = o.height;
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);

  // Title on top, caption lines at the bottom, the map in between with one scale for both axes.
  const double margin = 24, title_h = o.title.empty() ? 0 : 34, line_h = 19;
  const double caption_h = o.caption.empty() ? 0 : 12 + line_h * static_cast<double>(o.caption.size());
  const Box area{margin, margin + title_h, W - margin, H - margin - caption_h};
  float xmin = 0, xmax = 0, ymin = 0, ymax = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const float x = data.xy[2 * i], y = data.xy[2 * i + 1];
    if (i == 0 || x < xmin) xmin = x;
    if (i == 0 || x > xmax) xmax = x;
    if (i == 0 || y < ymin) ymin = y;
    if (i == 0 || y > ymax) ymax = y;
  }
  const double pad = 40;  // room for labels at the edges
  const double sx = (area.x1 - area.x0 - 2 * pad) / std::max(1e-12, static_cast<double>(xmax - xmin));
  const double sy = (area.y1 - area.y0 - 2 * pad) / std::max(1e-12, static_cast<double>(ymax - ymin));
  const double s = std::min(sx, sy);
  const double ox = (area.x0 + area.x1) / 2 - s * (xmin + xmax) / 2,
               oy = (area.y0 + area.y1) / 2 + s * (ymin + ymax) / 2;
  auto X = [&](std::size_t i) { return ox + s * data.xy[2 * i]; };
  auto Y = [&](std::size_t i) { return oy - s * data.xy[2 * i + 1]; };  // y up
  auto hl = [&](std::size_t i) { return !data.highlight.empty() && data.highlight[i]; };

  if (!o.title.empty()) {
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 18);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    cairo_move_to(cr, margin, margin + 18);
    cairo_show_text(cr, o.title.c_str());
  }
  cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
  cairo_set_line_width(cr, 1);
  cairo_rectangle(cr, area.x0 + 0.5, area.y0 + 0.5, area.x1 - area.x0 - 1, area.y1 - area.y0 - 1);
  cairo_stroke(cr);

  // Points: smaller and lighter as they get many; highlighted ones on top, in colour.
  const double r = n <= 100 ? 4.0 : n <= 2000 ? 2.6 : n <= 20000 ? 1.6 : 1.0;
  cairo_set_source_rgba(cr, 0.20, 0.35, 0.60, n <= 2000 ? 0.75 : 0.45);
  for (std::size_t i = 0; i < n; ++i) {
    if (hl(i)) continue;
    cairo_new_sub_path(cr);
    cairo_arc(cr, X(i), Y(i), r, 0, 2 * M_PI);
  }
  cairo_fill(cr);
  cairo_set_source_rgb(cr, 0.85, 0.15, 0.10);
  for (std::size_t i = 0; i < n; ++i) {
    if (!hl(i)) continue;
    cairo_new_sub_path(cr);
    cairo_arc(cr, X(i), Y(i), r + 2, 0, 2 * M_PI);
  }
  cairo_fill(cr);

  // Labels: highlighted words first, then the priority list, placed without overlaps.
  std::vector<std::size_t> who;
  for (std::size_t i = 0; i < n; ++i)
    if (hl(i)) who.push_back(i);
  const std::size_t musts = who.size();
  for (std::int32_t p : data.priority) {
    if (who.size() - musts >= o.max_labels) break;
    if (p >= 0 && static_cast<std::size_t>(p) < n && !hl(static_cast<std::size_t>(p)))
      who.push_back(static_cast<std::size_t>(p));
  }
  const double fs = 12, fs_hl = 14;
  std::vector<LabelRequest> req;
  std::vector<cairo_text_extents_t> ext(who.size());
  for (std::size_t w = 0; w < who.size(); ++w) {
    const bool must = w < musts;
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                           must ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, must ? fs_hl : fs);
    cairo_text_extents(cr, data.labels[who[w]].c_str(), &ext[w]);
    req.push_back({X(who[w]), Y(who[w]), must ? r + 2 : r, ext[w].x_advance, (must ? fs_hl : fs) * 1.2, must});
  }
  // Points count as obstacles only through the labels' small gap; the text has a white halo instead.
  const auto placed = place_labels(req, area);
  for (std::size_t w = 0; w < who.size(); ++w) {
    if (!placed[w].placed) continue;
    const bool must = w < musts;
    const Box& b = placed[w].box;
    const double h = req[w].h;
    const double far = std::hypot((b.x0 + b.x1) / 2 - req[w].px, (b.y0 + b.y1) / 2 - req[w].py);
    if (far > req[w].w / 2 + h + 4) {  // placed away from its point: a leader line
      cairo_set_source_rgba(cr, 0.85, 0.15, 0.10, 0.7);
      cairo_set_line_width(cr, 0.8);
      cairo_move_to(cr, req[w].px, req[w].py);
      cairo_line_to(cr, std::clamp(req[w].px, b.x0, b.x1), std::clamp(req[w].py, b.y0, b.y1));
      cairo_stroke(cr);
    }
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                           must ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, must ? fs_hl : fs);
    const double baseline = b.y0 + h * 0.78;
    cairo_move_to(cr, b.x0, baseline);
    cairo_text_path(cr, data.labels[who[w]].c_str());
    cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
    cairo_set_line_width(cr, 3);
    cairo_stroke(cr);
    cairo_move_to(cr, b.x0, baseline);
    if (must) cairo_set_source_rgb(cr, 0.75, 0.10, 0.05);
    else cairo_set_source_rgb(cr, 0.12, 0.12, 0.12);
    cairo_show_text(cr, data.labels[who[w]].c_str());
  }

  cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, 13);
  cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
  for (std::size_t l = 0; l < o.caption.size(); ++l) {
    cairo_move_to(cr, margin, area.y1 + 12 + line_h * (static_cast<double>(l) + 0.8));
    cairo_show_text(cr, o.caption[l].c_str());
  }
}

}  // namespace

std::string render_plot(const PlotData& data, const PlotOptions& o, PlotFormat format) {
  const std::size_t n = data.labels.size();
  if (data.xy.size() != 2 * n) throw InputError(fmt::format("plot: {} coordinates for {} labels", data.xy.size(), n));
  if (!data.highlight.empty() && data.highlight.size() != n)
    throw InputError("plot: highlight flags do not match the points");
  return detail::render_cairo(o.width, o.height, format, [&](cairo_t* cr) { draw(cr, data, o); });
}

}  // namespace lumen::project
