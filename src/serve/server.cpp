#include "lumen/serve/server.hpp"

#include <array>
#include <cerrno>
#include <fmt/format.h>
#include <httplib.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <set>
#include <sys/socket.h>
#include <system_error>
#include <thread>
#include <unistd.h>

#include "connection.hpp"
#include "connection_pool.hpp"
#include "lumen/core/error.hpp"
#include "lumen/serve/assets.hpp"
#include "lumen/serve/guard.hpp"

namespace lumen::serve {

namespace {

// The page runs only its own script and style, talks only to this server, and no other site may frame it.
constexpr const char* kContentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

void send_json(httplib::Response& res, int status, const nlohmann::json& j) {
  res.status = status;
  res.set_content(j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), "application/json");
}

// Query parameters become a JSON object; numbers stay strings and the API converts them. A POST's JSON object
// adds to them.
nlohmann::json params_of(const std::vector<std::pair<std::string, std::string>>& query, const std::string& body) {
  nlohmann::json p = nlohmann::json::object();
  for (const auto& [k, v] : query) p[k] = v;
  if (!body.empty()) {
    nlohmann::json parsed;
    try {
      parsed = nlohmann::json::parse(body);
    } catch (const nlohmann::json::exception& e) {
      throw ApiError(400, fmt::format("malformed JSON body: {}", e.what()));
    }
    if (!parsed.is_object()) throw ApiError(400, "the JSON body must be an object");
    for (auto& [k, v] : parsed.items()) p[k] = v;
  }
  return p;
}

ApiReply error_reply(int status, const std::string& what) { return {status, {{"error", what}, {"status", status}}}; }

// The connection the current thread serves, so that a handler can ask for it to be closed after its answer.
thread_local Connection* t_connection = nullptr;

// After a refusal that left the body unread, what follows on the socket is not a request: close it.
void close_after(httplib::Response& res) {
  if (t_connection != nullptr) t_connection->close_after = true;
  res.set_header("Connection", "close");
}

// httplib accepts connections on its thread and hands each to a task queue; this one runs the hand-over at once,
// so that the server's own pool decides (and answers 503 when it is full) instead of an unbounded queue.
class InlineQueue final : public httplib::TaskQueue {
 public:
  void enqueue(std::function<void()> fn) override { fn(); }
  void shutdown() override {}
};

// httplib's server with lumen's connection handling: the pool, deadlines and byte budgets (connection.hpp).
class HttpServer final : public httplib::Server {
 public:
  HttpServer(const ConnectionLimits& limits, std::size_t threads)
      : limits_(limits), pool_(threads, [this](int fd) { serve(fd); }) {
    new_task_queue = [] { return new InlineQueue; };
  }
  ~HttpServer() override { pool_.shutdown(); }
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  void stop_connections() { pool_.shutdown(); }

 private:
  // Runs on the accepting thread (InlineQueue): never blocks.
  bool process_and_close_socket(socket_t sock) override {
    if (pool_.try_submit(sock)) return true;
    static const std::string busy = [] {
      const std::string body = R"({"error":"the server is busy with other connections; try again","status":503})";
      return fmt::format(
          "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: {}\r\n"
          "Retry-After: 1\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n{}",
          body.size(), body);
    }();
    // A fresh socket's send buffer is empty: this does not block, and a client that reads nothing loses only this.
    (void)::send(sock, busy.data(), busy.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
    // What the client has sent so far is dropped without waiting: close() with unread bytes would send a reset,
    // which can destroy the 503 before it leaves.
    ::shutdown(sock, SHUT_WR);
    std::array<char, 4096> sink{};
    for (int i = 0; i < 16 && ::recv(sock, sink.data(), sink.size(), MSG_DONTWAIT) > 0; ++i) {
    }
    ::close(sock);
    return false;
  }

  void serve(int fd) {
    // httplib writes an answer's head and body separately: without TCP_NODELAY the body waits for the client's
    // delayed ACK (40 ms a request).
    const int yes = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof(yes));
    Connection conn(fd, limits_, pool_.stopping());
    t_connection = &conn;
    try {
      for (std::size_t left = keep_alive_max_count_; left > 0; --left) {
        if (svr_sock_ == INVALID_SOCKET || !conn.wait_for_request()) break;
        conn.begin_request();
        bool closed = false;
        const bool ok = process_request(conn, left == 1, closed, [&conn](httplib::Request&) { conn.head_done(); });
        if (!ok || closed || conn.close_after) break;
      }
    } catch (const std::exception&) {
      // httplib answers a handler's exception itself; anything else ends only this connection.
    }
    t_connection = nullptr;
    conn.close();
  }

