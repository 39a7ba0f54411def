// lumen serve: the explorer, a local web app over any table lumen can open, and (--model) over a checkpoint's blocks.
// Built into lumen-serve, not lumen (serve_command.hpp says why).
#include <csignal>
#include <fmt/format.h>
#include <memory>
#include <optional>

#include "command.hpp"
#include "common.hpp"
#include "lumen/io/open.hpp"
#include "lumen/model/embedding_table.hpp"
#include "lumen/serve/server.hpp"
#include "lumen/text/tokenizer.hpp"
#include "serve_command.hpp"

namespace lumen::cli::cmd_serve {
namespace {

serve::Server* g_server = nullptr;
extern "C" void on_signal(int) {
  if (g_server != nullptr) g_server->interrupt();
}

Action setup(CLI::App& cmd) {
  struct Opts {
    TableArgs table;
    std::vector<std::string> more;  // further tables, served as table2, table3, ...
    bool heads = false;             // also serve TABLE's output head, as "head"
    std::string head;
    std::string model;  // a checkpoint directory, for the Drift view
    serve::ServerOptions server;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  add_table_options(cmd, o->table);
  cmd.add_option("more", o->more,
                 "Further tables (same options as TABLE), served as table2, table3, ... for the Compare view");
  cmd.add_flag("--heads", o->heads,
               "Also serve TABLE's output head W as table 'head' (TABLE.out, or a safetensors checkpoint's "
               "lm_head.weight), to compare with its input table E");
  cmd.add_option("--head", o->head, "With --heads: the output head's file (default: TABLE.out)");
  cmd.add_option("--model", o->model,
                 "A Hugging Face GPT-2 or Llama checkpoint directory (its tokenizer beside it) for the Drift view; "
                 "without TABLE its token embedding E is the table served");
  cmd.add_option("--port", o->server.port, "Port to listen on (0: any free port)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  cmd.add_option("--host", o->server.host, "Address to bind (loopback unless you say otherwise)")
      ->capture_default_str();
  add_json_flag(cmd, o->json);
  set_example(cmd,
              {"lumen serve                          # the default table on http://127.0.0.1:8080/",
               "lumen serve glove.6B.100d.txt --port 9000",
               "lumen serve seed1.vec seed2.vec                # Compare: main against table2",
               "lumen serve model.safetensors --heads          # Compare: E against the output head",
               "lumen serve --model models/gpt2                # Drift: a token through the blocks; E as the table"});
  return [o] {
    io::LoadReport report;
    std::shared_ptr<const text::Tokenizer> tokenizer;
    if (!o->heads && !o->head.empty()) throw UsageError("--head goes with --heads");
    std::optional<serve::ServedModel> served;
    if (!o->model.empty()) served = serve::load_served_model(o->model);
    // With a model and no TABLE, the model's own E is the table (labelled by its tokenizer).
    Table table = served && o->table.path.empty()
                      ? model::embedding_table(served->model, *served->tokenizer, served->source)
                      : load_table(o->table, report, tokenizer);
    if (served && o->table.path.empty()) tokenizer = served->tokenizer;
    std::vector<serve::NamedTable> others;
    for (std::size_t i = 0; i < o->more.size(); ++i) {
      TableArgs a = o->table;
      a.path = o->more[i];
      a.tensor.clear();
      others.push_back({fmt::format("table{}", i + 2), load_table(a)});
    }
    if (o->heads) others.push_back({"head", load_output_head(o->table, o->head)});
    serve::Api api(std::move(table), tokenizer, std::move(others));
    if (served) api.set_model(*served);
    serve::Server server(api, o->server);
    g_server = &server;
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    const int port = server.start();
    const std::string url = fmt::format("http://{}:{}/", o->server.host, port);
    if (o->json) {
      print_json({{"url", url},
                  {"port", port},
                  {"host", o->server.host},
                  {"V", api.table().V()},
                  {"d", api.table().d()},
                  {"tables", api.handle("info", nlohmann::json::object())["tables"]},
                  {"model", served ? nlohmann::json(served->source) : nlohmann::json(nullptr)}});
    } else {
      fmt::print("lumen explorer on {} ({} × {} table {}): open it in a browser; Ctrl-C stops.\n", url, api.table().V(),
                 api.table().d(), api.table().source);
      if (served) fmt::print("model {} for the Drift view\n", served->source);
    }
    std::fflush(stdout);
    server.wait();
    g_server = nullptr;
    return kOk;
  };
}

const Register reg(kServeName, kServeDescription, setup, kServeOrder);

}  // namespace
}  // namespace lumen::cli::cmd_serve
