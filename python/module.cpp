// `import lumen`: the module's entry point, its errors (lumen's exceptions as Python's), threads and signals.
#include <pybind11/pybind11.h>

#include <dlfcn.h>

#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <string>
#include <string_view>

#include "bindings.hpp"
#include "lumen/core/data_paths.hpp"
#include "lumen/core/error.hpp"
#include "lumen/core/threads.hpp"

namespace lumen::python {

void check_signals() {
  const py::gil_scoped_acquire gil;
  if (PyErr_CheckSignals() != 0) {
    PyErr_Clear();  // raised again as KeyboardInterrupt once the call has unwound (see register_errors)
    throw Interrupted{};
  }
}

std::string path_bytes(const py::handle& p) {
  const auto bytes = py::module_::import("os").attr("fsencode")(p).cast<py::bytes>();
  std::string s = bytes;
  if (s.find('\0') != std::string::npos)
    throw py::value_error("embedded null byte in the path " + std::string(py::repr(p)));
  return s;
}

std::optional<long long> fitting_int(const py::handle& x) {
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(x.ptr(), &overflow);
  if (overflow != 0) return std::nullopt;
  if (v == -1 && PyErr_Occurred() != nullptr) throw py::error_already_set();  // not an int at all: TypeError
  return v;
}

std::size_t thread_count(const py::object& threads) {
  if (threads.is_none()) return 0;
  const auto n = fitting_int(threads);
  if (!n || *n < 0)
    throw py::value_error(
        fmt::format("threads must be 0 (the default) or more, not {}", std::string(py::str(threads))));
  lumen::check_threads(static_cast<std::size_t>(*n));  // lumen.UsageError (a ValueError) past kMaxThreads
  return static_cast<std::size_t>(*n);
}

py::object to_python(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null: return py::none();
    case nlohmann::json::value_t::boolean: return py::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer: return py::int_(j.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned: return py::int_(j.get<std::uint64_t>());
    case nlohmann::json::value_t::number_float: return py::float_(j.get<double>());
    case nlohmann::json::value_t::string: return py::str(j.get_ref<const std::string&>());
    case nlohmann::json::value_t::array: {
      py::list l;
      for (const auto& x : j) l.append(to_python(x));
      return l;
    }
    case nlohmann::json::value_t::object: {
      py::dict d;
      for (const auto& [k, v] : j.items()) d[py::str(k)] = to_python(v);
      return d;
    }
    default: return py::none();
  }
}

void register_errors(py::module_& m) {
  // lumen.Error: every lumen error; lumen.ParseError is also a ValueError (a bad file), with .file and .line.
  static py::exception<Error> error(m, "Error", PyExc_Exception);
  error.attr("__module__") = "lumen";
  error.attr("__doc__") = "Every lumen error: what went wrong and where.";
  static const py::object parse_error = [&] {
    const py::object type_fn = py::module_::import("builtins").attr("type");
    py::object t = type_fn("ParseError", py::make_tuple(m.attr("Error"), py::handle(PyExc_ValueError)),
                           py::dict(py::arg("__doc__") = "A file lumen cannot read: .file, .line (1-based, 0 if none), "
                                                         ".offset (bytes) say where.",
                                    py::arg("__module__") = "lumen"));
    m.attr("ParseError") = t;
    return t;
  }();
  static const py::object unknown_word = [&] {
    const py::object type_fn = py::module_::import("builtins").attr("type");
    py::object t = type_fn("UnknownWordError", py::make_tuple(m.attr("Error"), py::handle(PyExc_KeyError)),
                           py::dict(py::arg("__doc__") = "A word the table does not have: .word, .suggestions (close "
                                                         "spellings in the vocabulary).",
                                    py::arg("__module__") = "lumen"));
    m.attr("UnknownWordError") = t;
    return t;
  }();
  static const py::object input_error = [&] {
    const py::object type_fn = py::module_::import("builtins").attr("type");
    py::object t = type_fn("InputError", py::make_tuple(m.attr("Error"), py::handle(PyExc_ValueError)),
                           py::dict(py::arg("__doc__") = "Bad input data: an out-of-range id, a table too small for "
                                                         "the question.",
                                    py::arg("__module__") = "lumen"));
    m.attr("InputError") = t;
    return t;
  }();
  static const py::object io_error = [&] {
    const py::object type_fn = py::module_::import("builtins").attr("type");
    py::object t = type_fn("IoError", py::make_tuple(m.attr("Error"), py::handle(PyExc_OSError)),
                           py::dict(py::arg("__doc__") = "The operating system refused (cannot open, write or rename "
                                                         "a file).",
                                    py::arg("__module__") = "lumen"));
    m.attr("IoError") = t;
    return t;
  }();
  static const py::object usage_error = [&] {
    const py::object type_fn = py::module_::import("builtins").attr("type");
    py::object t = type_fn("UsageError", py::make_tuple(m.attr("Error"), py::handle(PyExc_ValueError)),
                           py::dict(py::arg("__doc__") = "Arguments that make no sense (k = 0, an unknown metric).",
                                    py::arg("__module__") = "lumen"));
    m.attr("UsageError") = t;
    return t;
  }();
  // pybind11 takes a translator as void (*)(std::exception_ptr): the parameter is by value by its signature.
  py::register_exception_translator([](std::exception_ptr p) {  // NOLINT(performance-unnecessary-value-param)
    auto raise = [](const py::object& type, const Error& e) {
      // An option the library names ({tensor}) spelled as this module's keyword (tensor=).
      py::object exc = type(py::str(e.text_for([](std::string_view n) { return std::string(n) + "="; })));
      if (const auto* pe = dynamic_cast<const ParseError*>(&e)) {
        exc.attr("file") = pe->file();
        exc.attr("line") = pe->line();
        exc.attr("offset") = pe->offset();
      }
      if (const auto* ue = dynamic_cast<const UnknownTokenError*>(&e)) {
        exc.attr("word") = py::bytes(ue->token()).attr("decode")("utf-8", "replace");
        py::list suggestions;
        for (const auto& w : ue->suggestions()) suggestions.append(py::bytes(w).attr("decode")("utf-8", "replace"));
        exc.attr("suggestions") = suggestions;
      }
      PyErr_SetObject(type.ptr(), exc.ptr());
    };
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Interrupted&) {
      PyErr_SetNone(PyExc_KeyboardInterrupt);
    } catch (const ParseError& e) {
      raise(parse_error, e);
    } catch (const UnknownTokenError& e) {
      raise(unknown_word, e);
    } catch (const IoError& e) {
      raise(io_error, e);
    } catch (const InputError& e) {
      raise(input_error, e);
    } catch (const UsageError& e) {
      raise(usage_error, e);
    } catch (const Error& e) {
      raise(error, e);
    }
  });
}

}  // namespace lumen::python

