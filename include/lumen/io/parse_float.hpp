#pragma once
// One decimal value of a text table, as gensim reads it: Python's float(text) (the correctly rounded double)
// rounded to float32. parse_float is the hot path (text_reader.cpp calls it for every value);
// parse_float_reference is the plain version the tests compare it against, bit for bit.
namespace lumen::io {

// Parses the value starting at p (no leading space), reading no further than e. Returns the end of the number,
// or nullptr if no number starts at p. Accepts what float() accepts of a bare token: [+-]digits[.digits][e[+-]digits],
// ".5", "7.", nan, inf, infinity (any case).
const char* parse_float(const char* p, const char* e, float& out);
const char* parse_float_reference(const char* p, const char* e, float& out);

}  // namespace lumen::io
