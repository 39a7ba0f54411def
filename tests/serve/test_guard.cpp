// What the explorer refuses before reading a body: other sites (Host, Origin), methods, non-JSON POSTs, and
// bodies of unknown or excessive length. HTTP-free: the server's tests check the same over a socket.
#include <gtest/gtest.h>

#include "lumen/serve/guard.hpp"

using namespace lumen::serve;

namespace test_guard {

RequestHead head(std::string method, std::string path, std::vector<std::pair<std::string, std::string>> headers) {
  return RequestHead{std::move(method), std::move(path), std::move(headers)};
}

int status_of(const RequestHead& h, const GuardOptions& o = {}) {
  const auto r = check_request(h, o);
  return r ? r->status : 200;
}

const std::pair<std::string, std::string> kJson{"Content-Type", "application/json"};

TEST(Guard, HostMustNameThisServer) {
  EXPECT_TRUE(is_own_host("127.0.0.1:8080", "127.0.0.1"));
  EXPECT_TRUE(is_own_host("localhost:8080", "127.0.0.1"));
  EXPECT_TRUE(is_own_host("LocalHost", "127.0.0.1"));
  EXPECT_TRUE(is_own_host("[::1]:8080", "127.0.0.1"));
  EXPECT_TRUE(is_own_host("explorer.lan:9000", "explorer.lan"));
  // DNS rebinding: a name of the attacker's that resolves to this machine.
  EXPECT_FALSE(is_own_host("evil.example:8080", "127.0.0.1"));
  EXPECT_FALSE(is_own_host("localhost.evil.example", "127.0.0.1"));
  EXPECT_FALSE(is_own_host("10.0.0.5:8080", "127.0.0.1"));
  // Bound to every address: any address literal, still no names.
  EXPECT_TRUE(is_own_host("10.0.0.5:8080", "0.0.0.0"));
  EXPECT_TRUE(is_own_host("[fe80::1]:8080", "::"));
  EXPECT_FALSE(is_own_host("evil.example", "0.0.0.0"));
  // Malformed: no name, a port that is not digits, an unclosed bracket.
  for (const std::string& bad :
       {std::string(), std::string(":80"), std::string("localhost:"), std::string("localhost:8o"),
        std::string("localhost:80:80"), std::string("[::1"), std::string("[::1]x"), std::string("localhost\0", 10)})
    EXPECT_FALSE(is_own_host(bad, "127.0.0.1")) << bad;

  EXPECT_EQ(status_of(head("GET", "/", {})), 400);  // no Host
  EXPECT_EQ(status_of(head("GET", "/", {{"Host", "localhost"}, {"host", "localhost"}})), 400);
  const auto r = check_request(head("GET", "/api/info", {{"Host", "evil.example:8080"}}), {});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 403);
  EXPECT_NE(r->message.find("evil.example"), std::string::npos);
  EXPECT_EQ(status_of(head("GET", "/api/info", {{"Host", "127.0.0.1:8080"}})), 200);
  // the names it answers to, each once
  GuardOptions bound;
  bound.host = "127.0.0.1";
  EXPECT_EQ(check_request(head("GET", "/", {{"Host", "evil.example"}}), bound)->message,
            "Host 'evil.example' is not this server (use localhost or 127.0.0.1)");
  bound.host = "explorer.lan";
  EXPECT_EQ(check_request(head("GET", "/", {{"Host", "evil.example"}}), bound)->message,
            "Host 'evil.example' is not this server (use localhost, 127.0.0.1 or explorer.lan)");
}

