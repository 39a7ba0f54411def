// lumen tour (and `lumen` alone): the embedding layer in three steps, with numbers computed live:
// ids -> one-hot -> row of E -> dense vector; where GPT-2 small's parameters are; why init std matters; what a table
// learns; and where to see the blocks bring in context (lumen drift, the explorer's Drift view).
#include <fmt/format.h>
#include <sstream>
#include <vector>

#include "command.hpp"
#include "common.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/vocab.hpp"
#include "lumen/nn/embedding.hpp"
#include "lumen/nn/init_stats.hpp"
#include "lumen/nn/onehot.hpp"
#include "lumen/nn/params.hpp"
#include "lumen/search/analogy.hpp"
#include "lumen/search/searcher.hpp"
#include "nn_views.hpp"

namespace lumen::cli::cmd_tour {
namespace {

struct TourArgs {
  std::string text = "the cat sat";
  std::size_t d = 4;
  std::uint64_t seed = 0;
  bool json = false;
};

// 4. Structure learned from data: neighbours and an analogy on the default table (Brown corpus), if it is built.
struct Learned {
  bool available = false;
  std::string why;  // when not available: how to build it
  std::size_t V = 0, d = 0;
  std::vector<std::pair<std::string, std::vector<search::Neighbour>>> neighbours;
  std::vector<search::Neighbour> analogy, analogy_raw;
  Table table;
};

Learned learned() {
  Learned l;
  try {
    l.table = load_table(TableArgs{});
  } catch (const InputError& e) {
    l.why = e.what();
    return l;
  }
  l.available = true;
  l.V = l.table.V();
  l.d = l.table.d();
  const search::Searcher s(l.table);
  for (const char* w : {"king", "cat", "monday"}) {
    const auto id = l.table.vocab.find(w);
    if (!id) continue;
    search::SearchOptions o;
    o.k = 5;
    o.exclude = {*id};
    l.neighbours.emplace_back(w, s.search(s.row(*id), o));
  }
  const auto man = l.table.vocab.find("man"), king = l.table.vocab.find("king"), woman = l.table.vocab.find("woman");
  if (man && king && woman) {
    search::AnalogyOptions o;
    o.k = 3;
    l.analogy = search::analogy(s, *man, *king, *woman, o).answers;
    o.exclude_inputs = false;
    l.analogy_raw = search::analogy(s, *man, *king, *woman, o).answers;
  }
  return l;
}

std::string neighbour_text(const Table& t, const std::vector<search::Neighbour>& ns) {
  std::string out;
  for (const auto& n : ns) out += fmt::format("{}{} {:.2f}", out.empty() ? "" : ", ", t.vocab.token(n.id), n.score);
  return out;
}

nlohmann::json neighbour_json(const Table& t, const std::vector<search::Neighbour>& ns) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& n : ns) out.push_back({{"token", t.vocab.token(n.id)}, {"id", n.id}, {"score", n.score}});
  return out;
}

nlohmann::json learned_json(const Learned& l) {
  if (!l.available) return {{"available", false}, {"why", l.why}};
  nlohmann::json n = nlohmann::json::object();
  for (const auto& [w, ns] : l.neighbours) n[w] = neighbour_json(l.table, ns);
  return {{"available", true},
          {"V", l.V},
          {"d", l.d},
          {"neighbours", n},
          {"analogy",
           {{"query", "man : king :: woman : ?"},
            {"answers", neighbour_json(l.table, l.analogy)},
            {"answers_without_exclusion", neighbour_json(l.table, l.analogy_raw)}}}};
}

// 5. Beyond the lookup: Figure 3 needs a checkpoint, so the tour points to it rather than running it.
constexpr const char* kDriftCommand =
    "lumen drift CKPT --token bank \"the river bank was muddy\" \"the bank approved the loan\" -o drift.png";
constexpr const char* kDriftExplorer = "lumen serve --model CKPT, then the Drift view";

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

