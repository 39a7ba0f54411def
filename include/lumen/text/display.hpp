#pragma once
// Token pieces as people read and type them: a leading space is "␣" ("␣cat" is GPT-2's Ġcat, id 3797),
// a newline "↵", a tab "⇥", a carriage return "␍"; other control bytes and bytes that are not (complete)
// UTF-8 are written \xNN. parse_display undoes it, so a label typed back finds its token.
#include <string>
#include <string_view>

namespace lumen::text {

std::string display_piece(std::string_view bytes);
// "␣cat" -> " cat", "\x0b" -> byte 0x0B; other text unchanged.
std::string parse_display(std::string_view label);

}  // namespace lumen::text
