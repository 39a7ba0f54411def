// lumen serve: the explorer, a local web app over any table lumen can open.
#include <csignal>
#include <fmt/format.h>

#include "command.hpp"
#include "common.hpp"
#include "lumen/io/open.hpp"
#include "lumen/serve/server.hpp"
#include "lumen/text/tokenizer.hpp"

namespace lumen::cli {
namespace {

serve::Server* g_server = nullptr;
extern "C" void on_signal(int) {
  if (g_server != nullptr) g_server->interrupt();
}

Action setup(CLI::App& cmd) {
  struct Opts {
    TableArgs table;
    serve::ServerOptions server;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  add_table_options(cmd, o->table);
  cmd.add_option("--port", o->server.port, "Port to listen on (0: any free port)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  cmd.add_option("--host", o->server.host, "Address to bind (loopback unless you say otherwise)")
      ->capture_default_str();
  add_json_flag(cmd, o->json);
  set_example(cmd, {"lumen serve                          # the default table on http://127.0.0.1:8080/",
                    "lumen serve glove.6B.100d.txt --port 9000"});
  return [o] {
    io::LoadReport report;
    std::shared_ptr<const text::Tokenizer> tokenizer;
    Table table = load_table(o->table, report, tokenizer);
    serve::Api api(std::move(table), tokenizer);
    serve::Server server(api, o->server);
    g_server = &server;
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    const int port = server.start();
    const std::string url = fmt::format("http://{}:{}/", o->server.host, port);
    if (o->json) {
      print_json(
          {{"url", url}, {"port", port}, {"host", o->server.host}, {"V", api.table().V()}, {"d", api.table().d()}});
    } else {
      fmt::print("lumen explorer on {} ({} × {} table {}): open it in a browser; Ctrl-C stops.\n", url, api.table().V(),
                 api.table().d(), api.table().source);
    }
    std::fflush(stdout);
    server.wait();
    g_server = nullptr;
    return kOk;
  };
}

const Register reg("serve", "The explorer: the chapter's interactive figures in the browser, on any table", setup, 5);

}  // namespace
}  // namespace lumen::cli
