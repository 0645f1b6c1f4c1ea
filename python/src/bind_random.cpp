// copper._core._random: the Generator, RandomState and legacy functions of
// copper.random. size=None gives a 0-d array (as CuPy), never a Python scalar.
#include "bindings.h"
#include "api/random_internal.h"
#include "copper/random.hpp"

namespace copper::python {

namespace {

using random::Generator;
using random::RandomState;

Shape size_of(nb::handle size) { return size.is_none() ? Shape{} : shape_from_py(size); }

// The output array and the size it implies (out's shape when size is None).
const ndarray* out_of(nb::handle out) {
  if (out.is_none()) return nullptr;
  if (!nb::isinstance<ndarray>(out)) throw TypeError("out must be a copper.ndarray");
  return &nb::cast<const ndarray&>(out);
}

// Whether v is an array-valued parameter (ndim > 0, or a sequence): NumPy treats 0-d
// arrays and numbers as scalars.
bool is_array_param(nb::handle v) {
  if (nb::isinstance<ndarray>(v)) return nb::cast<const ndarray&>(v).ndim() > 0;
  if (nb::hasattr(v, "ndim")) return nb::cast<int>(v.attr("ndim")) > 0;
  return PySequence_Check(v.ptr()) && !PyUnicode_Check(v.ptr()) && !PyBytes_Check(v.ptr());
}

double real_of(nb::handle v, const char*) {
  if (nb::isinstance<ndarray>(v)) return nb::cast<const ndarray&>(v).astype(float64).to_vector<double>().at(0);
  const double d = PyFloat_AsDouble(v.ptr());
  if (d == -1.0 && PyErr_Occurred()) throw nb::python_error();
  return d;
}

// A parameter as copper sees it: arrays (copper arrays stay on their device; the draw
// moves them) or a float.
random::Param param_of(nb::handle v) {
  if (!is_array_param(v)) return random::Param(real_of(v, ""));
  if (nb::isinstance<ndarray>(v)) return random::Param(nb::cast<const ndarray&>(v));
  return random::Param(array_from_py(v, std::nullopt, default_device()));
}

std::optional<Shape> opt_size(nb::handle size) {
  if (size.is_none()) return std::nullopt;
  return shape_from_py(size);
}

// A Python int as 128 bits: enough to tell every in-range bound from an out-of-range one.
__int128 wide_int(nb::handle v) {
  nb::object i = nb::steal(PyNumber_Index(v.ptr()));
  if (!i.is_valid()) throw nb::python_error();
  int overflow = 0;
  const long long s = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (!overflow) return s;
  // Split into 64-bit halves; anything past +-2^90 is out of every dtype's range anyway.
  const nb::object hi = nb::steal(PyNumber_Rshift(i.ptr(), nb::int_(64).ptr()));
  const long long hi_word = PyLong_AsLongLongAndOverflow(hi.ptr(), &overflow);
  if (overflow || hi_word > (1LL << 26) || hi_word < -(1LL << 26))
    return (hi_word < 0 || overflow < 0 ? -1 : 1) * (static_cast<__int128>(1) << 90);
  const nb::object lo = nb::steal(PyNumber_And(i.ptr(), nb::int_(0xffffffffffffffffull).ptr()));
  return static_cast<__int128>(hi_word) * (static_cast<__int128>(1) << 64) +
         static_cast<__int128>(PyLong_AsUnsignedLongLong(lo.ptr()));
}

// An integer bound as a copper array (0-d for a Python int: int64, or uint64 past 2**63).
ndarray int_param_of(nb::handle v) {
  if (nb::isinstance<ndarray>(v)) return nb::cast<const ndarray&>(v);
  if (is_array_param(v) || nb::hasattr(v, "ndim")) return array_from_py(v, std::nullopt, default_device());
  const __int128 w = wide_int(v);
  if (w > INT64_MAX && w <= static_cast<__int128>(UINT64_MAX)) {
    const auto u = static_cast<std::uint64_t>(w);
    return array(&u, Shape{}, uint64, default_device());
  }
  if (w > INT64_MAX || w < INT64_MIN) throw OverflowError("Python int too large to convert to C long");
  const auto i = static_cast<std::int64_t>(w);
  return array(&i, Shape{}, int64, default_device());
}

ndarray integers_any(Generator& g, nb::handle low, nb::handle high, nb::handle size, DType t, bool endpoint) {
  if (is_array_param(low) || is_array_param(high)) {
    std::optional<ndarray> hi;
    if (!high.is_none()) hi = int_param_of(high);
    return g.integers(int_param_of(low), hi, opt_size(size), t, endpoint);
  }
  if (high.is_none()) {
    const __int128 h = wide_int(low);
    if (endpoint ? h < 0 : h <= 0) throw ValueError(endpoint ? "high < 0" : "high <= 0");
    return random::integers_wide(g, 0, h, endpoint, size_of(size), t);
  }
  return random::integers_wide(g, wide_int(low), wide_int(high), endpoint, size_of(size), t);
}

std::uint64_t seed_of(nb::handle seed) {
  if (PyFloat_Check(seed.ptr()) || !nb::hasattr(seed, "__index__"))
    throw TypeError("SeedSequence expects int or sequence of ints for entropy not " +
                    std::string(nb::str(seed).c_str()));
  nb::object i = nb::steal(PyNumber_Index(seed.ptr()));
  if (PyObject_RichCompareBool(i.ptr(), nb::int_(0).ptr(), Py_LT)) throw ValueError("expected non-negative integer");
  // Seeds past 64 bits fold their 64-bit pieces together.
  std::uint64_t folded = 0;
  nb::object rest = i;
  const nb::object mask = nb::int_(0xffffffffffffffffull), shift = nb::int_(64);
  for (int k = 0; PyObject_IsTrue(rest.ptr()); ++k) {
    folded ^= nb::cast<std::uint64_t>(rest & mask) * (k ? 0x9E3779B97F4A7C15ull * k : 1);
    rest = rest >> shift;
  }
  return folded;
}

std::optional<std::int64_t> legacy_seed(nb::handle seed) {
  if (seed.is_none()) return std::nullopt;
  const __int128 s = wide_int(seed);
  if (s < 0 || s > 0xffffffffLL) throw ValueError("Seed must be between 0 and 2**32 - 1");
  return static_cast<std::int64_t>(s);
}

std::optional<std::vector<double>> probabilities(nb::handle p) {
  if (p.is_none()) return std::nullopt;
  nb::object arr = numpy().attr("asarray")(nb::isinstance<ndarray>(p) ? to_numpy(nb::cast<const ndarray&>(p)) : nb::borrow(p),
                                           "float64");
  if (nb::cast<int>(arr.attr("ndim")) != 1) throw ValueError("p must be 1-dimensional");
  return nb::cast<std::vector<double>>(arr.attr("tolist")());
}

}  // namespace

void bind_random(nb::module_& m) {
  nb::module_ r = m.def_submodule("_random", "random numbers (see copper.random)");
  const nb::object f64 = nb::none(), none = nb::none();
  auto float_dtype = [](nb::handle dtype) { return dtype.is_none() ? float64 : dtype_from_py(dtype); };

  nb::class_<Generator>(r, "Generator")
      .def(
          "__init__", [](Generator* g, nb::handle seed) {
            if (seed.is_none()) new (g) Generator();
            else new (g) Generator(seed_of(seed));
          },
          nb::arg("seed") = nb::none())
      .def_prop_ro("bit_generator", [](nb::handle self) { return nb::borrow(self); })
      .def("random_raw", [](Generator& g, nb::handle size) { return g.random_raw(size_of(size)); },
           nb::arg("size") = nb::none())
      .def(
          "random",
          [=](Generator& g, nb::handle size, nb::handle dtype, nb::handle out) {
            return g.random(size_of(size), float_dtype(dtype), out_of(out));
          },
          nb::arg("size") = nb::none(), nb::arg("dtype") = nb::none(), nb::arg("out") = nb::none())
      .def(
          "uniform",
          [](Generator& g, nb::handle low, nb::handle high, nb::handle size) {
            if (is_array_param(low) || is_array_param(high)) return g.uniform(param_of(low), param_of(high), opt_size(size));
            return g.uniform(real_of(low, "low"), real_of(high, "high"), size_of(size));
          },
          nb::arg("low") = 0.0, nb::arg("high") = 1.0, nb::arg("size") = nb::none())
      .def(
          "integers",
          [](Generator& g, nb::handle low, nb::handle high, nb::handle size, nb::handle dtype, bool endpoint) {
            const DType t = dtype.is_none() ? int64 : dtype_from_py(dtype);
            return integers_any(g, low, high, size, t, endpoint);
          },
          nb::arg("low"), nb::arg("high") = nb::none(), nb::arg("size") = nb::none(), nb::arg("dtype") = nb::none(),
          nb::arg("endpoint") = false)
      .def(
          "standard_normal",
          [=](Generator& g, nb::handle size, nb::handle dtype, nb::handle out) {
            return g.standard_normal(size_of(size), float_dtype(dtype), out_of(out));
          },
          nb::arg("size") = nb::none(), nb::arg("dtype") = nb::none(), nb::arg("out") = nb::none())
      .def(
          "normal",
          [](Generator& g, nb::handle loc, nb::handle scale, nb::handle size) {
            if (is_array_param(loc) || is_array_param(scale)) return g.normal(param_of(loc), param_of(scale), opt_size(size));
            return g.normal(real_of(loc, "loc"), real_of(scale, "scale"), size_of(size));
          },
          nb::arg("loc") = 0.0, nb::arg("scale") = 1.0, nb::arg("size") = nb::none())
      .def(
          "standard_exponential",
          [=](Generator& g, nb::handle size, nb::handle dtype, nb::handle method, nb::handle out) {
            return g.standard_exponential(size_of(size), float_dtype(dtype), out_of(out));
          },
          nb::arg("size") = nb::none(), nb::arg("dtype") = nb::none(), nb::arg("method") = "zig",
          nb::arg("out") = nb::none())
      .def(
          "exponential",
          [](Generator& g, nb::handle scale, nb::handle size) {
            if (is_array_param(scale)) return g.exponential(param_of(scale), opt_size(size));
            return g.exponential(real_of(scale, "scale"), size_of(size));
          },
          nb::arg("scale") = 1.0, nb::arg("size") = nb::none())
      .def(
          "standard_gamma",
          [=](Generator& g, nb::handle shape, nb::handle size, nb::handle dtype, nb::handle out) {
            if (!out.is_none()) throw NotImplementedError("copper.random: standard_gamma(out=) is not supported yet");
            return g.standard_gamma(param_of(shape), opt_size(size), float_dtype(dtype));
          },
          nb::arg("shape"), nb::arg("size") = nb::none(), nb::arg("dtype") = nb::none(), nb::arg("out") = nb::none())
      .def(
          "gamma",
          [](Generator& g, nb::handle shape, nb::handle scale, nb::handle size) {
            return g.gamma(param_of(shape), param_of(scale), opt_size(size));
          },
          nb::arg("shape"), nb::arg("scale") = 1.0, nb::arg("size") = nb::none())
      .def(
          "beta",
          [](Generator& g, nb::handle a, nb::handle b, nb::handle size) {
            return g.beta(param_of(a), param_of(b), opt_size(size));
          },
          nb::arg("a"), nb::arg("b"), nb::arg("size") = nb::none())
      .def(
          "binomial",
          [](Generator& g, nb::handle n, nb::handle p, nb::handle size) {
            if (is_array_param(n)) return g.binomial(param_of(n), param_of(p), opt_size(size));
            if (PyFloat_Check(n.ptr())) return g.binomial(random::Param(real_of(n, "n")), param_of(p), opt_size(size));
            return g.binomial(random::Param(int_param_of(n).astype(int64)), param_of(p), opt_size(size));
          },
          nb::arg("n"), nb::arg("p"), nb::arg("size") = nb::none())
      .def(
          "poisson",
          [](Generator& g, nb::handle lam, nb::handle size) { return g.poisson(param_of(lam), opt_size(size)); },
          nb::arg("lam") = 1.0, nb::arg("size") = nb::none())
      .def(
          "choice",
          [](Generator& g, nb::handle a, nb::handle size, bool replace, nb::handle p, int axis, bool shuffle) {
            if (axis != 0) throw NotImplementedError("copper.random: choice(axis != 0) is not supported yet");
            const auto probs = probabilities(p);
            const std::vector<double>* pp = probs ? &*probs : nullptr;
            if (PyLong_Check(a.ptr()) || (nb::hasattr(a, "__index__") && !nb::hasattr(a, "ndim")) ||
                (nb::hasattr(a, "ndim") && nb::hasattr(a, "__index__") && nb::cast<int>(a.attr("ndim")) == 0 &&
                 !nb::isinstance<ndarray>(a)))
              return g.choice(static_cast<std::int64_t>(wide_int(a)), size_of(size), replace, pp, shuffle);
            return g.choice(array_from_py(a, std::nullopt, default_device()), size_of(size), replace, pp, shuffle);
          },
          nb::arg("a"), nb::arg("size") = nb::none(), nb::arg("replace") = true, nb::arg("p") = nb::none(),
          nb::arg("axis") = 0, nb::arg("shuffle") = true)
      .def(
          "permutation",
          [](Generator& g, nb::handle x, int axis) {
            if (axis != 0) throw NotImplementedError("copper.random: permutation(axis != 0) is not supported yet");
            if (PyLong_Check(x.ptr())) return g.permutation(nb::cast<std::int64_t>(x));
            return g.permutation(array_from_py(x, std::nullopt, default_device()));
          },
          nb::arg("x"), nb::arg("axis") = 0)
      .def(
          "shuffle",
          [](Generator& g, nb::handle x, int axis) {
            if (axis != 0) throw NotImplementedError("copper.random: shuffle(axis != 0) is not supported yet");
            if (!nb::isinstance<ndarray>(x)) {
              if (!nb::hasattr(x, "__len__")) throw TypeError("len() of unsized object");
              throw TypeError("copper.random: shuffle needs a copper.ndarray");
            }
            ndarray a = nb::cast<ndarray>(x);
            g.shuffle(a);
          },
          nb::arg("x"), nb::arg("axis") = 0);

  nb::class_<RandomState>(r, "RandomState")
      .def("__init__", [](RandomState* s, nb::handle seed) { new (s) RandomState(legacy_seed(seed)); },
           nb::arg("seed") = nb::none())
      .def("seed", [](RandomState& s, nb::handle seed) { s.seed(legacy_seed(seed)); }, nb::arg("seed") = nb::none())
      .def("_rand", [](RandomState& s, nb::handle size) { return s.rand(size_of(size)); })
      .def("_randn", [](RandomState& s, nb::handle size) { return s.randn(size_of(size)); })
      .def(
          "randint",
          [](RandomState& s, nb::handle low, nb::handle high, nb::handle size, nb::handle dtype) {
            const DType t = dtype.is_none() ? int64 : dtype_from_py(dtype);
            return integers_any(s.generator(), low, high, size, t, false);
          },
          nb::arg("low"), nb::arg("high") = nb::none(), nb::arg("size") = nb::none(), nb::arg("dtype") = nb::none())
      .def("random_sample", [](RandomState& s, nb::handle size) { return s.random_sample(size_of(size)); },
           nb::arg("size") = nb::none())
      .def("random", [](RandomState& s, nb::handle size) { return s.random_sample(size_of(size)); },
           nb::arg("size") = nb::none())
      .def(
          "uniform",
          [](RandomState& s, nb::handle low, nb::handle high, nb::handle size) {
            if (is_array_param(low) || is_array_param(high)) return s.uniform(param_of(low), param_of(high), opt_size(size));
            return s.uniform(real_of(low, "low"), real_of(high, "high"), size_of(size));
          },
          nb::arg("low") = 0.0, nb::arg("high") = 1.0, nb::arg("size") = nb::none())
      .def(
          "normal",
          [](RandomState& s, nb::handle loc, nb::handle scale, nb::handle size) {
            if (is_array_param(loc) || is_array_param(scale)) return s.normal(param_of(loc), param_of(scale), opt_size(size));
            return s.normal(real_of(loc, "loc"), real_of(scale, "scale"), size_of(size));
          },
          nb::arg("loc") = 0.0, nb::arg("scale") = 1.0, nb::arg("size") = nb::none())
      .def("standard_normal", [](RandomState& s, nb::handle size) { return s.standard_normal(size_of(size)); },
           nb::arg("size") = nb::none());

  r.def("_global_state", []() -> RandomState& { return random::global_state(); }, nb::rv_policy::reference);
}

}  // namespace copper::python
