#pragma once
// The one place the CLI says something on stderr: "lumen: MESSAGE" for errors, "lumen: warning: MESSAGE" for
// warnings. Messages often carry bytes from a user's file (a word, a token, a line); a terminal would act on
// escape sequences among them (clear the screen, retitle the window) and garble invalid UTF-8, so every control
// character and every byte of invalid UTF-8 is shown escaped, as \x1b, \x0a or \xff. Valid UTF-8 text (words in
// any script, the tokenizer's ␣) is kept as it is.
#include <string>
#include <string_view>

namespace lumen::cli {

// text with C0/C1 controls (newline and tab too), DEL and each invalid UTF-8 byte written as \xNN.
std::string printable(std::string_view text);

// "lumen: " + printable(message) + "\n" on stderr, then the note, if one was set ("lumen: note: ...").
void print_error(std::string_view message);
// A note for the next error: how the arguments were understood (which one was taken as the table), printed
// under the error only if there is one.
void set_error_note(std::string note);
// "lumen: warning: " + printable(message) + "\n" on stderr.
void print_warning(std::string_view message);
// How the CLI spells one of the library's option names in a message (lumen::OptionError): its flag,
// "dim" -> "--dim", "init_std" -> "--init-std", or words where no flag sets it.
std::string option_flag(std::string_view library_name);

// "lumen: note: " + printable(message) + "\n" on stderr: how a result should be read (clamped k, NaN rows).
void print_note(std::string_view message);

}  // namespace lumen::cli
