// Every ISA variant of the row gather gives the generic reference's bits (copies, scaled, streamed, tails).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "lumen/core/matrix.hpp"
#include "lumen/core/rng.hpp"
#include "lumen/core/simd.hpp"
#include "lumen/nn/gather.hpp"

using namespace lumen;

TEST(Gather, EveryVariantMatchesGenericBitForBit) {
  const std::size_t V = 97;
  for (std::size_t d : {1, 7, 8, 15, 16, 17, 33, 64, 768, 1001}) {
    Matrix E(V, d);
    Rng r(d);
    for (float& x : E.f32_mut()) x = static_cast<float>(r.normal());
    std::vector<Id> ids(37);
    for (auto& i : ids) i = static_cast<Id>(r.below(V));
    // An aligned output (owned Matrix: 64-byte) and one shifted by a float (unaligned rows).
    Matrix ref(ids.size(), d), out(ids.size() + 1, d);
    for (float scale : {1.0f, 27.712812f}) {
      nn::gather_rows(Isa::generic, ref.f32_mut().data(), E.f32().data(), ids.data(), ids.size(), d, scale, false);
      for (std::size_t p = 0; p < ids.size(); ++p)
        for (std::size_t j = 0; j < d; ++j) ASSERT_EQ(ref.at(p, j), E.at(static_cast<std::size_t>(ids[p]), j) * scale);
      for (Isa isa : available_isas())
        for (bool stream : {false, true})
          for (std::size_t shift : {0, 1}) {
            float* dst = out.f32_mut().data() + shift;
            nn::gather_rows(isa, dst, E.f32().data(), ids.data(), ids.size(), d, scale, stream);
            EXPECT_EQ(std::memcmp(dst, ref.f32().data(), ref.bytes()), 0)
                << isa_name(isa) << " d=" << d << " scale=" << scale << " stream=" << stream << " shift=" << shift;
          }
    }
  }
}
