#pragma once
// Bounds for numeric options that name the bound. CLI11's PositiveNumber and NonNegativeNumber are ranges up to
// the largest double and say so in full ("not in range 0.000000 to 17976931348623157...", 309 digits); these say
// "-k: must be at least 1 (got 0)". CLI11 still converts the value to the option's type (exit 2 if it cannot).
#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdint>
#include <fmt/format.h>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>

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

// Every unsigned option (a count, a size, a seed) takes digits only, no more than 2^64 - 1: CLI11 2.1 reads "-1"
// as 18446744073709551615 and a 23-digit number as that too. main.cpp adds it to each such option.
inline CLI::Validator whole_count() {
  return CLI::Validator(
      [](std::string& input) -> std::string {
        const std::string_view s = input;
        if (s.size() > 1 && s[0] == '-' && s.find_first_not_of("0123456789", 1) == std::string_view::npos)
          return fmt::format("must be at least 0 (got {})", input);  // at_least(0)'s words
        if (s.empty() || s.find_first_not_of("0123456789") != std::string_view::npos)
          return fmt::format("expected a whole number, 0 or more, got '{}'", input);
        std::uint64_t v = 0;
        if (std::from_chars(s.data(), s.data() + s.size(), v).ec == std::errc::result_out_of_range)
          return fmt::format("{} is past the largest value, {}", input, std::numeric_limits<std::uint64_t>::max());
        return {};
      },
      "");  // no description: --help shows the option as before
}

}  // namespace lumen::cli