TEST(Guard, CrossOriginRequestsAreRefused) {
  EXPECT_EQ(status_of(head("GET", "/api/info", {{"Host", "127.0.0.1:8080"}, {"Origin", "http://evil.example"}})), 403);
  EXPECT_EQ(status_of(head("GET", "/api/info", {{"Host", "127.0.0.1:8080"}, {"Origin", "null"}})), 403);
  EXPECT_EQ(status_of(head("GET", "/api/info", {{"Host", "127.0.0.1:8080"}, {"Origin", "http://127.0.0.1:9999"}})),
            403);
  EXPECT_EQ(status_of(head("GET", "/api/info", {{"Host", "127.0.0.1:8080"}, {"Origin", "https://127.0.0.1:8080"}})),
            403);
  // A browser leaves the default port out of Origin.
  EXPECT_EQ(status_of(head("GET", "/api/info", {{"Host", "localhost:80"}, {"Origin", "http://localhost"}})), 200);
  EXPECT_EQ(status_of(head("GET", "/api/info", {{"Host", "localhost:8080"}, {"Origin", "http://localhost"}})), 403);
  EXPECT_EQ(status_of(head(
                "POST", "/api/row",
                {{"Host", "localhost:8080"}, {"Origin", "http://localhost:8080"}, kJson, {"Content-Length", "2"}})),
            200);
}

TEST(Guard, MethodsAPathDoesNotTakeAre405WithAllow) {
  const std::pair<std::string, std::string> host{"Host", "127.0.0.1"};
  struct Case {
    const char* method;
    const char* path;
    const char* allow;
  };
  for (const Case& c : {Case{"PUT", "/api/row", "GET, POST"}, Case{"DELETE", "/", "GET, HEAD"},
                        Case{"POST", "/index.html", "GET, HEAD"}, Case{"OPTIONS", "/api/info", "GET, POST"},
                        Case{"HEAD", "/api/info", "GET, POST"},
                        // A projection starts a background job: GET (a link, an image) may not start it.
                        Case{"GET", "/api/projection", "POST"}}) {
    const auto r = check_request(head(c.method, c.path, {host}), {});
    ASSERT_TRUE(r) << c.method << " " << c.path;
    EXPECT_EQ(r->status, 405) << c.method << " " << c.path;
    EXPECT_EQ(r->allow, c.allow) << c.method << " " << c.path;
  }
  EXPECT_EQ(allowed_methods("/api/neighbours"), "GET, POST");
  EXPECT_EQ(status_of(head("GET", "/api/neighbours", {host})), 200);
  EXPECT_EQ(status_of(head("HEAD", "/app.js", {host})), 200);
}

TEST(Guard, PostsMustBeJsonWithABoundedBody) {
  const std::pair<std::string, std::string> host{"Host", "127.0.0.1"};
  GuardOptions o;
  o.max_body_bytes = 100;
  auto post = [&](std::vector<std::pair<std::string, std::string>> extra) {
    extra.insert(extra.begin(), host);
    return status_of(head("POST", "/api/row", std::move(extra)), o);
  };
  // What a page may send to any site without asking: a form, text.
  EXPECT_EQ(post({{"Content-Type", "application/x-www-form-urlencoded"}, {"Content-Length", "2"}}), 415);
  EXPECT_EQ(post({{"Content-Type", "text/plain"}, {"Content-Length", "2"}}), 415);
  EXPECT_EQ(post({{"Content-Length", "2"}}), 415);
  EXPECT_EQ(post({{"Content-Type", "Application/JSON; charset=utf-8"}, {"Content-Length", "2"}}), 200);
  // The body's length: stated, within the bound, given once; chunked goes on and is counted as it is read.
  EXPECT_EQ(post({kJson, {"Content-Length", "100"}}), 200);
  EXPECT_EQ(post({kJson, {"Content-Length", "101"}}), 413);
  EXPECT_EQ(post({kJson, {"Content-Length", "99999999999999999999999"}}), 400);
  EXPECT_EQ(post({kJson, {"Content-Length", "-1"}}), 400);
  EXPECT_EQ(post({kJson, {"Content-Length", "1e3"}}), 400);
  EXPECT_EQ(post({kJson}), 411);
  EXPECT_EQ(post({kJson, {"Transfer-Encoding", "chunked"}}), 200);
  EXPECT_EQ(post({kJson, {"Transfer-Encoding", "gzip, chunked"}}), 501);
  EXPECT_EQ(post({kJson, {"Transfer-Encoding", "chunked"}, {"Content-Length", "5"}}), 400);
  EXPECT_EQ(post({kJson, {"Content-Length", "5"}, {"Content-Length", "5"}}), 400);
}

}  // namespace test_guard
