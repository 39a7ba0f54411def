#pragma once
// The explorer's front-end files (web/), compiled into the binary: path ("/index.html") -> bytes.
#include <map>
#include <string>
#include <string_view>

namespace lumen::serve {

const std::map<std::string, std::string_view>& assets();
std::string_view content_type(std::string_view path);  // by extension

}  // namespace lumen::serve
