// libFuzzer target: one API request of `lumen serve` after HTTP parsing, i.e. what a stranger on the socket
// controls: the route, the query parameters and a POST body. Input layout: line 1 the route, line 2 the query
// ("k=v&k2=v2"), the rest the body. The answer must be a 2xx or 4xx with a JSON body; a 500 is a bug in lumen
// (an exception the API did not turn into a client error) and aborts. An unknown route's error names the route
// whole, NUL bytes included. The same query pairs, read as headers, go through the guard that judges a request's
// head (Host, Origin, method, body framing): it must answer, and a refusal is a 4xx/5xx with Allow only on a 405.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lumen/core/toy.hpp"
#include "lumen/serve/api.hpp"
#include "lumen/serve/guard.hpp"
#include "lumen/serve/server.hpp"

namespace {

lumen::serve::Api& api() {
  // Small bounds keep each request cheap; the toy table is both the main table and "toy".
  static lumen::serve::Api instance = [] {
    lumen::serve::Limits l;
    l.max_k = 50;
    l.max_map_points = 40;
    l.max_text_bytes = 512;
    return lumen::serve::Api(lumen::toy_table(), l);
  }();
  return instance;
}

std::string_view take_line(std::string_view& s) {
  const std::size_t nl = s.find('\n');
  const std::string_view line = s.substr(0, nl);
  s = nl == std::string_view::npos ? std::string_view() : s.substr(nl + 1);
  return line;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  const std::string route(take_line(in));
  std::string_view q = take_line(in);
  std::vector<std::pair<std::string, std::string>> query;
  while (!q.empty()) {
    const std::size_t amp = q.find('&');
    const std::string_view kv = q.substr(0, amp);
    const std::size_t eq = kv.find('=');
    query.emplace_back(std::string(kv.substr(0, eq)),
                       eq == std::string_view::npos ? "" : std::string(kv.substr(eq + 1)));
    q = amp == std::string_view::npos ? std::string_view() : q.substr(amp + 1);
  }
  const lumen::serve::ApiReply r = lumen::serve::answer(api(), route, query, std::string(in));
  // What the server sends: the JSON text (invalid UTF-8 replaced, as send_json does).
  const std::string text = r.body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  const bool client_error = r.status >= 400 && r.status < 500;
  if (r.status != 200 && !client_error) {
    std::fprintf(stderr, "status %d for route '%s': %s\n", r.status, route.c_str(), text.c_str());
    std::abort();
  }
  if (client_error && !(r.body.contains("error") && r.body["error"].is_string())) {
    std::fprintf(stderr, "status %d without an error message: %s\n", r.status, text.c_str());
    std::abort();
  }
  // Messages are whole: what() would stop at a NUL byte of the route.
  if (r.status == 404 && route.find('\0') != std::string::npos &&
      r.body["error"].get<std::string>().find(route) == std::string::npos) {
    std::fprintf(stderr, "the error does not name the whole route: %s\n", text.c_str());
    std::abort();
  }

  for (const char* method : {"GET", "POST", "PUT"}) {
    const lumen::serve::RequestHead head{method, "/api/" + route, query};
    const auto refusal = lumen::serve::check_request(head, lumen::serve::GuardOptions{});
    if (refusal && (refusal->status < 400 || refusal->status > 599 || refusal->message.empty() ||
                    refusal->allow.empty() != (refusal->status != 405))) {
      std::fprintf(stderr, "guard refusal %d '%s' (Allow '%s')\n", refusal->status, refusal->message.c_str(),
                   refusal->allow.c_str());
      std::abort();
    }
  }
  return 0;
}
