#pragma once
// The explorer's JSON API over the library, independent of HTTP so tests can call it directly.
// Every request names a route and carries JSON parameters; every answer is JSON or an ApiError (a 4xx).
// Nothing outside the loaded tables is reachable: requests name tokens, ids and numbers, never files.
#include <cstddef>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "lumen/core/error.hpp"
#include "lumen/core/table.hpp"
#include "lumen/serve/served_model.hpp"

namespace lumen::serve {

// A request the client got wrong: HTTP status (400, 404, 413, 422) and a message the page shows (message() is
// whole; what() stops at a NUL byte of a user's word).
class ApiError : public lumen::Error {
 public:
  ApiError(int status, const std::string& what) : lumen::Error(what), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

// Bounds on what one request may ask for.
struct Limits {
  std::size_t max_k = 1000;               // neighbours per query
  std::size_t max_map_points = 60000;     // points in a projection
  std::size_t max_text_bytes = 16384;     // text to tokenize
  std::size_t max_window = 64;            // rows of E shown around an id
  std::size_t max_words = 64;             // words in a list parameter
  std::size_t max_seeds = 5;              // maps per projection (t-SNE, UMAP: agreement across seeds)
  std::size_t max_compare_words = 60000;  // shared words one comparison covers
  std::size_t max_compare_k = 100;        // neighbours per word in a comparison
  std::size_t max_moved = 100;            // most changed words listed
  std::size_t max_drift_k = 50;           // nearest rows and logit-lens tokens per layer in a drift
  std::size_t max_token_bytes = 256;      // the token a drift follows
};

// A further table the explorer serves under a name of its own (a second training, a model's output head).
struct NamedTable {
  std::string name;  // what requests call it: letters, digits, '-' and '_' (not "main" or "toy")
  Table table;
};

class Api {
 public:
  // Takes the main table; the chapter's toy table is always available as table "toy".
  explicit Api(Table table, const Limits& limits = {});
  // With a tokenizer, text is tokenized as the model does and rows are labelled by their token pieces.
  Api(Table table, std::shared_ptr<const text::Tokenizer> tokenizer, const Limits& limits = {});
  // With further tables, which every route may name ("table") and "compare" compares. A tokenizer labels the rows of
  // the main table and of any further table with the same V (a model's output head). UsageError for a bad or
  // repeated name.
  Api(Table table, std::shared_ptr<const text::Tokenizer> tokenizer, std::vector<NamedTable> others,
      const Limits& limits = {});
  ~Api();

  // Serves MODEL to "model" and "drift" (before serving starts: the routes read it without a lock). Without one,
  // those routes answer 409. UsageError if the model or its tokenizer is missing.
  void set_model(ServedModel model);

  // Dispatches "info", "tokenize", "row", "neighbours", "analogy", "similarity", "doesnt-match", "params", and
  // "projection", "compare" and "drift" (which start a background job, or return the finished one) with "job" to
  // poll it, and "model". Results have the schema of the CLI's --json (search/result_json.hpp,
  // project/map_json.hpp, eval::comparison_json, model::drift_json); the routes are in docs/serve.md.
  // Throws ApiError for bad requests (unknown route: 404).
  nlohmann::json handle(const std::string& route, const nlohmann::json& params);

  const Table& table() const;

  // Whether ROUTE starts work that outlives the request (a projection or comparison job): such a route is POST only, so
  // that no link or image another page shows can start it.
  static bool starts_work(const std::string& route);

  struct State;  // opaque: the loaded tables, searchers, tokenizer and projection jobs

 private:
  std::unique_ptr<State> state_;
};

}  // namespace lumen::serve
