// libFuzzer target: whatever lies under a table cache entry's name (the input's bytes, the good entry cut short or
// with bytes changed, a symlink to a file holding the input, a FIFO), opening the table through the cache gives
// the source's own table, leaves a regular entry behind, and writes through nothing.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "lumen/core/error.hpp"
#include "lumen/io/open.hpp"

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void put(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "table cache: %s\n", what);
  std::abort();
}

struct Setup {
  std::string dir, source, entry, good, planted;
  lumen::io::OpenOptions options;
  lumen::Table truth;
  Setup() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "lumen-fuzz-cache-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) fail("no scratch directory");
    dir = tmpl;
    source = dir + "/t.vec";
    put(source, "4 3\nthe 0.5 -1 2\ncat 1e-3 4 -0.25\nsat 3 3 3\non -7 0 0.125\n");
    options.cache_dir = dir + "/cache";
    options.threads = 1;
    truth = lumen::io::open_table(source, options);
    for (const auto& e : std::filesystem::directory_iterator(options.cache_dir)) entry = e.path().string();
    good = slurp(entry);
    planted = dir + "/planted";
    if (entry.empty() || good.empty()) fail("no entry written");
  }
  ~Setup() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  Setup(const Setup&) = delete;
  Setup& operator=(const Setup&) = delete;
};

bool same_table(const lumen::Table& a, const lumen::Table& b) {
  if (a.V() != b.V() || a.d() != b.d() || a.vocab.tokens() != b.vocab.tokens()) return false;
  for (std::size_t r = 0; r < a.V(); ++r)
    for (std::size_t c = 0; c < a.d(); ++c)
      if (a.E.at(r, c) != b.E.at(r, c)) return false;  // the source has no NaN
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Setup s;
  const std::string input(reinterpret_cast<const char*>(data), size);
  std::error_code ec;
  std::filesystem::remove(s.entry, ec);
  const int mode = size == 0 ? 0 : data[0] % 4;
  if (mode == 0) {
    put(s.entry, input);  // any bytes at all
  } else if (mode == 1) {
    std::string bytes = s.good;  // the good entry, cut at a length the input names and changed where it says
    if (size >= 3) bytes.resize((static_cast<std::size_t>(data[1]) << 8 | data[2]) % (bytes.size() + 1));
    for (std::size_t i = 3; i + 1 < size && !bytes.empty(); i += 2)
      bytes[(data[i] * 131u) % bytes.size()] ^= static_cast<char>(data[i + 1]);
    put(s.entry, bytes);
  } else if (mode == 2) {
    put(s.planted, input);  // a symlink to somebody's file: it must come out as it went in
    std::filesystem::create_symlink(s.planted, s.entry, ec);
  } else if (::mkfifo(s.entry.c_str(), 0600) != 0) {
    fail("mkfifo");
  }
  lumen::io::LoadReport report;
  const lumen::Table t = lumen::io::open_table(s.source, s.options, report);
  if (!same_table(t, s.truth)) fail("another table was given");
  struct stat st {};
  if (::lstat(s.entry.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) fail("the entry is not a regular file after");
  if (mode == 2 && slurp(s.planted) != input) fail("a symlink was written through");
  if (!report.warnings.empty()) fail(report.warnings[0].c_str());
  return 0;
}
