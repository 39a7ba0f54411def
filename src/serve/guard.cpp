#include "lumen/serve/guard.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <cctype>
#include <fmt/format.h>

#include "lumen/core/text_fold.hpp"
#include "lumen/serve/api.hpp"

namespace lumen::serve {

namespace {

std::string lower(const std::string& s) { return ascii_lower(s); }  // header names and hosts are ASCII

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// The values of header NAME, in the order received.
std::vector<std::string> values(const RequestHead& head, const std::string& name) {
  std::vector<std::string> out;
  for (const auto& [k, v] : head.headers)
    if (lower(k) == name) out.push_back(v);
  return out;
}

constexpr const char* kApiPrefix = "/api/";

bool is_api(const std::string& path) { return path.rfind(kApiPrefix, 0) == 0; }

bool is_address_literal(const std::string& name) {
  unsigned char buf[16];
  return inet_pton(AF_INET, name.c_str(), buf) == 1 || inet_pton(AF_INET6, name.c_str(), buf) == 1;
}

// The name of a Host header ("[::1]:80" -> "::1"), or "" when it is malformed.
std::string host_name(const std::string& header) {
  std::string name, port;
  if (!header.empty() && header[0] == '[') {
    const auto close = header.find(']');
    if (close == std::string::npos) return "";
    name = header.substr(1, close - 1);
    const std::string rest = header.substr(close + 1);
    if (!rest.empty()) {
      if (rest[0] != ':') return "";
      port = rest.substr(1);
      if (port.empty()) return "";
    }
  } else {
    const auto colon = header.find(':');
    name = header.substr(0, colon);
    if (colon != std::string::npos) {
      port = header.substr(colon + 1);
      if (port.empty()) return "";
    }
  }
  if (port.size() > 5 || !std::all_of(port.begin(), port.end(), [](unsigned char c) { return std::isdigit(c); }))
    return "";
  return lower(name);
}

Refusal refuse(int status, std::string message, std::string allow = "") {
  return Refusal{status, std::move(message), std::move(allow)};
}

}  // namespace

std::string allowed_methods(const std::string& path) {
  if (!is_api(path)) return "GET, HEAD";
  return Api::starts_work(path.substr(std::string(kApiPrefix).size())) ? "POST" : "GET, POST";
}

bool is_own_host(const std::string& host_header, const std::string& bound_host) {
  const std::string name = host_name(host_header);
  if (name.empty()) return false;
  if (name == "localhost" || name == "127.0.0.1" || name == "::1") return true;
  std::string bound = lower(bound_host);
  if (bound.size() > 1 && bound.front() == '[' && bound.back() == ']') bound = bound.substr(1, bound.size() - 2);
  if (name == bound) return true;
  // Bound to every address: the client may use any of this machine's addresses, and an address cannot be rebound.
  const bool wildcard = bound.empty() || bound == "0.0.0.0" || bound == "::" || bound == "*";
  return wildcard && is_address_literal(name);
}

std::optional<Refusal> check_request(const RequestHead& head, const GuardOptions& options) {
  const auto hosts = values(head, "host");
  if (hosts.size() != 1)
    return refuse(400, hosts.empty() ? "the request has no Host header" : "more than one Host header");
  if (!is_own_host(hosts[0], options.host)) {
    // The names it answers to, each once: "localhost or 127.0.0.1", and the bound host when it is another.
    const bool other = !options.host.empty() && options.host != "localhost" && options.host != "127.0.0.1";
    return refuse(403, fmt::format("Host '{}' is not this server (use localhost{})", hosts[0],
                                   other ? fmt::format(", 127.0.0.1 or {}", options.host) : " or 127.0.0.1"));
  }
  // A browser sends Origin with every cross-origin request and with same-origin POSTs: it must be this page's.
  const auto origins = values(head, "origin");
  if (origins.size() > 1) return refuse(400, "more than one Origin header");
  if (!origins.empty()) {
    // The page's own origin is http://HOST; a browser leaves out the default port that Host may carry.
    const std::string origin = lower(origins[0]), own = "http://" + lower(hosts[0]);
    if (origin != own && origin + ":80" != own)
      return refuse(403, fmt::format("a request from another site ('{}') is refused", origins[0]));
  }

  const std::string allow = allowed_methods(head.path);
  const bool api = is_api(head.path);
  const bool allowed = head.method == "GET" ? allow.find("GET") != std::string::npos
                                            : (head.method == "HEAD" && !api) || (head.method == "POST" && api);
  if (!allowed)
    return refuse(405, fmt::format("{} is not allowed on {} (allowed: {})", head.method, head.path, allow), allow);
  if (head.method != "POST") return std::nullopt;

  // A page may POST a form or text/plain to any site without asking; JSON it may not.
  const auto types = values(head, "content-type");
  const std::string type = types.size() == 1 ? lower(trim(types[0].substr(0, types[0].find(';')))) : "";
  if (type != "application/json") return refuse(415, "a POST must have Content-Type: application/json");

  // The body's length must be known and within the bound before it is read; a chunked one is counted as it comes.
  const auto lengths = values(head, "content-length");
  const auto encodings = values(head, "transfer-encoding");
  if (lengths.size() + encodings.size() > 1)
    return refuse(400, "the body's length is given more than once (Content-Length and Transfer-Encoding)");
  if (!encodings.empty()) {
    if (lower(trim(encodings[0])) != "chunked")
      return refuse(501, fmt::format("Transfer-Encoding '{}' is not supported (only chunked)", encodings[0]));
    return std::nullopt;
  }
  if (lengths.empty()) return refuse(411, "a POST needs a Content-Length or a chunked body");
  const std::string& n = lengths[0];
  if (n.empty() || n.size() > 19 || !std::all_of(n.begin(), n.end(), [](unsigned char c) { return std::isdigit(c); }))
    return refuse(400, fmt::format("Content-Length '{}' is not a number of bytes", n));
  if (std::stoull(n) > options.max_body_bytes)
    return refuse(413, fmt::format("the body ({} bytes) is longer than {} bytes", n, options.max_body_bytes));
  return std::nullopt;
}

}  // namespace lumen::serve
