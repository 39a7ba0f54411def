#pragma once
// Text and JSON views of the layer's numbers, shared by `params`, `init-stats`, `onehot` and the tour.
#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "lumen/nn/init_stats.hpp"
#include "lumen/nn/params.hpp"
#include "lumen/nn/params_json.hpp"

namespace lumen::cli {

std::string grouped(std::uint64_t n);   // 124439808 -> "124,439,808"
std::string bytes_human(double bytes);  // "474.7 MiB"
// A vector as "[ 0.0121 -0.0034 ... ]": the first `show` values (all if show == 0 or fewer), 4 significant.
std::string vector_text(std::span<const float> v, std::size_t show);
// A one-hot vector of length V with its 1 at `id`: all of it when V is small, else the stretch around the 1.
std::string onehot_text(std::size_t V, std::size_t id);

std::string shape_text(const nn::ModelShape& s);
std::string params_text(const nn::ModelShape& s, const nn::ParamCount& c);
using nn::params_json;  // lumen/nn/params_json.hpp: the same dicts Python's lumen.params returns
std::string sweep_text(const nn::ModelShape& base);
using nn::sweep_json;

std::string init_stats_text(const nn::InitStats& s);
nlohmann::json init_stats_json(const nn::InitStats& s);

}  // namespace lumen::cli