  ConnectionLimits limits_;
  ConnectionPool pool_;
};

// Why binding HOST:PORT failed. httplib says only that it did; a second bind on a socket of ours tells
// "in use" (another server listens there) from the other reasons.
std::string bind_failure(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  if (const int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &found); rc != 0)
    return fmt::format("cannot listen on {}:{}: {}", host, port, ::gai_strerror(rc));
  int err = 0;
  for (const addrinfo* ai = found; ai != nullptr; ai = ai->ai_next) {
    const int fd = ::socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
    if (fd < 0) {
      err = errno;
      continue;
    }
    const int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    const bool bound = ::bind(fd, ai->ai_addr, ai->ai_addrlen) == 0;
    err = bound ? 0 : errno;
    ::close(fd);
    if (bound || err == EADDRINUSE) break;
  }
  ::freeaddrinfo(found);
  if (err == EADDRINUSE) return fmt::format("port {} is in use (another server listens on {}:{})", port, host, port);
  if (err == 0) return fmt::format("cannot listen on {}:{}", host, port);
  return fmt::format("cannot listen on {}:{}: {}", host, port, std::generic_category().message(err));
}

ConnectionLimits limits_of(const ServerOptions& o) {
  ConnectionLimits l;
  l.idle = std::chrono::milliseconds(o.idle_timeout_ms);
  l.request = std::chrono::milliseconds(o.request_timeout_ms);
  l.body_bytes = o.max_body_bytes;
  return l;
}

std::string route_of(const httplib::Request& req) { return req.matches.size() > 1 ? req.matches[1].str() : ""; }

}  // namespace

ApiReply answer(Api& api, const std::string& route, const std::vector<std::pair<std::string, std::string>>& query,
                const std::string& post_body) {
  // message(), not what(): a user's word may hold a NUL byte, and the message must not stop there.
  try {
    return {200, api.handle(route, params_of(query, post_body))};
  } catch (const ApiError& e) {
    return error_reply(e.status(), e.message());
  } catch (const lumen::UsageError& e) {
    return error_reply(400, e.message());
  } catch (const lumen::InputError& e) {
    return error_reply(422, e.message());
  } catch (const std::exception& e) {
    return error_reply(500, fmt::format("internal error: {}", e.what()));
  }
}

struct Server::Impl {
  Api& api;
  ServerOptions options;
  GuardOptions guard;
  HttpServer http;
  std::thread thread;
  int bound_port = 0;

