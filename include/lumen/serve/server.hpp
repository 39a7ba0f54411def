#pragma once
// `lumen serve`: an HTTP server (cpp-httplib) for the JSON API and the front-end compiled into the binary.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lumen/serve/api.hpp"

namespace lumen::serve {

struct ServerOptions {
  std::string host = "127.0.0.1";        // loopback unless the user says otherwise
  int port = 8080;                       // 0: any free port (see Server::port())
  std::size_t max_body_bytes = 1 << 16;  // after de-chunking; a longer body is refused (413) as it arrives
  std::size_t threads = 64;        // connections served at once, one thread each; one more is answered 503 at once
  int idle_timeout_ms = 5000;      // for a connection's next request to begin
  int request_timeout_ms = 10000;  // for a request's head and body to arrive whole, however slowly they trickle
};

// The answer to one API request once HTTP has been parsed: status and JSON body, exactly what the server sends.
// Never throws: a bad request is a 4xx with {"error", "status"}; only a bug in lumen gives 500.
struct ApiReply {
  int status = 200;
  nlohmann::json body;
};
// route: ROUTE of /api/ROUTE; query: the decoded query parameters; post_body: a POST's body ("" for GET).
ApiReply answer(Api& api, const std::string& route, const std::vector<std::pair<std::string, std::string>>& query,
                const std::string& post_body);

class Server {
 public:
  Server(Api& api, ServerOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds (throws IoError "port N is in use" if another server listens there: the port is never shared), then
  // serves until stop(). Blocks.
  void run();
  // Binds now and serves on a background thread; returns the bound port.
  int start();
  void stop();       // stops serving and joins the server thread
  void interrupt();  // stops serving without joining: what a signal handler may call
  void wait();       // blocks until the server stops (after start())
  int port() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lumen::serve
