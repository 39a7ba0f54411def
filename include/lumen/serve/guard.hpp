#pragma once
// What the explorer refuses once it has a request's head and before it reads the body: requests another site
// makes a browser send (a Host that is not this server: DNS rebinding; a cross-origin Origin; a POST that is not
// JSON, which a page may send without asking), methods a path does not take, and bodies it will not read (longer
// than the bound, or framed ambiguously). Independent of HTTP parsing, so tests and the fuzz target call it.
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lumen::serve {

// The parts of a request the guard judges: method, path (without the query) and the headers as received.
struct RequestHead {
  std::string method;
  std::string path;
  std::vector<std::pair<std::string, std::string>> headers;  // names in any case; repeats kept
};

// Why a request is refused: its status, a message for the page, and for a 405 the methods the path takes.
struct Refusal {
  int status = 400;
  std::string message;
  std::string allow;  // the Allow header of a 405; "" otherwise
};

struct GuardOptions {
  std::string host = "127.0.0.1";  // the address the server is bound to; a wildcard accepts any address literal
  std::size_t max_body_bytes = 1 << 16;
};

// std::nullopt lets the request through; a chunked body is then still bounded while it is read.
std::optional<Refusal> check_request(const RequestHead& head, const GuardOptions& options);

// The methods PATH takes, as an Allow header lists them.
std::string allowed_methods(const std::string& path);

// Whether a Host header names this server: a loopback name, the bound host, or (bound to a wildcard) any address
// literal, which no DNS answer can rebind. The port is not compared; it must be digits.
bool is_own_host(const std::string& host_header, const std::string& bound_host);

}  // namespace lumen::serve
