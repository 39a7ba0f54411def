// Output directories (issue #35): lies_within() and check_outputs_apart() with directories replaced as a whole,
// AtomicDir (built beside the target, put in its place, nothing of an older directory left, nothing left on an
// error or a signal) and temp_files' registered directories.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>

#include "lumen/core/atomic_dir.hpp"
#include "lumen/core/atomic_file.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/file_identity.hpp"
#include "lumen/core/temp_files.hpp"
#include "support/temp_dir.hpp"

namespace lumen {
namespace test_atomic_dir {

namespace fs = std::filesystem;

using test::read_file;

struct Dir : test::TempDir {
  Dir() : TempDir("lumen-atomic-dir") {}
};

const std::vector<std::string> kNames{"config.json", "model.safetensors", "encoder.json", "tokenizer.json"};

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(FileIdentity, LiesWithinSeesThroughLinksAndSpellings) {
  Dir d;
  fs::create_directories(d.p / "m" / "sub");
  std::ofstream(d / "m/config.json") << "{}";
  std::ofstream(d / "elsewhere.txt") << "x";
  fs::create_directory_symlink("m", d.p / "link");
  EXPECT_TRUE(lies_within(d / "m/config.json", d / "m"));
  EXPECT_TRUE(lies_within(d / "m/sub/deeper/new.bin", d / "m"));  // not there yet: its directories decide
  EXPECT_TRUE(lies_within(d / "m", d / "m"));
  EXPECT_TRUE(lies_within(d / "link/config.json", d / "m"));  // through a symlink to the directory
  EXPECT_TRUE(lies_within(d / "m/config.json", d / "link/"));
  EXPECT_TRUE(lies_within(d / "m/sub/../config.json", d / "./m"));
  EXPECT_FALSE(lies_within(d / "elsewhere.txt", d / "m"));
  EXPECT_FALSE(lies_within(d / "m", d / "m/sub"));
  EXPECT_FALSE(lies_within(d / "mm/x", d / "m"));                       // a prefix of the name is not a parent
  EXPECT_FALSE(lies_within(d / "m/config.json", d / "elsewhere.txt"));  // a file holds nothing
  // A directory not made yet: by its resolved path.
  EXPECT_TRUE(lies_within(d / "new/x.ckpt", d / "new"));
  EXPECT_TRUE(lies_within(d / "new/x.ckpt", d / "new/"));
  EXPECT_FALSE(lies_within(d / "newer/x.ckpt", d / "new"));
  const fs::path cwd = fs::current_path();
  fs::current_path(d.p);
  EXPECT_TRUE(lies_within("m/config.json", "./m"));
  EXPECT_TRUE(lies_within("./new/a", d / "new"));
  fs::current_path(cwd);
}

TEST(FileIdentity, CheckOutputsApartKeepsInputsOutOfOutputDirectories) {
  Dir d;
  fs::create_directory(d.p / "cdir");
  std::ofstream(d / "cdir/config.json") << "{}";
  std::ofstream(d / "c.txt") << "text";
  // `train gpt cdir/config.json -o cdir`: the input inside the directory replaced.
  std::string m = message_of([&] { check_outputs_apart({d / "cdir/config.json"}, {d / "cdir.ckpt"}, {d / "cdir"}); });
  EXPECT_NE(m.find(d / "cdir/config.json"), std::string::npos) << m;
  EXPECT_NE(m.find("output directory " + d / "cdir"), std::string::npos) << m;
  EXPECT_NE(m.find("choose another output directory"), std::string::npos) << m;
  // The input is the directory's very path (a file there), or the directory itself.
  EXPECT_THROW(check_outputs_apart({d / "c.txt"}, {}, {d / "./c.txt"}), UsageError);
  EXPECT_THROW(check_outputs_apart({d / "cdir"}, {}, {d / "cdir"}), UsageError);
  // An output file inside the directory: gone when it is replaced.
  m = message_of([&] { check_outputs_apart({d / "c.txt"}, {d / "cdir/x.ckpt"}, {d / "cdir"}); });
  EXPECT_NE(m.find(d / "cdir/x.ckpt"), std::string::npos) << m;
  EXPECT_THROW(check_outputs_apart({d / "c.txt"}, {d / "new/x.ckpt"}, {d / "new"}), UsageError);
  // Two directories, one inside the other.
  EXPECT_THROW(check_outputs_apart({}, {}, {d / "a", d / "a/b"}), UsageError);
  // Apart: the usual layout (corpus, OUT.ckpt beside OUT).
  EXPECT_NO_THROW(check_outputs_apart({d / "c.txt"}, {d / "m.ckpt"}, {d / "m"}));
  EXPECT_NO_THROW(check_outputs_apart({d / "c.txt"}, {d / "cdir.ckpt"}, {d / "cdir"}));
}

TEST(TempFiles, RemoveAllEmptiesAndRemovesARegisteredDirectory) {
  Dir d;
  const std::size_t before = temp_files::count();
  fs::create_directory(d.p / "t.tmp-1");
  std::ofstream(d / "t.tmp-1/a") << "a";
  std::ofstream(d / "t.tmp-1/b") << "b";
  const int slot = temp_files::add_directory((d / "t.tmp-1").c_str());
  EXPECT_EQ(temp_files::count(), before + 1);
  temp_files::remove_all();  // what the CLI's SIGINT/SIGTERM handler does
  EXPECT_FALSE(fs::exists(d.p / "t.tmp-1"));
  temp_files::release(slot);
  EXPECT_EQ(temp_files::count(), before);
}

TEST(AtomicDir, ANewDirectoryAppearsOnlyOnCommit) {
  Dir d;
  const std::size_t before = temp_files::count();
  {
    AtomicDir out(d / "m", kNames);
    write_file_atomic(out.file("config.json"), "{}");
    EXPECT_FALSE(fs::exists(d.p / "m"));
    EXPECT_EQ(d.count(), 1u);  // the temporary directory
    out.commit();
    EXPECT_EQ(temp_files::count(), before);
  }
  EXPECT_EQ(d.names(), std::vector<std::string>{"m"});
  EXPECT_EQ(read_file(d / "m/config.json"), "{}");
}

TEST(AtomicDir, ReplacesAnOlderDirectoryWhole) {
  Dir d;
  fs::create_directory(d.p / "m");
  std::ofstream(d / "m/encoder.json") << "old tokenizer";
  std::ofstream(d / "m/config.json") << "old";
  {
    AtomicDir out(d / "m", kNames);
    write_file_atomic(out.file("config.json"), "new");
    write_file_atomic(out.file("tokenizer.json"), "words");
    EXPECT_EQ(read_file(d / "m/config.json"), "old");  // untouched until commit
    out.commit();
  }
  EXPECT_EQ(d.names(), std::vector<std::string>{"m"});  // no temporary, no old directory beside it
  EXPECT_FALSE(fs::exists(d.p / "m/encoder.json"));     // the older tokenizer's file is gone
  EXPECT_EQ(read_file(d / "m/config.json"), "new");
  EXPECT_EQ(read_file(d / "m/tokenizer.json"), "words");
}

TEST(AtomicDir, AnErrorOrASignalBeforeCommitLeavesTheTargetAsItWas) {
  Dir d;
  fs::create_directory(d.p / "m");
  std::ofstream(d / "m/config.json") << "old";
  const std::size_t before = temp_files::count();
  try {
    AtomicDir out(d / "m", kNames);
    write_file_atomic(out.file("model.safetensors"), "half");
    throw std::runtime_error("failed half way");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(d.names(), std::vector<std::string>{"m"});
  EXPECT_EQ(read_file(d / "m/config.json"), "old");
  EXPECT_EQ(temp_files::count(), before);
  {
    AtomicDir out(d / "new", kNames);
    write_file_atomic(out.file("model.safetensors"), "half");
    AtomicFile f(out.file("config.json"));  // a file being written in it when the signal comes
    f.write("{");
    temp_files::remove_all();  // the CLI's handler
    EXPECT_EQ(d.names(), std::vector<std::string>{"m"});
  }
  EXPECT_EQ(temp_files::count(), before);
}

TEST(AtomicDir, RefusesToDeleteWhatItDidNotWrite) {
  Dir d;
  fs::create_directories(d.p / "m");
  std::ofstream(d / "m/config.json") << "old";
  std::ofstream(d / "m/notes.txt") << "mine";
  std::string m = message_of([&] { AtomicDir out(d / "m", kNames); });
  EXPECT_NE(m.find("notes.txt"), std::string::npos) << m;
  fs::remove(d.p / "m/notes.txt");
  fs::create_directory(d.p / "m/sub");
  m = message_of([&] { AtomicDir::check_replaceable(d / "m", kNames); });
  EXPECT_NE(m.find("sub"), std::string::npos) << m;
  std::ofstream(d / "file") << "x";
  EXPECT_THROW(AtomicDir::check_replaceable(d / "file", kNames), UsageError);
  EXPECT_EQ(read_file(d / "m/config.json"), "old");
  EXPECT_EQ(d.names(), (std::vector<std::string>{"file", "m"}));
}

TEST(AtomicDir, ASymlinkStaysAndTheDirectoryItLeadsToIsReplaced) {
  Dir d;
  fs::create_directory(d.p / "real");
  std::ofstream(d / "real/encoder.json") << "old";
  fs::create_directory_symlink("real", d.p / "link");
  {
    AtomicDir out(d / "link", kNames);
    write_file_atomic(out.file("config.json"), "new");
    out.commit();
  }
  EXPECT_TRUE(fs::is_symlink(d.p / "link"));
  EXPECT_EQ(read_file(d / "link/config.json"), "new");
  EXPECT_FALSE(fs::exists(d.p / "real/encoder.json"));
  EXPECT_EQ(d.names(), (std::vector<std::string>{"link", "real"}));
}

}  // namespace test_atomic_dir
}  // namespace lumen
