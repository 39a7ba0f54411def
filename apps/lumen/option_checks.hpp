#pragma once
// Bounds for numeric options that name the bound. CLI11's PositiveNumber and NonNegativeNumber are ranges up to
// the largest double and say so in full ("not in range 0.000000 to 17976931348623157...", 309 digits); these say
// "-k: must be at least 1 (got 0)". CLI11 still converts the value to the option's type (exit 2 if it cannot).
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <string>

namespace lumen::cli {

// value >= lo (integers as integers: "at least 1").
inline CLI::Validator at_least(long long lo) {
  return CLI::Validator(
      [lo](std::string& input) -> std::string {
        double v = 0;
        if (!CLI::detail::lexical_cast(input, v)) return fmt::format("expected a number, got '{}'", input);
        if (!(v >= static_cast<double>(lo))) return fmt::format("must be at least {} (got {})", lo, input);
        return {};
      },
      fmt::format(">= {}", lo));
}

// value > lo, for real-valued options ("must be greater than 0").
inline CLI::Validator greater_than(double lo) {
  return CLI::Validator(
      [lo](std::string& input) -> std::string {
        double v = 0;
        if (!CLI::detail::lexical_cast(input, v)) return fmt::format("expected a number, got '{}'", input);
        if (!(v > lo)) return fmt::format("must be greater than {} (got {})", lo, input);
        return {};
      },
      fmt::format("> {}", lo));
}

}  // namespace lumen::cli
