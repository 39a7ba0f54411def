#pragma once
// GPT-2's byte <-> unicode map: every byte gets a printable stand-in code point, so a byte string can be
// written as text in encoder.json / vocab.bpe / tokenizer.json (' ' -> 'Ġ' U+0120, '\n' -> 'Ċ' U+010A).
#include <optional>
#include <string>
#include <string_view>

namespace lumen::text {

// The code point standing for byte b: printable Latin-1 bytes stand for themselves, the other 68 bytes
// (controls, space, DEL, NBSP, soft hyphen) for U+0100 + n, in byte order.
char32_t byte_to_unicode(unsigned char b);

// Raw bytes -> their byte-level spelling as UTF-8 ("\x20cat" -> "Ġcat").
std::string to_byte_level(std::string_view bytes);

// Byte-level spelling -> raw bytes; nullopt if it is not valid UTF-8 or holds a code point outside the map.
std::optional<std::string> from_byte_level(std::string_view spelled);

}  // namespace lumen::text
