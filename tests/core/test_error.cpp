// OptionError: the library names its own option; each face spells it its own way.
#include <gtest/gtest.h>

#include "lumen/core/error.hpp"

namespace lumen {
namespace test_error {

TEST(OptionError, WhatSpellsTheLibrarysNameAndEachFaceItsOwn) {
  const OptionError e("init_std", "{option} must be positive (got {option} = -1)");
  EXPECT_EQ(e.option(), "init_std");
  EXPECT_EQ(e.message(), "init_std must be positive (got init_std = -1)");
  EXPECT_STREQ(e.what(), "init_std must be positive (got init_std = -1)");
  EXPECT_EQ(e.text_for("--init-std"), "--init-std must be positive (got --init-std = -1)");
  EXPECT_EQ(e.text_for("init_std="), "init_std= must be positive (got init_std= = -1)");
}

TEST(OptionError, IsAUsageErrorAndKeepsTextWithoutTheMark) {
  try {
    throw OptionError("seeds", "no mark here");
  } catch (const UsageError& e) {
    EXPECT_EQ(e.message(), "no mark here");
    return;
  }
  FAIL() << "OptionError is not a UsageError";
}

}  // namespace test_error
}  // namespace lumen
