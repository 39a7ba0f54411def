// `lumen convert` never destroys an input (issue #14, item 2): an output that is an input, or two outputs that
// are one file, are refused before anything is written; symlinks, FIFOs and devices are written through, never
// replaced by a regular file; `-` is standard output; Ctrl-C or SIGTERM mid-write leaves no temporary file.
#include <gtest/gtest.h>

#include "cli_run.hpp"
#include "support/fifo_reader.hpp"
#include "support/temp_dir.hpp"

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace test_convert_outputs {

namespace fs = std::filesystem;
using lumen_cli::CliRun;

CliRun lumen(const std::string& args, const std::string& cwd = "") {
  lumen_cli::CliOptions o;
  o.cwd = cwd;
  return lumen_cli::run_cli(args, o);
}

using lumen::test::read_file;

struct Dir : lumen::test::TempDir {
  Dir() : TempDir("lumen-convert-out") {}
};

const std::string kVec = std::string(LUMEN_DATA_DIR) + "/formats/crime-and-punishment.vec";

// What `lumen convert kVec x.txt` writes, for comparing with what went through a link, a FIFO or stdout.
std::string expected_text() {
  Dir d;
  const CliRun r = lumen("convert " + kVec + " " + (d / "x.txt"));
  EXPECT_EQ(r.code, 0) << r.err;
  return read_file(d / "x.txt");
}

TEST(CliConvertOutputs, AnOutputThatIsAnInputIsRefusedAndTheInputUntouched) {
  Dir d;
  fs::copy_file(kVec, d / "a.vec");
  const std::string original = read_file(d / "a.vec");
  fs::create_symlink("a.vec", d / "link.vec");
  fs::create_hard_link(d / "a.vec", d / "hard.vec");
  ASSERT_EQ(lumen("convert a.vec t.npy", d.p.string()).code, 0);  // t.npy + its t.vocab.txt, an input below
  const auto before = d.names();
  const std::string npy = read_file(d / "t.npy"), vocab = read_file(d / "t.vocab.txt");
  const std::string cases[] = {
      "convert a.vec a.vec",                                                // the same name
      "convert ./a.vec a.vec",                                              // spelled differently
      "convert a.vec ../" + d.p.filename().string() + "/a.vec",             // through ..
      "convert a.vec link.vec",                                             // a symlink to the input
      "convert link.vec a.vec",                                             // the input given through a symlink
      "convert a.vec hard.vec",                                             // a hard link: one file, two names
      "convert a.vec x.npy --out-vocab a.vec",                              // --out-vocab naming the input
      "convert a.vec x.tsv --out-vocab ./a.vec",                            // the same for the projector's metadata
      "convert a.vec x.tsv --out-vocab x.tsv",                              // two outputs, one file
      "convert a.vec x.npy --out-vocab ./x.npy",                            // the same for .npy
      "convert t.npy y.npy --out-vocab t.vocab.txt",                        // the vocabulary file read beside t.npy
      "convert t.npy y.npy --vocab t.vocab.txt --out-vocab ./t.vocab.txt",  // --vocab names it
  };
  for (const std::string& c : cases) {
    const CliRun r = lumen(c, d.p.string());
    EXPECT_EQ(r.code, 2) << c << "\n" << r.err;
    EXPECT_NE(r.err.find("same file"), std::string::npos) << c << "\n" << r.err;
    EXPECT_EQ(read_file(d / "a.vec"), original) << c;
    EXPECT_EQ(read_file(d / "t.npy"), npy) << c;
    EXPECT_EQ(read_file(d / "t.vocab.txt"), vocab) << c;
    EXPECT_EQ(d.names(), before) << c << ": something was written";
    EXPECT_TRUE(fs::is_symlink(d / "link.vec")) << c;
  }
}

TEST(CliConvertOutputs, ASymlinkIsWrittenThroughAndStaysALink) {
  Dir d;
  std::ofstream(d / "target.txt") << "old\n";
  fs::create_symlink("target.txt", d / "link.txt");
  fs::create_symlink("not-yet.txt", d / "dangling.txt");  // a link to a file that does not exist yet
  fs::create_directory(d / "sub");
  fs::create_symlink("../link.txt", d / "sub/chain.txt");  // a link to a link
  const std::string want = expected_text();
  for (const char* link : {"link.txt", "dangling.txt", "sub/chain.txt"}) {
    const CliRun r = lumen("convert " + kVec + " " + (d / link));
    ASSERT_EQ(r.code, 0) << link << r.err;
    EXPECT_TRUE(fs::is_symlink(d / link)) << link << " was replaced by a regular file";
    EXPECT_EQ(read_file(d / link), want) << link;
  }
  EXPECT_EQ(read_file(d / "target.txt"), want);
  EXPECT_EQ(read_file(d / "not-yet.txt"), want);
  EXPECT_EQ(d.names(), (std::vector<std::string>{"dangling.txt", "link.txt", "not-yet.txt", "sub", "target.txt"}));
}

TEST(CliConvertOutputs, AFifoIsWrittenThroughNotReplaced) {
  Dir d;
  const std::string fifo = d / "pipe.txt";
  lumen::test::FifoReader pipe(fifo);  // its ends open whatever lumen does, so that neither side's open() blocks
  ASSERT_TRUE(pipe.ok());
  const CliRun r = lumen("convert " + kVec + " " + fifo);
  const std::string got = pipe.finish();
  EXPECT_EQ(r.code, 0) << r.err;
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO was replaced by a regular file";
  EXPECT_EQ(got, expected_text());
  EXPECT_EQ(d.names(), std::vector<std::string>{"pipe.txt"});  // no temporary file beside it
}

TEST(CliConvertOutputs, ADeviceIsWrittenThroughNotReplaced) {
  Dir d;
  // A private null device (as /dev/null), so that a failure cannot touch the system's.
  const std::string dev = d / "null";
  if (::mknod(dev.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) GTEST_SKIP() << "mknod needs root";
  const CliRun r = lumen("convert " + kVec + " " + dev + " --to word2vec-binary");
  EXPECT_EQ(r.code, 0) << r.err;
  struct stat st {};
  ASSERT_EQ(::lstat(dev.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "the device was replaced by a regular file";
  EXPECT_EQ(d.names(), std::vector<std::string>{"null"});
  // A device that refuses the data (as /dev/full) is an error that says so, exit 1.
  const std::string full = d / "full";
  ASSERT_EQ(::mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)), 0);
  const CliRun f = lumen("convert " + kVec + " " + full + " --to glove");
  EXPECT_EQ(f.code, 1) << f.err;
  EXPECT_NE(f.err.find("full"), std::string::npos) << f.err;
  ASSERT_EQ(::lstat(full.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(CliConvertOutputs, DashIsStandardOutputForTextFormats) {
  Dir d;
  const std::string want = expected_text();
  CliRun r = lumen("convert " + kVec + " -");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, want);  // the data alone: the summary line goes to stderr
  EXPECT_NE(r.err.find("291 x 5"), std::string::npos) << r.err;
  r = lumen("convert " + kVec + " - --to glove");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, want.substr(want.find('\n') + 1));  // GloVe: word2vec text without its header
  r = lumen("convert " + kVec + " - --to projector-tsv --out-vocab " + (d / "meta.tsv"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 291);
  EXPECT_TRUE(fs::exists(d / "meta.tsv"));
  // Binary formats, the projector without a metadata file, and --json (stdout holds one thing) are refused.
  for (const char* bad :
       {" - --to word2vec-binary", " - --to safetensors", " - --to npy", " - --to projector-tsv", " - --json"}) {
    r = lumen("convert " + kVec + bad);
    EXPECT_EQ(r.code, 2) << bad << r.err;
    EXPECT_TRUE(r.out.empty()) << bad;
    EXPECT_FALSE(fs::exists("-")) << bad;
  }
  EXPECT_EQ(d.names(), std::vector<std::string>{"meta.tsv"});
  r = lumen("convert " + kVec + " '' --to glove");  // an empty path is no file
  EXPECT_EQ(r.code, 2) << r.err;
}

// A .npy of rows x dim random f32 values: opens at once (mapped) and takes a while to write as text.
void write_big_npy(const std::string& path, std::size_t rows, std::size_t dim) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(rows) + ", " +
                       std::to_string(dim) + "), }";
  const std::size_t total = (10 + header.size() + 1 + 63) / 64 * 64;  // data 64-byte aligned, as NumPy writes it
  header.append(total - 10 - header.size() - 1, ' ');
  header.push_back('\n');
  std::ofstream out(path, std::ios::binary);
  out.write("\x93NUMPY\x01\x00", 8);
  const char len[2] = {static_cast<char>(header.size()), 0};
  out.write(len, 2);
  out << header;
  std::mt19937 rng(1);
  std::normal_distribution<float> normal;
  std::vector<float> row(dim);
  for (std::size_t r = 0; r < rows; ++r) {
    for (float& v : row) v = normal(rng);
    out.write(reinterpret_cast<const char*>(row.data()), static_cast<std::streamsize>(row.size() * sizeof(float)));
  }
}

bool has_temporary(const Dir& d) {
  for (const auto& n : d.names())
    if (n.find(".tmp-") != std::string::npos) return true;
  return false;
}

TEST(CliConvertOutputs, InterruptedWritesLeaveNoTemporaryFile) {
  Dir d;
  write_big_npy(d / "big.npy", 200000, 100);  // 20M values: seconds of text formatting
  for (const int sig : {SIGINT, SIGTERM}) {
    SCOPED_TRACE(strsignal(sig));
    const std::string out = d / "out.txt";
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      const int null = ::open("/dev/null", O_RDWR);
      ::dup2(null, 0);
      ::dup2(null, 1);
      ::execl(LUMEN_BINARY_DIR "/lumen", "lumen", "convert", (d / "big.npy").c_str(), out.c_str(),
              static_cast<char*>(nullptr));
      ::_exit(127);
    }
    // Wait for the temporary file to appear (the write has begun), then interrupt.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    bool writing = false;
    int status = 0;
    while (!(writing = has_temporary(d)) && std::chrono::steady_clock::now() < deadline &&
           ::waitpid(pid, &status, WNOHANG) == 0)
      std::this_thread::sleep_for(std::chrono::microseconds(500));
    ASSERT_TRUE(writing) << "lumen never began writing";
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ::kill(pid, sig);
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    // Dies by the signal, as the shell reports it: 130 for SIGINT, 143 for SIGTERM.
    ASSERT_TRUE(WIFSIGNALED(status)) << "exit " << WEXITSTATUS(status) << ": the write finished before the signal";
    EXPECT_EQ(WTERMSIG(status), sig);
    EXPECT_FALSE(has_temporary(d));
    EXPECT_FALSE(fs::exists(out));
  }
  EXPECT_EQ(d.names(), std::vector<std::string>{"big.npy"});
}

}  // namespace test_convert_outputs
