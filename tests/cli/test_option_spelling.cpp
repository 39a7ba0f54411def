// The library names its options as "{name}" and never spells a flag (scripts/check_rules.py); the CLI spells each
// as its flag, so an error that suggests an option still names the flag to type: --tensor, --to and
// --unicode-errors (Python spells the same errors with its keywords: python/tests/test_bad_arguments.py).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "cli_run.hpp"
#include "support/safetensors_file.hpp"
#include "support/temp_dir.hpp"

namespace test_option_spelling {

using lumen_cli::run_cli;
using lumen_cli::detail::quote;

std::string show(const lumen_cli::CliRun& r) { return r.cmdline + "\n--- stdout\n" + r.out + "\n--- stderr\n" + r.err; }

TEST(OptionSpelling, ErrorsThatSuggestAnOptionNameItsFlag) {
  const lumen::test::TempDir dir("lumen-spelling");
  lumen::test::write_safetensors(dir / "two.safetensors", {{"a", 2, 2, {1, 2, 3, 4}}, {"b", 2, 2, {4, 3, 2, 1}}});
  auto r = run_cli("info " + quote(dir / "two.safetensors"));
  EXPECT_EQ(r.code, 1) << show(r);
  EXPECT_NE(r.err.find("choose one with --tensor from: a, b"), std::string::npos) << show(r);
  EXPECT_EQ(r.err.find("{tensor}"), std::string::npos) << show(r);

  r = run_cli("convert toy " + quote(dir / "out.xyz"));
  EXPECT_EQ(r.code, 2) << show(r);
  EXPECT_NE(r.err.find("name it with --to ("), std::string::npos) << show(r);

  r = run_cli("info toy --unicode-errors sometimes");
  EXPECT_EQ(r.code, 2) << show(r);
  EXPECT_NE(r.err.find("unknown --unicode-errors 'sometimes'"), std::string::npos) << show(r);

  std::ofstream(dir / "bad.vec", std::ios::binary) << "2 2\n\xff\xfe 1 0\nb 0 1\n";
  r = run_cli("info " + quote(dir / "bad.vec"));
  EXPECT_EQ(r.code, 1) << show(r);
  EXPECT_NE(r.err.find("(use --unicode-errors replace or ignore to repair it)"), std::string::npos) << show(r);
}

}  // namespace test_option_spelling
