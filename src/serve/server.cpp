#include "lumen/serve/server.hpp"

#include <fmt/format.h>
#include <httplib.h>
#include <thread>

#include "lumen/core/error.hpp"
#include "lumen/serve/assets.hpp"

namespace lumen::serve {

namespace {

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

}  // namespace

ApiReply answer(Api& api, const std::string& route, const std::vector<std::pair<std::string, std::string>>& query,
                const std::string& post_body) {
  try {
    return {200, api.handle(route, params_of(query, post_body))};
  } catch (const ApiError& e) {
    return error_reply(e.status(), e.what());
  } catch (const lumen::UsageError& e) {
    return error_reply(400, e.what());
  } catch (const lumen::InputError& e) {
    return error_reply(422, e.what());
  } catch (const std::exception& e) {
    return error_reply(500, fmt::format("internal error: {}", e.what()));
  }
}

struct Server::Impl {
  Api& api;
  ServerOptions options;
  httplib::Server http;
  std::thread thread;
  int bound_port = 0;

  Impl(Api& a, ServerOptions o) : api(a), options(std::move(o)) {
    http.set_payload_max_length(options.max_body_bytes);
    const std::size_t threads = options.threads == 0 ? 1 : options.threads;
    http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
    http.set_read_timeout(10, 0);
    http.set_write_timeout(10, 0);

    auto api_handler = [this](const httplib::Request& req, httplib::Response& res) {
      const std::string route = req.matches.size() > 1 ? req.matches[1].str() : "";
      const std::vector<std::pair<std::string, std::string>> query(req.params.begin(), req.params.end());
      const ApiReply r = answer(api, route, query, req.method == "POST" ? req.body : std::string());
      send_json(res, r.status, r.body);
    };
    http.Get(R"(/api/([a-z_\-]+))", api_handler);
    http.Post(R"(/api/([a-z_\-]+))", api_handler);

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
    http.set_error_handler([](const httplib::Request&, httplib::Response& res) {
      if (res.body.empty())
        send_json(res, res.status, {{"error", fmt::format("HTTP {}", res.status)}, {"status", res.status}});
    });
  }

  void bind() {
    if (options.port == 0) {
      bound_port = http.bind_to_any_port(options.host);
      if (bound_port <= 0) throw IoError(fmt::format("cannot listen on {}", options.host));
    } else {
      if (!http.bind_to_port(options.host, options.port))
        throw IoError(fmt::format("cannot listen on {}:{} (in use, or not an address of this machine)", options.host,
                                  options.port));
      bound_port = options.port;
    }
  }
};

Server::Server(Api& api, ServerOptions options) : impl_(std::make_unique<Impl>(api, std::move(options))) {}

Server::~Server() { stop(); }

void Server::run() {
  impl_->bind();
  impl_->http.listen_after_bind();
}

int Server::start() {
  impl_->bind();
  impl_->thread = std::thread([this] { impl_->http.listen_after_bind(); });
  return impl_->bound_port;
}

void Server::stop() {
  impl_->http.stop();
  if (impl_->thread.joinable() && impl_->thread.get_id() != std::this_thread::get_id()) impl_->thread.join();
}

void Server::interrupt() { impl_->http.stop(); }

void Server::wait() {
  if (impl_->thread.joinable()) impl_->thread.join();
}

int Server::port() const { return impl_->bound_port; }

}  // namespace lumen::serve