namespace {
// Two levels above this module's package: BUILD for BUILD/python/lumen/_lumen*.so.
std::string package_root() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&lumen::python::check_signals), &info) == 0 || info.dli_fname == nullptr)
    return {};
  std::error_code ec;
  const auto so = std::filesystem::canonical(info.dli_fname, ec);
  return ec ? std::string() : so.parent_path().parent_path().parent_path().string();
}

// Where the data lies: the build tree the module runs from (it holds CMakeCache.txt), else the prefix it was
// installed with (PREFIX/bin, whose ../share/lumen `cmake --install` fills), as an installed lumen finds it.
std::string data_root() {
  std::string build = package_root();  // not const: returned by move
  std::error_code ec;
  if (!build.empty() && std::filesystem::exists(std::filesystem::path(build) / "CMakeCache.txt", ec)) return build;
  return LUMEN_INSTALL_BINDIR;
}
}  // namespace

PYBIND11_MODULE(_lumen, m) {
  namespace py = pybind11;
  using namespace lumen::python;
  lumen::set_data_paths(lumen::find_data_paths(data_root()));  // the library compiles in no path of its own
  m.doc() = "lumen: the embedding layer of language models (tables, neighbours, analogies, benchmarks, maps, training)";
  m.attr("__version__") = LUMEN_VERSION;
  register_errors(m);
  m.def(
      "set_threads", [](std::size_t n) { lumen::set_default_threads(n); }, py::arg("n"),
      "Sets the threads every long call uses when it is given none (0: all cores).\n\n"
      "Example:\n    >>> lumen.set_threads(4)");
  m.def(
      "get_threads", [] { return lumen::default_threads(); },
      "The threads long calls use by default (lumen.set_threads, else all cores).");
  register_table(m);
  auto eval = m.def_submodule("eval", "Benchmarks the field reports, scored as gensim scores them.");
  register_eval(eval);
  register_project(m);
  auto train = m.def_submodule("train", "Learning a table from text.");
  register_train(train);
  auto nn = m.def_submodule("nn", "The embedding layer itself: forward and backward on NumPy arrays.");
  register_nn(nn);
  register_tokenizer(m);
  register_params(m);
  register_compare(m);
  register_model(m);
}
