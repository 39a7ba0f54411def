#include "project/cairo_render.hpp"

#include <cairo-svg.h>
#include <fmt/format.h>
#include <memory>

#include "lumen/core/error.hpp"

namespace lumen::project::detail {

namespace {

cairo_status_t append(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

struct SurfaceFree {
  void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
};
struct ContextFree {
  void operator()(cairo_t* c) const { cairo_destroy(c); }
};

void check(cairo_status_t s, const char* what) {
  if (s != CAIRO_STATUS_SUCCESS) throw Error(fmt::format("plot: {}: {}", what, cairo_status_to_string(s)));
}

}  // namespace

std::string render_cairo(int width, int height, PlotFormat format, const std::function<void(cairo_t*)>& draw) {
  if (width < 200 || height < 200 || width > 20000 || height > 20000)
    throw UsageError(fmt::format("plot: size {}x{} outside 200..20000", width, height));
  std::string bytes;
  std::unique_ptr<cairo_surface_t, SurfaceFree> surface(
      format == PlotFormat::svg ? cairo_svg_surface_create_for_stream(append, &bytes, width, height)
                                : cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height));
  check(cairo_surface_status(surface.get()), "cannot create the surface");
  {
    std::unique_ptr<cairo_t, ContextFree> cr(cairo_create(surface.get()));
    draw(cr.get());
    check(cairo_status(cr.get()), "drawing failed");
  }
  if (format == PlotFormat::png)
    check(cairo_surface_write_to_png_stream(surface.get(), append, &bytes), "PNG encoding failed");
  cairo_surface_finish(surface.get());
  check(cairo_surface_status(surface.get()), "cannot finish the picture");
  return bytes;
}

}  // namespace lumen::project::detail
