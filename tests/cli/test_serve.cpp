// `lumen serve` on a shared machine: a port another server listens on is bad input (exit 1), never shared.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.hpp"

TEST(CliServe, APortInUseIsBadInputNotShared) {
  // The other server: a listening socket with SO_REUSEPORT, as httplib's default options set it, so that a server
  // setting the same would share the port (and the requests) with it.
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  const int yes = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &yes, sizeof(yes));
  sockaddr_in a{};
  a.sin_family = AF_INET;
  ::inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
  socklen_t len = sizeof(a);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
  ASSERT_EQ(::listen(fd, 4), 0);
  ASSERT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len), 0);
  const int port = ntohs(a.sin_port);

  lumen_cli::CliOptions o;
  o.timeout_s = 30;  // a server that shares the port would serve until killed
  const auto r = lumen_cli::run_cli(
      "serve " + std::string(LUMEN_DATA_DIR) + "/formats/test_glove.txt --port " + std::to_string(port), o);
  ::close(fd);
  EXPECT_EQ(r.code, 1) << r.cmdline << "\n" << r.out << r.err;
  EXPECT_NE(r.err.find("port " + std::to_string(port) + " is in use"), std::string::npos) << r.err;
}

TEST(CliServe, ModelServesItsEAndABadModelIsBadInput) {
  const std::string fixture = std::string(LUMEN_SOURCE_DIR) + "/tests/data/model/gpt2";
  lumen_cli::CliOptions o;
  o.timeout_s = 5;  // serves until stopped: timeout(1) stops it once its first line is out
  const auto r = lumen_cli::run_cli("serve --model " + fixture + " --port 0 --json", o);
  const auto nl = r.out.find('\n');
  ASSERT_NE(nl, std::string::npos) << r.cmdline << "\n" << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out.substr(0, nl));
  EXPECT_EQ(j["model"], fixture);
  EXPECT_EQ(j["V"], 300);  // no TABLE: the model's E (300 x 32) is the table
  EXPECT_EQ(j["d"], 32);
  const auto bad = lumen_cli::run_cli("serve --model /nonexistent/ckpt --port 0", o);
  EXPECT_EQ(bad.code, 1) << bad.err;
  EXPECT_NE(bad.err.find("/nonexistent/ckpt"), std::string::npos) << bad.err;
  const auto help = lumen_cli::run_cli("serve --help");
  EXPECT_NE(help.out.find("lumen serve --model models/gpt2"), std::string::npos) << help.out;
}

// serve lives in lumen-serve, so that every other command starts without loading the HTTP stack (cpp-httplib,
// OpenSSL); LAPACKE comes from its static archive, so no second LAPACK is loaded either. `lumen serve ...` is
// handed on whole, global options and --help included.
TEST(CliServe, RunsInItsOwnExecutableAndLumenLoadsNoHttpStack) {
  const std::string lumen = LUMEN_BINARY_DIR "/lumen", serve = LUMEN_BINARY_DIR "/lumen-serve";
  const std::string libs = lumen_cli::shell("ldd " + lumen + " 2>&1");
  ASSERT_NE(libs.find("libopenblas"), std::string::npos) << libs;  // ldd ran and listed lumen's libraries
  EXPECT_EQ(libs.find("httplib"), std::string::npos) << libs;
  EXPECT_EQ(libs.find("libssl"), std::string::npos) << libs;
  EXPECT_EQ(libs.find("liblapacke"), std::string::npos) << libs;
  EXPECT_NE(lumen_cli::shell("ldd " + serve + " 2>&1").find("httplib"), std::string::npos);
  const auto help = lumen_cli::run_cli("--threads 1 serve --help");
  EXPECT_EQ(help.code, 0) << help.err;
  EXPECT_NE(help.out.find("lumen serve --model models/gpt2"), std::string::npos) << help.out;
  const auto listed = lumen_cli::run_cli("--help");  // listed with its description, though lumen only hands it on
  EXPECT_NE(listed.out.find("serve                       The explorer:"), std::string::npos) << listed.out;
}

TEST(CliServe, ALumenWithoutLumenServeBesideItSaysSo) {
  const auto dir = std::filesystem::temp_directory_path() / ("lumen-serve-missing-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(LUMEN_BINARY_DIR "/lumen", dir / "lumen");
  int code = -1;
  const std::string out = lumen_cli::shell("'" + (dir / "lumen").string() + "' serve --port 0 2>&1", &code);
  std::filesystem::remove_all(dir);
  EXPECT_NE(out.find("lumen-serve"), std::string::npos) << out;
  EXPECT_NE(out.find("beside lumen"), std::string::npos) << out;
  EXPECT_EQ(code, 3) << out;
}
