// lumen.load, lumen.Table: a table opened from any format, its vectors as a NumPy view of E (no copy), and the
// questions the CLI asks of it (neighbours, analogy, similarity, doesnt_match), on the library's search functions.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "lumen/core/error.hpp"
#include "lumen/io/open.hpp"
#include "lumen/io/summary.hpp"
#include "lumen/io/table_json.hpp"
#include "lumen/io/write.hpp"
#include "lumen/project/anisotropy.hpp"
#include "lumen/project/anisotropy_json.hpp"
#include "lumen/search/analogy.hpp"
#include "lumen/search/query_word.hpp"
#include "lumen/search/result_json.hpp"
#include "lumen/text/load_table.hpp"
#include "lumen/text/tokenizer.hpp"

namespace lumen::python {

const search::Searcher& PyTable::searcher() const {
  // The GIL is released before call_once: a second Python thread waiting in call_once must not hold it while the
  // first computes the norms and then takes the GIL back.
  {
    const py::gil_scoped_release nogil;
    std::call_once(once_, [this] { searcher_ = std::make_unique<search::Searcher>(table); });
  }
  return *searcher_;
}

std::string word_bytes(const py::handle& w) {
  if (py::isinstance<py::bytes>(w)) return w.cast<std::string>();
  if (!py::isinstance<py::str>(w))
    throw py::type_error(fmt::format("a word is a str, not {}", py::type::of(w).attr("__name__").cast<std::string>()));
  return py::reinterpret_steal<py::bytes>(PyUnicode_AsEncodedString(w.ptr(), "utf-8", "surrogateescape"))
      .cast<std::string>();
}

std::vector<Id> row_ids(const Table& t, const py::handle& items, const char* what) {
  if (py::isinstance<py::str>(items) || py::isinstance<py::bytes>(items))
    throw py::type_error(fmt::format("{}: a list of words or ids, not a single str", what));
  std::vector<Id> ids;
  for (const auto& x : items) {
    if (!py::isinstance<py::int_>(x) || py::isinstance<py::bool_>(x)) {
      ids.push_back(t.vocab.require(word_bytes(x)));
      continue;
    }
    const auto id = fitting_int(x);
    if (!id)  // past int64: IdError's words, with the number as Python wrote it
      throw InputError(fmt::format("{}: id {} at position {} is out of range [0, {})", what, std::string(py::str(x)),
                                   ids.size(), t.V()));
    if (*id < 0 || static_cast<std::size_t>(*id) >= t.V())
      throw IdError(*id, ids.size(), static_cast<std::int64_t>(t.V()));
    ids.push_back(*id);
  }
  return ids;
}

TablePtr loaded_table(text::LoadedTable loaded, io::LoadReport report, std::optional<text::TableRequest> request) {
  const py::object warn = py::module_::import("warnings").attr("warn");
  for (const auto& w : loaded.warnings) warn(w);
  auto pt = std::make_shared<PyTable>();
  pt->table = std::move(loaded.table);
  pt->tokenizer = std::move(loaded.tokenizer);
  pt->report = std::move(report);
  pt->request = std::move(request);
  return pt;
}

namespace {

// Token bytes -> str (invalid UTF-8 kept as lone surrogates, so the str looks the word up again).
py::str word_str(const std::string& s) {
  PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "surrogateescape");
  if (o == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(o);
}

py::dtype numpy_dtype(DType t) {
  switch (t) {
    case DType::f32: return py::dtype("float32");
    case DType::f16: return py::dtype("float16");
    case DType::bf16: return py::dtype("uint16");  // NumPy has no bfloat16: the raw bits
  }
  return py::dtype("float32");
}

// A read-only NumPy view of `rows` rows of E from row `first` (no copy); `owner` (the Table) is the array's base.
py::array rows_view(const py::object& owner, const Table& t, std::size_t first, std::size_t rows, bool matrix) {
  const std::size_t es = dtype_size(t.E.dtype());
  const void* p = t.E.empty() ? nullptr : t.E.row_ptr(first);
  std::vector<py::ssize_t> shape, strides;
  if (matrix) {
    shape = {static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(t.d())};
    strides = {static_cast<py::ssize_t>(t.E.row_bytes()), static_cast<py::ssize_t>(es)};
  } else {
    shape = {static_cast<py::ssize_t>(t.d())};
    strides = {static_cast<py::ssize_t>(es)};
  }
  py::array a(numpy_dtype(t.E.dtype()), shape, strides, p, owner);
  a.attr("setflags")(py::arg("write") = false);
  return a;
}

py::array_t<float> to_array(const std::vector<float>& v) {
  py::array_t<float> a(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

TablePtr load(const py::object& path_obj, const std::optional<std::string>& format, const std::string& dtype,
              std::size_t limit, const std::string& tensor, const py::object& vocab, const std::string& unicode_errors,
              const py::object& tokenizer, const py::object& cache, const py::object& threads) {
  text::TableRequest r;
  r.path = path_obj.is_none() ? "default" : path_bytes(path_obj);
  if (format) r.open.format = io::parse_format(*format);
  r.open.dtype = parse_dtype(dtype);
  r.open.limit = limit;
  r.open.tensor = tensor;
  r.open.vocab_path = vocab.is_none() ? "" : path_bytes(vocab);
  r.open.unicode_errors = io::parse_unicode_errors(unicode_errors);
  r.open.threads = thread_count(threads);
  r.open.cache_dir = cache.is_none() ? "" : path_bytes(cache);
  r.tokenizer = tokenizer.is_none() ? "" : path_bytes(tokenizer);
  io::LoadReport report;
  text::LoadedTable loaded;
  {
    const py::gil_scoped_release nogil;
    loaded = text::load_table(r, report);
  }
  return loaded_table(std::move(loaded), std::move(report), std::move(r));
}

// The k a caller asked for, as far as the rows searched allow (a larger k returns them all).
std::size_t clamp_k(std::size_t k, std::size_t restrict_rows, std::size_t V) {
  if (k == 0) throw UsageError("k must be at least 1");
  const std::size_t rows = restrict_rows == 0 ? V : std::min(restrict_rows, V);
  return std::min(k, rows);
}

// The ids a caller names in `exclude` (words or row ids); True/False/None name none.
std::vector<Id> named_ids(const Table& t, const py::object& exclude) {
  if (exclude.is_none() || py::isinstance<py::bool_>(exclude)) return {};
  return row_ids(t, exclude, "exclude");
}

bool excludes_queries(const py::object& exclude) {
  return !exclude.is_none() && (!py::isinstance<py::bool_>(exclude) || exclude.cast<bool>());
}

py::list neighbour_list(const Table& t, const std::vector<search::Neighbour>& ns) {
  py::list out;
  for (const auto& n : ns) out.append(py::make_tuple(word_str(t.vocab.token(n.id)), n.score));
  return out;
}

// Queries as a C-contiguous f32 NumPy array (a copy only when the array is not already one).
using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;

// json=True: what `lumen neighbours --json` prints for each word (a vector has no word to name, so it stays a list).
py::object neighbours(const py::object& self, const py::object& query, std::size_t k, const std::string& metric,
                      std::size_t restrict_rows, const py::object& exclude, const py::object& threads, bool json) {
  const PyTable& pt = self.cast<const PyTable&>();
  const Table& t = pt.table;
  search::SearchOptions o;
  o.metric = search::parse_metric(metric);
  o.restrict_rows = restrict_rows;
  o.k = clamp_k(k, restrict_rows, t.V());
  o.threads = thread_count(threads);
  o.exclude = named_ids(t, exclude);
  const bool drop_self = excludes_queries(exclude);
  const search::Searcher& s = pt.searcher();

  // Words: one, or a list (one GEMM pass, each word's own row left out of its answers unless exclude says not).
  const bool one_word = py::isinstance<py::str>(query) || py::isinstance<py::bytes>(query);
  if (one_word || py::isinstance<py::list>(query) || py::isinstance<py::tuple>(query)) {
    std::vector<search::QueryWord> words;
    if (one_word) {
      words.push_back(search::lookup(t, word_bytes(query)));
    } else {
      const py::sequence seq = query.cast<py::sequence>();
      if (!seq.empty() && !py::isinstance<py::str>(seq[0]) && !py::isinstance<py::bytes>(seq[0]))
        return neighbours(self, FloatArray::ensure(query), k, metric, restrict_rows, exclude, threads, json);
      for (const auto& w : seq) words.push_back(search::lookup(t, word_bytes(w)));
    }
    std::vector<std::vector<search::Neighbour>> r;
    {
      const py::gil_scoped_release nogil;
      r = search::neighbours_of(s, words, o, !drop_self);
    }
    const auto shown = [&](std::size_t i) -> py::object {
      if (!json) return neighbour_list(t, r[i]);
      return to_python(
          search::neighbours_json(words[i].word, words[i].id, o.metric, false, o.k, k, r[i], RowNames{t.vocab, {}}));
    };
    if (one_word) return shown(0);
    py::list out;
    for (std::size_t i = 0; i < r.size(); ++i) out.append(shown(i));
    return out;
  }
  if (json) throw py::type_error("json=True answers words (a vector has no word for the JSON's \"query\")");

  // Vectors: (d) or (B, d), straight from the array's memory.
  const FloatArray q = FloatArray::ensure(query);
  if (!q) throw py::type_error("query is a word, a list of words, or a NumPy array of vectors (d) or (B, d)");
  if (q.ndim() == 0)
    throw py::type_error("query is a word, a list of words, or a NumPy array of vectors (d) or (B, d)");
  if (q.ndim() != 1 && q.ndim() != 2) throw UsageError(fmt::format("query vectors have {} dimensions", q.ndim()));
  const std::size_t B = q.ndim() == 1 ? 1 : static_cast<std::size_t>(q.shape(0));
  const std::size_t d = static_cast<std::size_t>(q.shape(q.ndim() - 1));
  if (d != t.d()) throw InputError(fmt::format("query vectors have {} dimensions, the table has d = {}", d, t.d()));
  const Matrix Q = Matrix::borrow(q.data(), B, d, DType::f32);
  std::vector<std::vector<search::Neighbour>> r;
  {
    const py::gil_scoped_release nogil;
    r = s.search_batch(Q, o);
  }
  if (q.ndim() == 1) return neighbour_list(t, r[0]);
  py::list out;
  for (const auto& x : r) out.append(neighbour_list(t, x));
  return out;
}

// FAISS's shape of answer: scores (B, k) f32 and ids (B, k) int64, -1 and NaN where fewer than k rows qualify.
py::tuple search_arrays(const py::object& self, const py::object& queries, std::size_t k, const std::string& metric,
                        std::size_t restrict_rows, const py::object& exclude, const py::object& threads) {
  const PyTable& pt = self.cast<const PyTable&>();
  const Table& t = pt.table;
  const FloatArray q = FloatArray::ensure(queries);
  if (!q) throw py::type_error("queries: a NumPy array (B, d)");
  if (q.ndim() != 2) throw UsageError(fmt::format("queries must be (B, d), not {} dimensions", q.ndim()));
  const std::size_t B = static_cast<std::size_t>(q.shape(0)), d = static_cast<std::size_t>(q.shape(1));
  if (d != t.d()) throw InputError(fmt::format("queries have {} dimensions, the table has d = {}", d, t.d()));
  search::SearchOptions o;
  o.metric = search::parse_metric(metric);
  o.restrict_rows = restrict_rows;
  o.k = clamp_k(k, restrict_rows, t.V());
  o.threads = thread_count(threads);
  std::vector<std::vector<Id>> ex;
  if (!exclude.is_none()) {  // one list of ids per query
    for (const auto& row : exclude) ex.push_back(row_ids(t, row, "exclude"));
  }
  const search::Searcher& s = pt.searcher();
  const Matrix Q = Matrix::borrow(q.data(), B, d, DType::f32);
  py::array_t<float> scores({static_cast<py::ssize_t>(B), static_cast<py::ssize_t>(o.k)});
  py::array_t<std::int64_t> ids({static_cast<py::ssize_t>(B), static_cast<py::ssize_t>(o.k)});
  float* sp = scores.mutable_data();
  std::int64_t* ip = ids.mutable_data();
  {
    const py::gil_scoped_release nogil;
    const auto r = s.search_batch(Q, o, ex);
    for (std::size_t b = 0; b < B; ++b)
      for (std::size_t i = 0; i < o.k; ++i) {
        const bool have = i < r[b].size();
        sp[b * o.k + i] = have ? r[b][i].score : std::numeric_limits<float>::quiet_NaN();
        ip[b * o.k + i] = have ? r[b][i].id : -1;
      }
  }
  return py::make_tuple(scores, ids);
}

py::object analogy(const TablePtr& self, const py::object& a, const py::object& b, const py::object& c, std::size_t k,
                   const std::string& method, bool exclude, std::size_t restrict_rows, const py::object& threads,
                   bool json) {
  const Table& t = self->table;
  search::AnalogyOptions o;
  o.method = search::parse_analogy_method(method);
  o.k = k;
  o.exclude_inputs = exclude;
  o.restrict_rows = restrict_rows;
  o.threads = thread_count(threads);
  if (k == 0) throw UsageError("k must be at least 1");
  const auto qa = search::lookup(t, word_bytes(a));
  const auto qb = search::lookup(t, word_bytes(b));
  const auto qc = search::lookup(t, word_bytes(c));
  const search::Searcher& s = self->searcher();
  search::AnalogyResult r;
  {
    const py::gil_scoped_release nogil;
    r = search::analogy(s, qa, qb, qc, o);
  }
  if (json) {
    const std::size_t rows = restrict_rows == 0 ? t.V() : std::min(restrict_rows, t.V());
    return to_python(search::analogy_json(qa.word, qb.word, qc.word, o, rows, r, "", RowNames{t.vocab, {}}));
  }
  return neighbour_list(t, r.answers);
}

TablePtr from_array(const py::object& array, const py::object& words, const std::string& dtype) {
  const FloatArray a = FloatArray::ensure(array);
  if (!a) throw py::type_error("array: a NumPy array (V, d)");
  if (a.ndim() != 2) throw UsageError(fmt::format("a table is (V, d), not {} dimensions", a.ndim()));
  const std::size_t V = static_cast<std::size_t>(a.shape(0)), d = static_cast<std::size_t>(a.shape(1));
  auto pt = std::make_shared<PyTable>();
  Table& t = pt->table;
  if (words.is_none()) {
    t.vocab = Vocab::numbered(V);
  } else {
    const py::sequence seq = words.cast<py::sequence>();
    if (seq.size() != V) throw UsageError(fmt::format("{} words for {} rows: one word per row", seq.size(), V));
    t.vocab.reserve(V);
    for (const auto& w : seq) {
      std::string b = word_bytes(w);
      if (!t.vocab.add(b)) throw UsageError(fmt::format("the word '{}' is given twice", b));
    }
  }
  Matrix E(V, d);
  std::copy(a.data(), a.data() + V * d, E.f32_mut().data());
  const DType dt = parse_dtype(dtype);
  t.E = dt == DType::f32 ? std::move(E) : E.to(dt);
  t.source = "<array>";
  t.format = "array";
  return pt;
}

void save(const TablePtr& self, const py::object& path, const std::optional<std::string>& format,
          const py::object& vocab, const std::string& tensor) {
  const std::string p = path_bytes(path);
  const io::Format f = format ? io::parse_format(*format) : io::format_from_path(p);
  io::WriteOptions o;
  o.vocab_path = vocab.is_none() ? "" : path_bytes(vocab);
  o.tensor = tensor;
  io::check_destination(p, f, o);
  const py::gil_scoped_release nogil;
  io::write_table(self->table, p, f, o);
}

py::object getitem(const py::object& self, const py::object& key) {
  const PyTable& pt = self.cast<const PyTable&>();
  const Table& t = pt.table;
  if (py::isinstance<py::int_>(key)) {
    const auto V = static_cast<long long>(t.V());
    auto i = fitting_int(key);
    if (i && *i < 0) *i += V;
    if (!i || *i < 0 || *i >= V)
      throw py::index_error(fmt::format("row {} outside a table of {} rows", std::string(py::str(key)), V));
    return rows_view(self, t, static_cast<std::size_t>(*i), 1, false);
  }
  const std::string w = word_bytes(key);
  if (const auto id = t.vocab.find(w)) return rows_view(self, t, static_cast<std::size_t>(*id), 1, false);
  return to_array(search::lookup(t, w).vector);  // a fastText model's word outside the vocabulary (or the error)
}

}  // namespace

void register_table(py::module_& m) {
  py::class_<PyTable, TablePtr> cls(m, "Table", R"doc(
A table: a vocabulary (token <-> id) and a matrix E (V, d), row i the vector of token i.

Open one with lumen.load(path); make one with Table.from_array(array, words).

Example:
    >>> t = lumen.load("toy")
    >>> len(t), t.d
    (30, 2)
    >>> t.neighbours("king", k=3)
    [('queen', 0.99...), ...]
)doc");
  m.def("load", &load, py::arg("path") = "default", py::kw_only(), py::arg("format") = py::none(),
        py::arg("dtype") = "f32", py::arg("limit") = 0, py::arg("tensor") = "", py::arg("vocab") = py::none(),
        py::arg("unicode_errors") = "strict", py::arg("tokenizer") = py::none(), py::arg("cache") = py::none(),
        py::arg("threads") = py::none(), R"doc(
Opens a table of any format lumen reads (word2vec text or binary, GloVe, fastText .bin, safetensors, .npy,
TensorFlow Projector .tsv), detected from the content; "toy" and "default" are the built-in tables. The same options
as the CLI's table options: format, dtype ("f32", "f16", "bf16"), limit (the first N rows; 0: all), tensor
(safetensors), vocab (.npy: one token per line), unicode_errors ("strict", "replace", "ignore"), tokenizer (a
tokenizer.json, GPT-2's encoder.json or their directory; "none": off), cache (a directory for parsed text tables).
A .npy or safetensors file in the table's dtype is memory-mapped: nothing is copied.

Raises lumen.ParseError (a ValueError, naming file and line) for a malformed file, OSError (lumen.IoError) when the
file cannot be read, ValueError for bad options.

Example:
    >>> t = lumen.load("glove.6B.100d.txt", limit=50000)
    >>> t = lumen.load("gpt2.safetensors", dtype="f16")
)doc");
  cls.def_static("from_array", &from_array, py::arg("array"), py::arg("words") = py::none(), py::kw_only(),
                 py::arg("dtype") = "f32", R"doc(
A table from a NumPy array (V, d) (copied, as f32, f16 or bf16) and one word per row (None: rows named "0".."V-1").

Example:
    >>> t = lumen.Table.from_array(np.eye(3, dtype=np.float32), ["a", "b", "c"])
)doc");
  cls.def_property_readonly(
      "vectors",
      [](const py::object& self) {
        const Table& t = self.cast<const PyTable&>().table;
        return rows_view(self, t, 0, t.V(), true);
      },
      R"doc(E (V, d) as a read-only NumPy array over the table's own memory: no copy (a memory-mapped file stays
mapped; the array keeps the table alive). f32 -> float32, f16 -> float16, bf16 -> uint16 (the raw bits).
torch.from_numpy(table.vectors) shares it with PyTorch (np.array(table.vectors) makes a writable copy).)doc");
  cls.def_property_readonly(
      "words",
      [](const TablePtr& self) {
        py::list out;
        for (const auto& w : self->table.vocab.tokens()) out.append(word_str(w));
        return out;
      },
      "The tokens, row by row (a list of V str; invalid UTF-8 kept as lone surrogates).");
  cls.def(
      "info",
      [](const TablePtr& self) {
        io::Summary s;
        project::Anisotropy an;
        {
          const py::gil_scoped_release nogil;
          s = io::summarize(self->table.E);
          an = project::anisotropy(self->table.E);
        }
        nlohmann::json j = io::table_info_json(self->table, self->report, s);
        j["anisotropy"] = project::anisotropy_json(an);
        return to_python(j);
      },
      "What `lumen info --json` says of the table, as a dict with the same keys: source, format, V, d, dtype, bytes,\n"
      "file_bytes, mapped, norm {min, median, max}, nan, inf, nonfinite rows, duplicates, anisotropy, ...\n\n"
      "Example:\n    >>> lumen.load(\"toy\").info()[\"V\"]\n    30");
  cls.def(
      "anisotropy",
      [](const TablePtr& self, std::size_t pairs, std::size_t max_rows, std::uint64_t seed, bool keep_pairs,
         const py::object& threads) -> py::object {
        project::AnisotropyOptions o;
        o.pairs = pairs;
        o.max_rows = max_rows;
        o.seed = seed;
        o.keep_pairs = keep_pairs;
        o.threads = thread_count(threads);
        project::Anisotropy an;
        {
          const py::gil_scoped_release nogil;
          an = project::anisotropy(self->table.E, o);
        }
        py::object out = to_python(project::anisotropy_json(an));
        if (keep_pairs && an.defined()) {
          py::array_t<std::int64_t> ids({static_cast<py::ssize_t>(an.pair_ids.size()), py::ssize_t{2}});
          auto w = ids.mutable_unchecked<2>();
          for (std::size_t p = 0; p < an.pair_ids.size(); ++p)
            for (std::size_t c = 0; c < 2; ++c) w(p, c) = an.pair_ids[p][c];
          out["pair_ids"] = ids;
        }
        return out;
      },
      py::arg("pairs") = 10000, py::arg("max_rows") = 10000, py::arg("seed") = 0, py::arg("keep_pairs") = false,
      py::arg("threads") = py::none(),
      "How far the rows point one way, as `lumen info --json` reports it under \"anisotropy\": the mean cosine of\n"
      "`pairs` random pairs of distinct rows (every pair when there are no more) with its standard deviation, and\n"
      "the share of the variance along the top principal direction (fitted on at most `max_rows` random rows).\n"
      "Rows with NaN/Inf or only zeros are left out; None when fewer than two remain. keep_pairs=True adds\n"
      "\"pair_ids\", the (pairs, 2) row ids the mean is over.\n\n"
      "Example:\n    >>> round(lumen.load(\"toy\").anisotropy()[\"mean_cosine\"], 2)\n    -0.03");
  cls.def_property_readonly(
      "V", [](const TablePtr& self) { return self->table.V(); }, "Rows (tokens).");
  cls.def_property_readonly(
      "d", [](const TablePtr& self) { return self->table.d(); }, "Dimensions.");
  cls.def_property_readonly(
      "shape", [](const TablePtr& self) { return py::make_tuple(self->table.V(), self->table.d()); }, "(V, d).");
  cls.def_property_readonly(
      "dtype", [](const TablePtr& self) { return std::string(dtype_name(self->table.E.dtype())); },
      "Storage type: 'f32', 'f16' or 'bf16'.");
  cls.def_property_readonly(
      "source", [](const TablePtr& self) { return self->table.source; }, "Where it came from.");
  cls.def_property_readonly(
      "format", [](const TablePtr& self) { return self->table.format; }, "The format read.");
  cls.def_property_readonly(
      "mapped", [](const TablePtr& self) { return !self->table.E.owned(); },
      "True if E is the memory-mapped file itself (nothing copied).");
  cls.def("__len__", [](const TablePtr& self) { return self->table.V(); });
  cls.def("__contains__", [](const TablePtr& self, const py::object& w) {
    return (py::isinstance<py::str>(w) || py::isinstance<py::bytes>(w)) &&
           self->table.vocab.find(word_bytes(w)).has_value();
  });
  cls.def("__getitem__", &getitem, py::arg("word"), R"doc(
The row of a word (or of an int row id) as a read-only NumPy view (no copy). A word outside a fastText model's
vocabulary gets its vector from subword n-grams (a new array). A missing word raises KeyError (lumen.UnknownWordError)
with close spellings in .suggestions.

Example:
    >>> table["king"]
)doc");
  cls.def(
      "id", [](const TablePtr& self, const py::object& w) { return self->table.vocab.require(word_bytes(w)); },
      py::arg("word"), "The row of a word (KeyError with close spellings if missing).");
  cls.def("__repr__", [](const TablePtr& self) {
    const Table& t = self->table;
    return fmt::format("lumen.Table('{}', V={}, d={}, dtype={}, format={})", t.source, t.V(), t.d(),
                       dtype_name(t.E.dtype()), t.format);
  });
  cls.def("neighbours", &neighbours, py::arg("query"), py::arg("k") = 10, py::kw_only(), py::arg("metric") = "cosine",
          py::arg("restrict") = 0, py::arg("exclude") = true, py::arg("threads") = py::none(), py::arg("json") = false,
          R"doc(
The k nearest rows to a word, a list of words, a vector (d) or a batch of vectors (B, d), nearest first, as
[(word, score), ...] (a list of such lists for a batch). metric: "cosine", "dot" or "euclidean" (a distance: lower
is nearer). restrict: search only the first N rows (0: all). exclude: True leaves each query word out of its own
answers (as gensim's most_similar); False keeps it; a list of words or ids leaves those out too. A k larger than the
rows searched returns them all. A batch goes through one GEMM pass (the GIL released). json=True (words only):
`lumen neighbours --json`'s dict for each word (query, id, metric, approx, k, neighbours: token, display, id, score).

Example:
    >>> table.neighbours("king", k=5)
    >>> table.neighbours(["king", "queen"], metric="dot")
    >>> table.neighbours(np.random.rand(1024, table.d).astype(np.float32))
)doc");
  cls.def("search", &search_arrays, py::arg("queries"), py::arg("k") = 10, py::kw_only(), py::arg("metric") = "cosine",
          py::arg("restrict") = 0, py::arg("exclude") = py::none(), py::arg("threads") = py::none(), R"doc(
Batch search as FAISS returns it: (scores (B, k) float32, ids (B, k) int64) for queries (B, d), no Python object per
result; -1 and NaN where fewer than k rows qualify. exclude: one list of row ids per query (or None).

Example:
    >>> D, I = table.search(table.vectors[:1024], k=10)
)doc");
  cls.def("analogy", &analogy, py::arg("a"), py::arg("b"), py::arg("c"), py::kw_only(), py::arg("k") = 10,
          py::arg("method") = "add", py::arg("exclude") = true, py::arg("restrict") = 0,
          py::arg("threads") = py::none(), py::arg("json") = false, R"doc(
a : b :: c : ?  (man : king :: woman : queen). method "add" (3CosAdd, gensim's most_similar) or "mul" (3CosMul);
exclude=False lets the inputs be answers (they very often are). Returns [(word, score), ...], best first;
json=True: `lumen analogy --json`'s dict (query, a, b, c, method, exclude_inputs, k, answers).

Example:
    >>> table.analogy("man", "king", "woman", k=1)
    [('queen', 0.7...)]
)doc");
  cls.def(
      "similarity",
      [](const TablePtr& self, const py::object& a, const py::object& b, const std::string& metric,
         bool json) -> py::object {
        const Table& t = self->table;
        const search::Searcher& s = self->searcher();
        const search::QueryWord qa = search::lookup(t, word_bytes(a)), qb = search::lookup(t, word_bytes(b));
        const search::Metric kind = search::parse_metric(metric);
        const float score = search::similarity(s, qa, qb, kind);
        if (!json) return py::float_(score);
        return to_python(search::similarity_json(qa, qb, kind, score, search::similarity_parts(s, qa, qb)));
      },
      py::arg("a"), py::arg("b"), py::kw_only(), py::arg("metric") = "cosine", py::arg("json") = false, R"doc(
The cosine (or dot, or euclidean distance) of two words. json=True: `lumen similarity --json`'s dict (w1, w2, id1,
id2, metric, score, cosine, dot, norm1, norm2).

Example:
    >>> table.similarity("cat", "dog")
)doc");
  cls.def(
      "doesnt_match",
      [](const TablePtr& self, const std::vector<py::object>& words, bool json) -> py::object {
        const Table& t = self->table;
        std::vector<Id> ids;
        std::vector<std::string> names;
        ids.reserve(words.size());
        for (const auto& w : words) ids.push_back(t.vocab.require(names.emplace_back(word_bytes(w))));
        const auto r = search::doesnt_match(self->searcher(), ids);
        if (json) return to_python(search::doesnt_match_json(names, r, RowNames{t.vocab, {}}));
        if (!r.id) return py::none();
        return word_str(t.vocab.token(*r.id));
      },
      py::arg("words"), py::kw_only(), py::arg("json") = false, R"doc(
The word least like the others (gensim's doesnt_match); None when a row holds NaN or Inf. json=True:
`lumen doesnt-match --json`'s dict (words, doesnt_match, id, scores).

Example:
    >>> table.doesnt_match(["breakfast", "lunch", "dinner", "car"])
    'car'
)doc");
  cls.def("save", &save, py::arg("path"), py::kw_only(), py::arg("format") = py::none(), py::arg("vocab") = py::none(),
          py::arg("tensor") = "wte.weight", R"doc(
Writes the table (atomically: an error leaves no half-written file). format: "word2vec-text", "word2vec-binary",
"glove", "safetensors", "npy", "projector-tsv" (default: from the extension, as `lumen convert`).

Example:
    >>> table.save("out.npy")      # and out.vocab.txt beside it
)doc");
}

}  // namespace lumen::python
