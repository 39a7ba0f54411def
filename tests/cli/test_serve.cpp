// `lumen serve` on a shared machine: a port another server listens on is bad input (exit 1), never shared.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

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
