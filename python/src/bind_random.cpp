// copper._core._random: the Generator, RandomState and legacy functions of
// copper.random. size=None gives a 0-d array (as CuPy), never a Python scalar.
#include "bindings.h"
#include "api/random_internal.h"
#include "bind_random_util.h"
#include "copper/random.hpp"

namespace copper::python {

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

// An integer bound that may be given as a float: truncated toward zero, as NumPy's int().
__int128 bound_int(nb::handle v) {
  if (nb::hasattr(v, "__index__")) return wide_int(v);
  nb::object i = nb::steal(PyNumber_Long(v.ptr()));
  if (!i.is_valid()) throw nb::python_error();
  return wide_int(i);
}

ndarray integers_any(Generator& g, nb::handle low, nb::handle high, nb::handle size, DType t, bool endpoint) {
  if (is_array_param(low) || is_array_param(high)) {
    std::optional<ndarray> hi;
    if (!high.is_none()) hi = int_param_of(high);
    return g.integers(int_param_of(low), hi, opt_size(size), t, endpoint);
  }
  if (high.is_none()) {
    const __int128 h = bound_int(low);
    if (endpoint ? h < 0 : h <= 0) throw ValueError(endpoint ? "high < 0" : "high <= 0");
    return random::integers_wide(g, 0, h, endpoint, size_of(size), t);
  }
  return random::integers_wide(g, bound_int(low), bound_int(high), endpoint, size_of(size), t);
}

DType dtype_or(nb::handle dtype, DType fallback) { return dtype.is_none() ? fallback : dtype_from_py(dtype); }

namespace {

// One seed value as an integer: ints and NumPy integers; TypeError for the rest.
nb::object seed_int(nb::handle v) {
  if (PyFloat_Check(v.ptr()) || PyComplex_Check(v.ptr()) || !nb::hasattr(v, "__index__") ||
      (nb::hasattr(v, "dtype") && nb::str(v.attr("dtype").attr("kind")).equal(nb::str("b"))))
    throw TypeError("SeedSequence expects int or sequence of ints for entropy not " + std::string(nb::str(v).c_str()));
  nb::object i = nb::steal(PyNumber_Index(v.ptr()));
  if (!i.is_valid()) throw nb::python_error();
  if (PyObject_RichCompareBool(i.ptr(), nb::int_(0).ptr(), Py_LT)) throw ValueError("expected non-negative integer");
  return i;
}

void append_words(nb::handle i, std::vector<std::uint64_t>& words) {
  const nb::object mask = nb::int_(0xffffffffffffffffull), shift = nb::int_(64);
  nb::object rest = nb::borrow(i);
  do {
    words.push_back(nb::cast<std::uint64_t>(rest & mask));
    rest = rest >> shift;
  } while (PyObject_IsTrue(rest.ptr()));
}

std::optional<std::int64_t> legacy_seed(nb::handle seed) {
  if (seed.is_none()) return std::nullopt;
  const __int128 s = wide_int(seed);
  if (s < 0 || s > 0xffffffffLL) throw ValueError("Seed must be between 0 and 2**32 - 1");
  return static_cast<std::int64_t>(s);
}

// NumPy's legacy seed: an int, or a 1-d sequence of ints; floats raise TypeError.
void seed_legacy(RandomState& s, nb::handle seed) {
  if (!seed.is_none() && (is_array_param(seed) || PySequence_Check(seed.ptr()))) {
    nb::object arr = numpy().attr("asarray")(seed);
    const std::string kind = nb::cast<std::string>(arr.attr("dtype").attr("kind"));
    if (kind != "i" && kind != "u") throw TypeError("Cannot cast array data from dtype('" +
                                                    nb::cast<std::string>(nb::str(arr.attr("dtype"))) +
                                                    "') to dtype('int64') according to the rule 'safe'");
    std::vector<std::uint64_t> words;
    for (nb::handle v : arr.attr("ravel")().attr("tolist")()) {
      const __int128 w = wide_int(v);
      if (w < 0 || w > 0xffffffffLL) throw ValueError("Seed must be between 0 and 2**32 - 1");
      words.push_back(static_cast<std::uint64_t>(w));
    }
    s.seed_words(words);
    return;
  }
  if (!seed.is_none() && !PyBool_Check(seed.ptr()) && nb::hasattr(seed, "dtype") &&
      nb::cast<std::string>(seed.attr("dtype").attr("kind")) == "b")
    throw ValueError("Seed array must be 1-d");  // NumPy reads a NumPy bool as a 0-d array
  if (!seed.is_none() && (PyFloat_Check(seed.ptr()) || PyComplex_Check(seed.ptr()) || !nb::hasattr(seed, "__index__")))
    throw TypeError("Cannot cast scalar from " + nb::cast<std::string>(nb::repr(numpy().attr("asarray")(seed).attr("dtype"))) +
                    " to dtype('int64') according to the rule 'safe'");
  s.seed(legacy_seed(seed));
}

std::optional<std::vector<double>> probabilities(nb::handle p, bool legacy) {
  if (p.is_none()) return std::nullopt;
  nb::object arr = numpy().attr("asarray")(nb::isinstance<ndarray>(p) ? to_numpy(nb::cast<const ndarray&>(p)) : nb::borrow(p),
                                           "float64");
  if (nb::cast<int>(arr.attr("ndim")) != 1) throw ValueError(legacy ? "'p' must be 1-dimensional" : "p must be 1-dimensional");
  return nb::cast<std::vector<double>>(arr.attr("tolist")());
}

// Whether `a` names a population size (a Python or NumPy integer) rather than an array.
bool is_population_size(nb::handle a) {
  if (nb::isinstance<ndarray>(a)) return false;
  if (PyLong_Check(a.ptr())) return true;
  return nb::hasattr(a, "__index__") && (!nb::hasattr(a, "ndim") || nb::cast<int>(a.attr("ndim")) == 0);
}

// The `out=` result: the caller's own object back (NumPy returns `out` itself).
nb::object result_or_out(const ndarray& r, nb::handle out) {
  if (!out.is_none()) return nb::borrow(out);
  return nb::cast(r);
}

}  // namespace

std::vector<std::uint64_t> seed_words(nb::handle seed) {
  std::vector<std::uint64_t> words;
  if (is_array_param(seed) || (PySequence_Check(seed.ptr()) && !PyUnicode_Check(seed.ptr()))) {
    nb::object arr = numpy().attr("asarray")(seed, "object");
    for (nb::handle v : arr.attr("ravel")().attr("tolist")()) append_words(seed_int(v), words);
    if (words.empty()) words.push_back(0);
    return words;
  }
  append_words(seed_int(seed), words);
  return words;
}

void bind_random(nb::module_& m) {
  nb::module_ r = m.def_submodule("_random", "random numbers (see copper.random)");
  auto float_dtype = [](nb::handle dtype) { return dtype_or(dtype, float64); };

  auto gen = nb::class_<Generator>(r, "Generator");
  gen.def(
         "__init__",
         [](Generator* g, nb::handle seed, std::uint64_t salt) {
           if (seed.is_none() && salt == 0) new (g) Generator();
           else if (seed.is_none()) new (g) Generator(Generator::from_words({Generator().key()}, salt));
           else new (g) Generator(Generator::from_words(seed_words(seed), salt));
         },
         nb::arg("seed") = nb::none(), nb::arg("salt") = 0)
      // Makes this generator draw from `other`'s stream (NumPy's Generator(bit_generator)).
      .def("_share", [](Generator& g, const Generator& other) { g = other; })
      .def("_get_state", [](const Generator& g) { return nb::make_tuple(g.key(), g.counter()); })
      .def("_set_state", [](Generator& g, std::uint64_t key, std::uint64_t counter) { g.set_state(key, counter); })
      .def("random_raw", [](Generator& g, nb::handle size) { return g.random_raw(size_of(size)); },
           nb::arg("size") = nb::none())
      .def(
          "random",
          [=](Generator& g, nb::handle size, nb::handle dtype, nb::handle out) {
            return result_or_out(g.random(size_of(size), float_dtype(dtype), out_of(out)), out);
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
            return integers_any(g, low, high, size, dtype_or(dtype, int64), endpoint);
          },
          nb::arg("low"), nb::arg("high") = nb::none(), nb::arg("size") = nb::none(), nb::arg("dtype") = nb::none(),
          nb::arg("endpoint") = false)
      .def(
          "standard_normal",
          [=](Generator& g, nb::handle size, nb::handle dtype, nb::handle out) {
            return result_or_out(g.standard_normal(size_of(size), float_dtype(dtype), out_of(out)), out);
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
          [=](Generator& g, nb::handle size, nb::handle dtype, nb::handle, nb::handle out) {
            return result_or_out(g.standard_exponential(size_of(size), float_dtype(dtype), out_of(out)), out);
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
          [=](Generator& g, nb::handle shape, nb::handle size, nb::handle dtype, nb::handle out) -> nb::object {
            const DType t = float_dtype(dtype);
            if (t != float32 && t != float64)
              throw TypeError("Unsupported dtype " + random::dtype_repr(t) + " for standard_gamma");
            const ndarray* o = out_of(out);
            if (!o) return nb::cast(g.standard_gamma(param_of(shape), opt_size(size), t));
            // out=: NumPy's checks (dtype, C-contiguity, size), then the draw copied in.
            if (o->dtype() != t)
              throw TypeError("Supplied output array has the wrong type. Expected " + std::string(name(t)) + ", got " +
                              std::string(name(o->dtype())));
            if (!o->is_c_contiguous())
              throw ValueError("Supplied output array must be contiguous, writable, aligned, and in machine byte-order.");
            if (!size.is_none() && shape_from_py(size) != o->shape())
              throw ValueError("size must match out.shape when used together");
            ndarray target = *o;
            target.assign(g.standard_gamma(param_of(shape), o->shape(), t));
            return nb::borrow(out);
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
            const auto probs = probabilities(p, false);
            const std::vector<double>* pp = probs ? &*probs : nullptr;
            if (is_population_size(a)) {
              if (axis != 0 && axis != -1) throw AxisError("axis " + std::to_string(axis) + " is out of bounds for array of dimension 1");
              return g.choice(static_cast<std::int64_t>(wide_int(a)), size_of(size), replace, pp, shuffle);
            }
            return g.choice(array_from_py(a, std::nullopt, default_device()), size_of(size), replace, pp, shuffle, axis);
          },
          nb::arg("a"), nb::arg("size") = nb::none(), nb::arg("replace") = true, nb::arg("p") = nb::none(),
          nb::arg("axis") = 0, nb::arg("shuffle") = true)
      .def(
          "permutation",
          [](Generator& g, nb::handle x, int axis) {
            if (PyLong_Check(x.ptr()) || (nb::hasattr(x, "__index__") && !nb::hasattr(x, "ndim")))
              return g.permutation(static_cast<std::int64_t>(wide_int(x)));
            return g.permutation(array_from_py(x, std::nullopt, default_device()), axis);
          },
          nb::arg("x"), nb::arg("axis") = 0)
      .def(
          "shuffle",
          [](Generator& g, nb::handle x, int axis) {
            if (!nb::isinstance<ndarray>(x)) {
              if (!nb::hasattr(x, "__len__")) throw TypeError("len() of unsized object");
              throw TypeError("copper.random: shuffle needs a copper.ndarray");
            }
            ndarray a = nb::cast<ndarray>(x);
            g.shuffle(a, axis);
          },
          nb::arg("x"), nb::arg("axis") = 0)
      .def("bytes", [](Generator& g, std::int64_t length) { return nb::bytes(g.bytes(length).data(), static_cast<std::size_t>(length)); },
           nb::arg("length"));

  auto legacy = nb::class_<RandomState>(r, "RandomState");
  legacy.def("__init__", [](RandomState* s, nb::handle seed) {
              new (s) RandomState();
              seed_legacy(*s, seed);
            }, nb::arg("seed") = nb::none())
      .def("seed", [](RandomState& s, nb::handle seed) { seed_legacy(s, seed); }, nb::arg("seed") = nb::none())
      .def_prop_ro("_generator", [](RandomState& s) { return s.generator(); })
      // Draws from `g`'s stream from now on (numpy.random.set_bit_generator).
      .def("_use_generator", [](RandomState& s, const Generator& g) { s.generator() = g; })
      .def(
          "randint",
          [](RandomState& s, nb::handle low, nb::handle high, nb::handle size, nb::handle dtype) {
            return integers_any(s.generator(), low, high, size, dtype_or(dtype, int64), false);
          },
          nb::arg("low"), nb::arg("high") = nb::none(), nb::arg("size") = nb::none(), nb::arg("dtype") = nb::none())
      .def(
          "random_integers",
          [](RandomState& s, nb::handle low, nb::handle high, nb::handle size) {
            if (high.is_none()) return integers_any(s.generator(), nb::int_(1), low, size, int64, true);
            return integers_any(s.generator(), low, high, size, int64, true);
          },
          nb::arg("low"), nb::arg("high") = nb::none(), nb::arg("size") = nb::none())
      .def("tomaxint", [](RandomState& s, nb::handle size) { return s.tomaxint(size_of(size)); },
           nb::arg("size") = nb::none())
      .def(
          "random_sample",
          [=](RandomState& s, nb::handle size, nb::handle dtype) { return s.random_sample(size_of(size), float_dtype(dtype)); },
          nb::arg("size") = nb::none(), nb::arg("dtype") = nb::none())
      .def(
          "uniform",
          [=](RandomState& s, nb::handle low, nb::handle high, nb::handle size, nb::handle dtype) {
            if (is_array_param(low) || is_array_param(high))
              return s.uniform(param_of(low), param_of(high), opt_size(size), float_dtype(dtype));
            return s.uniform(real_of(low, "low"), real_of(high, "high"), size_of(size), float_dtype(dtype));
          },
          nb::arg("low") = 0.0, nb::arg("high") = 1.0, nb::arg("size") = nb::none(), nb::arg("dtype") = nb::none())
      .def(
          "normal",
          [=](RandomState& s, nb::handle loc, nb::handle scale, nb::handle size, nb::handle dtype) {
            if (is_array_param(loc) || is_array_param(scale))
              return s.normal(param_of(loc), param_of(scale), opt_size(size), float_dtype(dtype));
            return s.normal(real_of(loc, "loc"), real_of(scale, "scale"), size_of(size), float_dtype(dtype));
          },
          nb::arg("loc") = 0.0, nb::arg("scale") = 1.0, nb::arg("size") = nb::none(), nb::arg("dtype") = nb::none())
      .def(
          "standard_normal",
          [=](RandomState& s, nb::handle size, nb::handle dtype) { return s.standard_normal(size_of(size), float_dtype(dtype)); },
          nb::arg("size") = nb::none(), nb::arg("dtype") = nb::none())
      .def(
          "choice",
          [](RandomState& s, nb::handle a, nb::handle size, nb::handle replace_h, nb::handle p) {
            // NumPy's legacy choice: an integer population or a 1-d array.
            const bool replace = replace_h.is_none() ? true : PyObject_IsTrue(replace_h.ptr()) != 0;
            nb::object arr = nb::isinstance<ndarray>(a) ? nb::borrow(a) : numpy().attr("asarray")(a);
            const int ndim = nb::cast<int>(arr.attr("ndim"));
            const auto probs = probabilities(p, true);
            const std::vector<double>* pp = probs ? &*probs : nullptr;
            if (ndim == 0) {
              if (nb::isinstance<ndarray>(a) || !nb::hasattr(a, "__index__") || PyFloat_Check(a.ptr()))
                throw ValueError("a must be 1-dimensional or an integer");
              return s.choice(static_cast<std::int64_t>(wide_int(a)), size_of(size), replace, pp);
            }
            if (ndim != 1) throw ValueError("a must be 1-dimensional");
            return s.choice(array_from_py(a, std::nullopt, default_device()), size_of(size), replace, pp);
          },
          nb::arg("a").none(), nb::arg("size") = nb::none(), nb::arg("replace").none() = true, nb::arg("p") = nb::none())
      .def(
          "permutation",
          [](RandomState& s, nb::handle x) {
            if (PyLong_Check(x.ptr()) || (nb::hasattr(x, "__index__") && !nb::hasattr(x, "ndim")))
              return s.permutation(static_cast<std::int64_t>(wide_int(x)));
            nb::object arr = nb::isinstance<ndarray>(x) ? nb::borrow(x) : numpy().attr("asarray")(x);
            if (nb::cast<int>(arr.attr("ndim")) == 0) {
              if (nb::hasattr(x, "__index__")) return s.permutation(static_cast<std::int64_t>(wide_int(x)));
              throw IndexError("x must be an integer or at least 1-dimensional");
            }
            return s.permutation(array_from_py(x, std::nullopt, default_device()));
          },
          nb::arg("x"))
      .def(
          "shuffle",
          [](RandomState& s, nb::handle x) {
            if (!nb::isinstance<ndarray>(x)) {
              if (!nb::hasattr(x, "__len__")) throw TypeError("len() of unsized object");
              throw TypeError("copper.random: shuffle needs a copper.ndarray");
            }
            ndarray a = nb::cast<ndarray>(x);
            s.shuffle(a);
          },
          nb::arg("x"))
      .def("bytes", [](RandomState& s, std::int64_t length) { return nb::bytes(s.bytes(length).data(), static_cast<std::size_t>(length)); },
           nb::arg("length"));

  bind_random_distributions(gen, legacy);
  random::set_warning_handler([](const char* message) {
    if (PyErr_WarnEx(PyExc_RuntimeWarning, message, 1) < 0) throw nb::python_error();
  });
  r.def("_global_state", []() -> RandomState& { return random::global_state(); }, nb::rv_policy::reference);
}

}  // namespace copper::python
