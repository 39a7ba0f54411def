#pragma once
// `lumen serve` runs in its own executable, lumen-serve, built beside lumen: the HTTP stack it links (cpp-httplib
// with OpenSSL, zlib and brotli) costs every process that loads it about 10 ms before main on this project's VMs,
// and no other command uses it. lumen hands `serve` command lines on to lumen-serve whole (cmd_serve_exec.cpp);
// lumen-serve is the same CLI with serve as its one command (cmd_serve.cpp).

namespace lumen::cli {

inline constexpr const char* kServeName = "serve";
inline constexpr const char* kServeDescription =
    "The explorer: the chapter's interactive figures in the browser, on any table";
inline constexpr int kServeOrder = 5;
inline constexpr const char* kServeExecutable = "lumen-serve";

}  // namespace lumen::cli