  Impl(Api& a, ServerOptions o)
      : api(a),
        options(std::move(o)),
        guard{options.host, options.max_body_bytes},
        http(limits_of(options), options.threads) {
    http.set_payload_max_length(options.max_body_bytes);
    http.set_keep_alive_max_count(100);
    // SO_REUSEADDR only (httplib's default adds SO_REUSEPORT, with which a second server shares the port).
    http.set_socket_options([](socket_t sock) {
      const int yes = 1;
      ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    });
    http.set_default_headers({{"X-Content-Type-Options", "nosniff"},
                              {"X-Frame-Options", "DENY"},
                              {"Content-Security-Policy", kContentSecurityPolicy},
                              {"Referrer-Policy", "no-referrer"}});

    // Before the body is read: Host, Origin, method, Content-Type and the body's declared length.
    http.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      const RequestHead head{req.method, req.path, {req.headers.begin(), req.headers.end()}};
      const auto refusal = check_request(head, guard);
      if (!refusal) return httplib::Server::HandlerResponse::Unhandled;
      close_after(res);
      if (!refusal->allow.empty()) res.set_header("Allow", refusal->allow);
      send_json(res, refusal->status, {{"error", refusal->message}, {"status", refusal->status}});
      return httplib::Server::HandlerResponse::Handled;
    });

    const std::string api_route = R"(/api/(.*))";
    http.Get(api_route, [this](const httplib::Request& req, httplib::Response& res) {
      const std::vector<std::pair<std::string, std::string>> query(req.params.begin(), req.params.end());
      const ApiReply r = answer(api, route_of(req), query, std::string());
      send_json(res, r.status, r.body);
    });
    // The body is read here, chunk by chunk, and refused as soon as it passes the bound: a chunked body states no
    // length up front.
    http.Post(
        api_route, httplib::Server::HandlerWithContentReader([this](const httplib::Request& req, httplib::Response& res,
                                                                    const httplib::ContentReader& read) {
          std::string body;
          bool too_long = false;
          const bool whole = read([&](const char* data, std::size_t n) {
            if (n > options.max_body_bytes - body.size()) {
              too_long = true;
              return false;
            }
            body.append(data, n);
            return true;
          });
          if (!whole) {
            close_after(res);
            const int status = too_long ? 413 : (t_connection != nullptr && t_connection->timed_out() ? 408 : 400);
            const std::string what =
                too_long ? fmt::format("the body is longer than {} bytes", options.max_body_bytes)
                         : (status == 408 ? "the body did not arrive in time" : "the body is cut short or malformed");
            send_json(res, status, {{"error", what}, {"status", status}});
            return;
          }
          const std::vector<std::pair<std::string, std::string>> query(req.params.begin(), req.params.end());
          const ApiReply r = answer(api, route_of(req), query, body);
          send_json(res, r.status, r.body);
        }));

    http.Get(R"(/.*)", [](const httplib::Request& req, httplib::Response& res) {
      std::string path = req.path == "/" ? "/index.html" : req.path;
      const auto& files = assets();
      auto it = files.find(path);
      if (it == files.end()) {
        send_json(res, 404, {{"error", "not found: " + req.path}, {"status", 404}});
        return;
      }
      res.set_content(std::string(it->second), std::string(content_type(path)));
      res.set_header("Cache-Control", "no-cache");
    });
    // httplib's own refusals (a malformed head, a request cut off at its deadline or its byte budget) come here
    // with no body; what follows them on the socket is not a request.
    http.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
      if (!res.body.empty()) return;
      close_after(res);
      if (t_connection != nullptr && t_connection->timed_out()) res.status = 408;
      std::string what = fmt::format("HTTP {}", res.status);
      if (res.status == 408) what = "the request did not arrive in time";
      // httplib refuses a method it does not know as a malformed request; it is a method this server does not take.
      static const std::set<std::string> known = {"GET",     "HEAD",    "POST",  "PUT",   "DELETE",
                                                  "CONNECT", "OPTIONS", "TRACE", "PATCH", "PRI"};
      if (res.status == 400 && !req.method.empty() && known.count(req.method) == 0 &&
          req.method.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ") == std::string::npos) {
        const std::string path = req.target.substr(0, req.target.find('?'));
        res.status = 405;
        res.set_header("Allow", allowed_methods(path));
        what = fmt::format("{} is not allowed (allowed: {})", req.method, allowed_methods(path));
      }
      send_json(res, res.status, {{"error", what}, {"status", res.status}});
    });
  }

  void bind() {
    if (options.port == 0) {
      bound_port = http.bind_to_any_port(options.host);
      if (bound_port <= 0) throw IoError(bind_failure(options.host, 0));
    } else {
      if (!http.bind_to_port(options.host, options.port)) throw IoError(bind_failure(options.host, options.port));
      bound_port = options.port;
    }
  }
};

Server::Server(Api& api, ServerOptions options) : impl_(std::make_unique<Impl>(api, std::move(options))) {}

Server::~Server() { stop(); }

void Server::run() {
  impl_->bind();
  impl_->http.listen_after_bind();
  impl_->http.stop_connections();
}

int Server::start() {
  impl_->bind();
  impl_->thread = std::thread([this] { impl_->http.listen_after_bind(); });
  return impl_->bound_port;
}

void Server::stop() {
  impl_->http.stop();
  if (impl_->thread.joinable() && impl_->thread.get_id() != std::this_thread::get_id()) impl_->thread.join();
  impl_->http.stop_connections();
}

void Server::interrupt() { impl_->http.stop(); }

void Server::wait() {
  if (impl_->thread.joinable()) impl_->thread.join();
  impl_->http.stop_connections();
}

int Server::port() const { return impl_->bound_port; }

}  // namespace lumen::serve
