// lumen init-stats: measured dot-product statistics of a freshly initialised table against std^2 sqrt(d).
#include <fmt/format.h>

#include "command.hpp"
#include "common.hpp"
#include "lumen/nn/init_stats.hpp"
#include "nn_views.hpp"
#include "option_checks.hpp"

namespace lumen::cli::cmd_init_stats {
namespace {

Action setup(CLI::App& cmd) {
  auto o = std::make_shared<nn::InitStatsOptions>();
  auto json = std::make_shared<bool>(false);
  cmd.add_option("--dim,-d", o->d, "Row length d")->capture_default_str()->check(at_least(1));
  cmd.add_option("--std", o->std, "Init standard deviation")->capture_default_str();
  cmd.add_option("--samples", o->samples, "Pairs of distinct rows to measure")
      ->capture_default_str()
      ->check(at_least(2));
  cmd.add_option("--seed", o->seed, "Random seed")->capture_default_str()->check(at_least(0));
  cmd.add_option("--rows", o->V, "Rows of the table the pairs are drawn from")
      ->capture_default_str()
      ->check(at_least(2));
  add_json_flag(cmd, *json);
  set_example(
      cmd, {"lumen init-stats --dim 768 --std 0.02", "lumen init-stats --dim 4096 --std 0.02 --samples 20000 --json"});
  return [o, json]() {
    const nn::InitStats s = nn::init_stats(*o);
    if (*json) print_json(init_stats_json(s));
    else fmt::print("{}", init_stats_text(s));
    return kOk;
  };
}

const Register reg("init-stats", "Dot products of random init rows: measured std against std^2 sqrt(d)", setup, 21);

}  // namespace
}  // namespace lumen::cli::cmd_init_stats
