// text::load_table: a table as a user names it (a file, "toy", the default table), the one way the CLI and Python open
// tables.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "io/io_test_util.hpp"
#include "lumen/core/error.hpp"
#include "lumen/io/default_table.hpp"
#include "lumen/text/load_table.hpp"

using namespace lumen;
using lumen::io::test::ScratchDir;

namespace test_load_table {

// Sets an environment variable for one test, restoring it afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_.empty()) ::unsetenv(name_);
    else ::setenv(name_, old_.c_str(), 1);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::string old_;
};

text::LoadedTable load(const std::string& path, std::size_t limit = 0) {
  text::TableRequest r;
  r.path = path;
  r.open.limit = limit;
  io::LoadReport report;
  return text::load_table(r, report);
}

TEST(LoadTable, TheToyTableIsBuiltIn) {
  const text::LoadedTable t = load("toy", 5);
  EXPECT_EQ(t.table.source, "toy");
  EXPECT_EQ(t.table.V(), 5u);
  EXPECT_EQ(t.tokenizer, nullptr);
  EXPECT_TRUE(t.warnings.empty());
}

TEST(LoadTable, AFileWithRepeatedWordsWarnsOnce) {
  const ScratchDir dir;
  const std::string path = dir.write("dup.vec", "3 2\ncat 1 0\ndog 0 1\ncat 1 1\n");
  const text::LoadedTable t = load(path);
  EXPECT_EQ(t.table.V(), 2u);
  ASSERT_EQ(t.warnings.size(), 1u);
  EXPECT_EQ(t.warnings[0], path + ": 1 duplicate word (first: 'cat'); kept the first row of each");
}

TEST(LoadTable, TheDefaultTableIsTheFileLumenDefaultTableNames) {
  const ScratchDir dir;
  const std::string path = dir.write("brown.vec", "2 2\nthe 1 0\nof 0 1\n");
  const ScopedEnv env("LUMEN_DEFAULT_TABLE", path);
  EXPECT_EQ(io::default_table_path(), path);
  for (const std::string name : {"", "default"}) {
    const text::LoadedTable t = load(name);
    EXPECT_EQ(t.table.source, "default");
    EXPECT_EQ(t.table.vocab.token(1), "of");
  }
}

TEST(LoadTable, AMissingDefaultTableSaysHowToBuildIt) {
  const ScratchDir dir;
  const ScopedEnv env("LUMEN_DEFAULT_TABLE", dir.file("none.vec"));
  try {
    load("default");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("make-default-table.sh"), std::string::npos) << e.what();
  }
}

}  // namespace test_load_table
