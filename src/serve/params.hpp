#pragma once
// Reading typed, bounded values out of a request's JSON parameters (query strings arrive as text).
#include <cstdint>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lumen/serve/api.hpp"

namespace lumen::serve {

inline bool has(const nlohmann::json& p, const char* key) { return p.contains(key) && !p[key].is_null(); }

inline std::string get_string(const nlohmann::json& p, const char* key, std::size_t max_bytes = 4096) {
  if (!has(p, key)) throw ApiError(400, fmt::format("missing parameter '{}'", key));
  const auto& v = p[key];
  if (!v.is_string()) throw ApiError(400, fmt::format("parameter '{}' must be a string", key));
  std::string s = v.get<std::string>();
  if (s.size() > max_bytes) throw ApiError(413, fmt::format("parameter '{}' is longer than {} bytes", key, max_bytes));
  return s;
}

inline std::string get_string_or(const nlohmann::json& p, const char* key, const std::string& fallback) {
  return has(p, key) ? get_string(p, key) : fallback;
}

// An integer in [lo, hi]; given as a JSON number or as decimal text.
inline std::int64_t get_int(const nlohmann::json& p, const char* key, std::int64_t lo, std::int64_t hi) {
  if (!has(p, key)) throw ApiError(400, fmt::format("missing parameter '{}'", key));
  const auto& v = p[key];
  std::int64_t x = 0;
  if (v.is_number_integer()) {
    x = v.get<std::int64_t>();
  } else if (v.is_string()) {
    const std::string s = v.get<std::string>();
    std::size_t used = 0;
    try {
      x = std::stoll(s, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != s.size()) throw ApiError(400, fmt::format("parameter '{}' must be an integer", key));
  } else {
    throw ApiError(400, fmt::format("parameter '{}' must be an integer", key));
  }
  if (x < lo || x > hi) throw ApiError(422, fmt::format("parameter '{}' = {} is outside [{}, {}]", key, x, lo, hi));
  return x;
}

inline std::int64_t get_int_or(const nlohmann::json& p, const char* key, std::int64_t fallback, std::int64_t lo,
                               std::int64_t hi) {
  return has(p, key) ? get_int(p, key, lo, hi) : fallback;
}

inline bool get_bool_or(const nlohmann::json& p, const char* key, bool fallback) {
  if (!has(p, key)) return fallback;
  const auto& v = p[key];
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s == "true" || s == "1" || s == "on") return true;
    if (s == "false" || s == "0" || s == "off") return false;
  }
  throw ApiError(400, fmt::format("parameter '{}' must be true or false", key));
}

// A list of words: a JSON array of strings, or text separated by commas.
inline std::vector<std::string> get_words(const nlohmann::json& p, const char* key, std::size_t max_words) {
  std::vector<std::string> out;
  if (!has(p, key)) return out;
  const auto& v = p[key];
  if (v.is_array()) {
    for (const auto& w : v) {
      if (!w.is_string()) throw ApiError(400, fmt::format("parameter '{}' must list strings", key));
      out.push_back(w.get<std::string>());
    }
  } else if (v.is_string()) {
    std::string s = v.get<std::string>(), cur;
    for (char c : s) {
      if (c == ',') {
        if (!cur.empty()) out.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    if (!cur.empty()) out.push_back(cur);
  } else {
    throw ApiError(400, fmt::format("parameter '{}' must be a list of words", key));
  }
  if (out.size() > max_words)
    throw ApiError(413, fmt::format("parameter '{}' lists more than {} words", key, max_words));
  return out;
}

}  // namespace lumen::serve
