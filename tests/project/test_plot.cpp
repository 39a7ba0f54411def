#include <gtest/gtest.h>

#include "lumen/core/error.hpp"
#include "lumen/core/toy.hpp"
#include "lumen/project/labels.hpp"
#include "lumen/project/plot.hpp"

using namespace lumen;
using namespace lumen::project;

TEST(Labels, PlacedLabelsNeverOverlapAndStayInside) {
  std::vector<LabelRequest> req;
  for (int i = 0; i < 400; ++i) req.push_back({100.0 + (i * 37) % 300, 100.0 + (i * 53) % 200, 0, 40, 14, i % 50 == 0});
  const Box bounds{0, 0, 500, 400};
  const auto placed = place_labels(req, bounds);
  std::size_t n = 0;
  for (std::size_t a = 0; a < placed.size(); ++a) {
    if (!placed[a].placed) continue;
    ++n;
    const Box& b = placed[a].box;
    EXPECT_TRUE(b.x0 >= 0 && b.y0 >= 0 && b.x1 <= 500 && b.y1 <= 400);
    if (!req[a].must) {
      for (std::size_t c = 0; c < a; ++c)
        EXPECT_FALSE(placed[c].placed && placed[c].box.overlaps(b)) << a << " vs " << c;
    }
  }
  EXPECT_GT(n, 30u);
  EXPECT_LT(n, 400u);  // crowded: some are left off
  for (std::size_t a = 0; a < placed.size(); a += 50) EXPECT_TRUE(placed[a].placed) << "highlighted " << a;
  // The first request always gets its preferred spot, right of its point.
  EXPECT_DOUBLE_EQ(placed[0].box.x0, req[0].px + 3);
}

TEST(Plot, PngAndSvgOfTheToyTable) {
  const Table t = toy_table();
  PlotData d;
  for (std::size_t i = 0; i < t.V(); ++i) {
    d.xy.push_back(t.E.at(i, 0));
    d.xy.push_back(t.E.at(i, 1));
    d.labels.push_back(t.vocab.token(static_cast<Id>(i)));
    d.priority.push_back(static_cast<std::int32_t>(i));
  }
  d.highlight.assign(t.V(), 0);
  d.highlight[static_cast<std::size_t>(t.vocab.require("queen"))] = 1;
  PlotOptions o;
  o.title = "toy";
  o.caption = {"caption line one", "line two"};
  const std::string png = render_plot(d, o, PlotFormat::png);
  ASSERT_GT(png.size(), 1000u);
  EXPECT_EQ(png.substr(1, 3), "PNG");
  const std::string svg = render_plot(d, o, PlotFormat::svg);
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  d.labels.pop_back();
  EXPECT_THROW(render_plot(d, o, PlotFormat::png), InputError);
}