Action setup(CLI::App& cmd) {
  auto a = std::make_shared<TourArgs>();
  cmd.add_option("--text", a->text, "Words to embed (from the tour's small vocabulary)")->capture_default_str();
  cmd.add_option("--dim,-d", a->d, "Width d of the small table")->capture_default_str()->check(CLI::Range(1, 64));
  cmd.add_option("--seed", a->seed, "Seed of the small table's init")->capture_default_str();
  add_json_flag(cmd, a->json);
  set_example(cmd, {"lumen", "lumen tour --text \"the dog sat on a mat\" --dim 6", "lumen tour --json"});
  return [a]() {
    // 1. A tiny vocabulary and table: ids -> one-hot -> row of E -> dense vector.
    Vocab vocab;
    for (const char* w : {"<pad>", "the", "cat", "sat", "on", "a", "mat", "dog"}) vocab.add(w);
    const std::size_t V = vocab.size(), d = a->d;
    std::vector<Id> ids;
    for (const auto& w : words(a->text)) ids.push_back(vocab.require(w));
    if (ids.empty()) throw UsageError("--text has no words");
    nn::Embedding emb(V, d, {.padding_idx = 0});  // <pad>: a zero row that never learns
    emb.init_normal(0.02f, a->seed);
    const Matrix onehots = nn::onehot(ids, V);                // (T,V)
    const Matrix dense = nn::embed_via_onehot(emb.E(), ids);  // (T,V) . (V,d)
    const Matrix gathered = emb.forward(ids, 1, ids.size());  // (1,T,d), a row gather
    bool equal = true;
    for (std::size_t i = 0; i < dense.size(); ++i) equal = equal && dense.f32()[i] == gathered.f32()[i];

    // 2. GPT-2 small's parameters; 3. init statistics at its width.
    const nn::ModelShape gpt2 = nn::preset("gpt2");
    const nn::ParamCount c = nn::count_params(gpt2);
    nn::InitStatsOptions io;
    io.d = gpt2.d;
    io.std = 0.02;
    io.samples = 20000;
    io.V = 2048;
    io.seed = a->seed;
    const nn::InitStats st = nn::init_stats(io);

    if (a->json) {
      nlohmann::json rows = nlohmann::json::array(), oh = nlohmann::json::array(), dv = nlohmann::json::array();
      for (std::size_t v = 0; v < V; ++v)
        rows.push_back(std::vector<float>(emb.E().row(v).begin(), emb.E().row(v).end()));
      for (std::size_t t = 0; t < ids.size(); ++t) {
        oh.push_back(std::vector<float>(onehots.row(t).begin(), onehots.row(t).end()));
        dv.push_back(std::vector<float>(dense.row(t).begin(), dense.row(t).end()));
      }
      print_json({{"example",
                   {{"vocab", vocab.tokens()},
                    {"padding_idx", 0},
                    {"text", a->text},
                    {"ids", ids},
                    {"V", V},
                    {"d", d},
                    {"E", rows},
                    {"onehot", oh},
                    {"dense", dv},
                    {"forward_equals_onehot", equal}}},
                  {"params", params_json(gpt2, c)},
                  {"init_stats", init_stats_json(st)},
                  {"learned", learned_json(learned())},
                  {"next", {{"drift", {{"command", kDriftCommand}, {"explorer", kDriftExplorer}}}}}});
      return equal ? kOk : kInternalError;
    }

    fmt::print("lumen: a tour of the embedding layer (every number below is computed now)\n\n");
    fmt::print("1. ids -> one-hot -> row of E -> dense vector\n\n");
    std::string vs;
    for (std::size_t v = 0; v < V; ++v) vs += fmt::format(" {}:{}", v, vocab.token(static_cast<Id>(v)));
    fmt::print("   vocabulary (V = {}):{}\n", V, vs);
    fmt::print("   E (V x d = {} x {}), init N(0, 0.02^2), seed {}; padding_idx 0 keeps <pad> at zero:\n", V, d,
               a->seed);
    for (std::size_t v = 0; v < V; ++v)
      fmt::print("     {:>2} {:<6} {}\n", v, vocab.token(static_cast<Id>(v)), vector_text(emb.E().row(v), 0));
    std::string idl;
    for (Id id : ids) idl += fmt::format("{}{}", idl.empty() ? "" : ", ", id);
    fmt::print("\n   \"{}\" -> ids [{}]\n\n", a->text, idl);
    for (std::size_t t = 0; t < ids.size(); ++t) {
      const std::string& w = vocab.token(ids[t]);
      fmt::print("   {:<6} id {}  one-hot {}\n", w, ids[t], onehot_text(V, static_cast<std::size_t>(ids[t])));
      fmt::print("   {:<6} one-hot x E = {}   (= row {} of E)\n", "", vector_text(dense.row(t), 0), ids[t]);
    }
    fmt::print(
        "\n   Multiplying by a one-hot vector only selects a row, so the layer is a lookup: forward(ids), a row\n"
        "   gather, gives the same {} x {} numbers as the (T x V) . (V x d) product: {}.\n\n",
        ids.size(), d, equal ? "equal, bit for bit" : "NOT EQUAL (a bug)");

    fmt::print("2. Where the parameters are: GPT-2 small (lumen params gpt2)\n\n");
    fmt::print("{}\n", params_text(gpt2, c));
    fmt::print("3. Why init std matters (lumen init-stats --dim 768 --std 0.02)\n\n");
    fmt::print("{}\n", init_stats_text(st));
    const Learned l = learned();
    fmt::print("4. Learned from data: the default table (word2vec on the Brown corpus)\n\n");
    if (!l.available) {
      fmt::print("   not built yet: {}\n\n", l.why);
    } else {
      fmt::print(
          "   {} words x d = {}. Nothing placed these vectors by hand: similarity of use became similarity\n"
          "   of geometry. Nearest neighbours by cosine (lumen neighbours default WORD):\n",
          l.V, l.d);
      for (const auto& [w, ns] : l.neighbours) fmt::print("     {:<8} {}\n", w, neighbour_text(l.table, ns));
      if (!l.analogy.empty())
        fmt::print(
            "\n   king - man + woman (lumen analogy default man king woman): {}\n"
            "   without excluding the inputs (--no-exclude) the top answers are: {}\n",
            neighbour_text(l.table, l.analogy), neighbour_text(l.table, l.analogy_raw));
      fmt::print("\n   See it in the browser: lumen serve\n\n");
    }
    fmt::print(
        "5. Beyond the lookup: context (Figure 3)\n\n"
        "   The lookup gives \"bank\" the same row of E in every sentence; the blocks pull its vector apart by\n"
        "   context. Follow one token layer by layer through a GPT-2 or Llama checkpoint (CKPT, a Hugging Face\n"
        "   directory): cosine between the two occurrences, nearest rows of E and the logit lens per layer:\n"
        "     {}\n"
        "   or in the browser: {}.\n\n",
        kDriftCommand, kDriftExplorer);
    fmt::print(
        "Next: lumen params --help, lumen params gpt2 --sweep, lumen onehot TABLE TOKEN, lumen --help for every "
        "command.\n");
    return equal ? kOk : kInternalError;
  };
}

const Register reg("tour", "A tour of the embedding layer (what `lumen` alone runs)", setup, 1);

}  // namespace
}  // namespace lumen::cli::cmd_tour
