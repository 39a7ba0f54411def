// lumen.nn: the embedding layer's forward and backward on NumPy arrays (the C++ layer's numbers), and
// lumen.params, the parameter calculator.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fmt/format.h>
#include <optional>

#include "bindings.hpp"
#include "lumen/core/error.hpp"
#include "lumen/model/config.hpp"
#include "lumen/nn/embedding.hpp"
#include "lumen/nn/params.hpp"
#include "lumen/nn/params_json.hpp"

namespace lumen::python {
namespace {

using IdArray = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;

// A writable NumPy view of an f32 matrix owned by `owner` (the Embedding object).
py::array matrix_view(const py::object& owner, Matrix& m) {
  return py::array_t<float>({static_cast<py::ssize_t>(m.rows()), static_cast<py::ssize_t>(m.cols())},
                            m.f32_mut().data(), owner);
}

nn::EmbeddingOptions options(const std::optional<Id>& padding_idx, const std::optional<float>& max_norm,
                             bool scale_sqrt_d) {
  nn::EmbeddingOptions o;
  o.padding_idx = padding_idx;
  o.max_norm = max_norm;
  o.scale_sqrt_d = scale_sqrt_d;
  return o;
}

// Token ids as int64: any integer array or sequence. Floats are refused, not truncated (1.7 is no token's name).
IdArray ids_of(const py::object& obj) {
  const py::array a = py::module_::import("numpy").attr("asarray")(obj);
  const char kind = a.dtype().kind();
  if (kind != 'i' && kind != 'u' && a.size() != 0)
    throw py::type_error(fmt::format("ids: an integer array, not dtype {} (token ids are names, not numbers)",
                                     std::string(py::str(a.dtype()))));
  return IdArray::ensure(a);
}

std::vector<py::ssize_t> out_shape(const IdArray& ids, std::size_t d) {
  std::vector<py::ssize_t> shape(ids.shape(), ids.shape() + ids.ndim());
  shape.push_back(static_cast<py::ssize_t>(d));
  return shape;
}

}  // namespace

void register_nn(py::module_& m) {
  py::class_<nn::Embedding, std::shared_ptr<nn::Embedding>> cls(m, "Embedding", R"doc(
The embedding layer: a table E (V, d) whose row i is the vector of token i. forward(ids) gathers rows; backward(ids,
dY) adds dY into the gradient dE row by row. PyTorch's nn.Embedding semantics where they overlap (padding_idx,
max_norm), plus the original transformer's sqrt(d) scale. The same numbers as lumen's C++ layer.

Example:
    >>> emb = lumen.nn.Embedding(50257, 768, std=0.02, seed=0)
    >>> Y = emb.forward(np.array([[464, 3797]]))      # (1, 2, 768)
    >>> emb.backward(np.array([[464, 3797]]), np.ones_like(Y))
    >>> emb.grad[464]
)doc");
  cls.def(py::init([](std::size_t V, std::size_t d, std::optional<Id> padding_idx, std::optional<float> max_norm,
                      bool scale_sqrt_d, float std, std::uint64_t seed) {
            auto e = std::make_shared<nn::Embedding>(V, d, options(padding_idx, max_norm, scale_sqrt_d));
            e->init_normal(std, seed);
            return e;
          }),
          py::arg("V"), py::arg("d"), py::kw_only(), py::arg("padding_idx") = py::none(),
          py::arg("max_norm") = py::none(), py::arg("scale_sqrt_d") = false, py::arg("std") = 0.02f,
          py::arg("seed") = 0, "E (V, d) with every entry ~ N(0, std^2) from lumen's Rng(seed); the padding row zero.");
  cls.def_static(
      "from_array",
      [](const py::object& array, std::optional<Id> padding_idx, std::optional<float> max_norm, bool scale_sqrt_d) {
        const FloatArray a = FloatArray::ensure(array);
        if (!a || a.ndim() != 2) throw UsageError("E must be a 2-D array (V, d)");
        Matrix E(static_cast<std::size_t>(a.shape(0)), static_cast<std::size_t>(a.shape(1)));
        std::copy(a.data(), a.data() + a.size(), E.f32_mut().data());
        return std::make_shared<nn::Embedding>(std::move(E), options(padding_idx, max_norm, scale_sqrt_d));
      },
      py::arg("E"), py::kw_only(), py::arg("padding_idx") = py::none(), py::arg("max_norm") = py::none(),
      py::arg("scale_sqrt_d") = false, "A layer over a copy of E (V, d) (e.g. table.vectors).");
  cls.def_property_readonly("V", &nn::Embedding::V);
  cls.def_property_readonly("d", &nn::Embedding::d);
  cls.def_property_readonly(
      "weight", [](const py::object& self) { return matrix_view(self, self.cast<nn::Embedding&>().E()); },
      "E (V, d) as a writable NumPy view (no copy).");
  cls.def_property_readonly(
      "grad", [](const py::object& self) { return matrix_view(self, self.cast<nn::Embedding&>().dE()); },
      "dE (V, d) as a writable NumPy view (zeros until backward).");
  cls.def("zero_grad", &nn::Embedding::zero_grad);
  cls.def(
      "forward",
      [](nn::Embedding& e, const py::object& ids_obj, const py::object& threads) {
        const IdArray ids = ids_of(ids_obj);
        py::array_t<float> out(out_shape(ids, e.d()));
        const std::span<const Id> in(ids.data(), static_cast<std::size_t>(ids.size()));
        const std::span<float> o(out.mutable_data(), static_cast<std::size_t>(out.size()));
        const std::size_t n = thread_count(threads);
        {
          const py::gil_scoped_release nogil;
          e.forward(in, 1, in.size(), o, n);
        }
        return out;
      },
      py::arg("ids"), py::kw_only(), py::arg("threads") = py::none(),
      "ids (any shape, e.g. (B, T)) -> rows of E (..., d). IndexError-like ValueError for an id outside [0, V).");
  cls.def(
      "__call__", [](const py::object& self, const py::object& ids) { return self.attr("forward")(ids); },
      py::arg("ids"));
  cls.def(
      "backward",
      [](nn::Embedding& e, const py::object& ids_obj, const py::object& dy_obj, const py::object& threads) {
        const IdArray ids = ids_of(ids_obj);
        const FloatArray dY = FloatArray::ensure(dy_obj);
        if (!dY) throw py::type_error("dY: a float array");
        if (static_cast<std::size_t>(dY.size()) != static_cast<std::size_t>(ids.size()) * e.d())
          throw UsageError(fmt::format("dY has {} values; ids {} x d {} expected", dY.size(), ids.size(), e.d()));
        const std::span<const Id> in(ids.data(), static_cast<std::size_t>(ids.size()));
        const std::span<const float> g(dY.data(), static_cast<std::size_t>(dY.size()));
        const std::size_t n = thread_count(threads);
        const py::gil_scoped_release nogil;
        e.backward(in, g, n);
      },
      py::arg("ids"), py::arg("dY"), py::kw_only(), py::arg("threads") = py::none(),
      "dE[ids[i]] += dY[i] (times sqrt(d) if scaled); the padding row gets nothing.");
}

void register_params(py::module_& m) {
  m.def(
      "params",
      [](const std::string& name, bool sweep) {
        const nn::ModelShape s = model::shape_named(name);
        const nn::ParamCount c = nn::count_params(s);
        return to_python(sweep ? nn::sweep_json(s) : nn::params_json(s, c));
      },
      py::arg("name") = "gpt2", py::kw_only(), py::arg("sweep") = false, R"doc(
Where a model's parameters are: the dict `lumen params NAME --json` prints (token_embedding, per_block, total,
embedding_share, memory_bytes, shape, ...). Names: gpt2, gpt2-medium, gpt2-large, gpt2-xl, llama-3-8b, llama-3.2-1b,
or a checkpoint directory (its config.json).
sweep=True: the embedding's share as d and N grow.

Example:
    >>> lumen.params("gpt2")["token_embedding"]
    38597376
)doc");
}

}  // namespace lumen::python
