#pragma once
// The API's routes (private to src/serve), one function each; Api::handle dispatches to them. Each reads its
// parameters from the request's JSON and answers JSON, or throws ApiError.
#include <nlohmann/json.hpp>

#include "api_state.hpp"

namespace lumen::serve::routes {

// routes.cpp: answered at once.
nlohmann::json info(const Api::State& s);
nlohmann::json tokenize(const Api::State& s, const nlohmann::json& p);
nlohmann::json row(const Api::State& s, const nlohmann::json& p);
nlohmann::json neighbours(const Api::State& s, const nlohmann::json& p);
nlohmann::json similarity(const Api::State& s, const nlohmann::json& p);
nlohmann::json analogy(const Api::State& s, const nlohmann::json& p);
nlohmann::json doesnt_match(const Api::State& s, const nlohmann::json& p);
nlohmann::json params(const nlohmann::json& p);

// job_routes.cpp: background jobs (Api::State::jobs), and polling them.
nlohmann::json projection(Api::State& s, const nlohmann::json& p);
nlohmann::json compare(Api::State& s, const nlohmann::json& p);
nlohmann::json job(Api::State& s, const nlohmann::json& p);

// model_routes.cpp: the served model (the Drift view).
nlohmann::json model(const Api::State& s);
nlohmann::json drift(Api::State& s, const nlohmann::json& p);

}  // namespace lumen::serve::routes
