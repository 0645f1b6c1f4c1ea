// copper._core._fft: numpy.fft's functions and the plan caches. The Python package
// copper.fft adds NumPy's deprecation warnings and CuPy's config module around them.
#include <nanobind/stl/shared_ptr.h>

#include "bindings.h"
#include "reduction_args.h"

namespace copper::python {
namespace {

using namespace nb::literals;

ndarray as_array(nb::handle x) {
  return nb::isinstance<ndarray>(x) ? nb::cast<const ndarray&>(x) : array_from_py(x, std::nullopt, default_device());
}

// NumPy formats whatever norm it was given into its message; None is "backward".
std::string norm_from_py(nb::handle norm) {
  if (norm.is_none()) return "backward";
  return nb::cast<std::string>(nb::str(norm));
}

std::int64_t index_from_py(nb::handle v) {
  nb::object i = nb::steal(PyNumber_Index(v.ptr()));
  if (!i.is_valid()) throw nb::python_error();
  return nb::cast<std::int64_t>(i);
}

std::optional<std::int64_t> n_from_py(nb::handle n) {
  if (n.is_none()) return std::nullopt;
  return index_from_py(n);
}

// s: a sequence of ints, None entries meaning the 1-d default (fft::none).
std::optional<fft::Sizes> sizes_from_py(nb::handle s) {
  if (s.is_none()) return std::nullopt;
  fft::Sizes sizes;
  for (nb::handle v : s) sizes.push_back(v.is_none() ? fft::none : index_from_py(v));
  return sizes;
}

std::optional<std::vector<int>> axes_list(nb::handle axes) {
  if (axes.is_none()) return std::nullopt;
  std::vector<int> r;
  for (nb::handle v : axes) r.push_back(static_cast<int>(index_from_py(v)));
  return r;
}

using OneD = ndarray (*)(const ndarray&, std::optional<std::int64_t>, int, const std::string&, std::optional<ndarray>);
using ManyD = ndarray (*)(const ndarray&, std::optional<fft::Sizes>, fft::Axes, const std::string&,
                          std::optional<ndarray>);

// Transforms run without the GIL; out= hands back the very object given. `plans` (a
// PlanSet or None): the plans a copper.fft plan object keeps, used for this call.
template <class F>
nb::object run(nb::handle out, nb::handle plans, F&& fn) {
  const std::optional<ndarray> o = out_arg(out);
  const fft::PlanSet* set = plans.is_none() ? nullptr : &nb::cast<const fft::PlanSet&>(plans);
  ndarray r;
  {
    nb::gil_scoped_release release;
    std::optional<fft::PlanSet::Use> use;
    if (set) use.emplace(*set);
    r = fn(o);
  }
  if (o) return nb::borrow(out);
  return nb::cast(std::move(r));
}

void def_1d(nb::module_& m, const char* name, OneD fn) {
  m.def(
      name,
      [fn](nb::handle a, nb::handle n, nb::handle axis, nb::handle norm, nb::handle out, nb::handle plans) {
        const ndarray x = as_array(a);
        const auto len = n_from_py(n);
        const int ax = static_cast<int>(index_from_py(axis));
        const std::string nm = norm_from_py(norm);
        return run(out, plans, [&](const std::optional<ndarray>& o) { return fn(x, len, ax, nm, o); });
      },
      "a"_a, "n"_a = nb::none(), "axis"_a = -1, "norm"_a = nb::none(), "out"_a = nb::none(),
      "plans"_a = nb::none());
}

void def_nd(nb::module_& m, const char* name, ManyD fn) {
  m.def(
      name,
      [fn](nb::handle a, nb::handle s, nb::handle axes, nb::handle norm, nb::handle out, nb::handle plans) {
        const ndarray x = as_array(a);
        const auto sizes = sizes_from_py(s);
        const auto ax = axes_list(axes);
        const std::string nm = norm_from_py(norm);
        return run(out, plans, [&](const std::optional<ndarray>& o) { return fn(x, sizes, ax, nm, o); });
      },
      "a"_a, "s"_a = nb::none(), "axes"_a = nb::none(), "norm"_a = nb::none(), "out"_a = nb::none(),
      "plans"_a = nb::none());
}

std::shared_ptr<fft::Plan> mutable_plan(const std::shared_ptr<const fft::Plan>& p) {
  return std::const_pointer_cast<fft::Plan>(p);
}

nb::tuple key_tuple(const fft::PlanKey& key) {
  nb::list l;
  for (std::int64_t v : key) l.append(v);
  return nb::tuple(l);
}

fft::PlanKey key_from_py(nb::handle key) {
  fft::PlanKey k;
  for (nb::handle v : key) k.push_back(index_from_py(v));
  return k;
}

}  // namespace

void bind_fft(nb::module_& m) {
  nb::module_ f = m.def_submodule("_fft", "numpy.fft (see copper.fft)");
  def_1d(f, "fft", &fft::fft);
  def_1d(f, "ifft", &fft::ifft);
  def_1d(f, "rfft", &fft::rfft);
  def_1d(f, "irfft", &fft::irfft);
  def_1d(f, "hfft", &fft::hfft);
  def_1d(f, "ihfft", &fft::ihfft);
  def_nd(f, "fftn", &fft::fftn);
  def_nd(f, "ifftn", &fft::ifftn);
  def_nd(f, "rfftn", &fft::rfftn);
  def_nd(f, "irfftn", &fft::irfftn);
  f.def(
      "fftfreq",
      [](std::int64_t n, double d, nb::handle device, nb::handle dtype) {
        return fft::fftfreq(n, d, device_from_py(device), optional_dtype(dtype));
      },
      "n"_a, "d"_a = 1.0, "device"_a = nb::none(), "dtype"_a = nb::none());
  f.def(
      "rfftfreq",
      [](std::int64_t n, double d, nb::handle device, nb::handle dtype) {
        return fft::rfftfreq(n, d, device_from_py(device), optional_dtype(dtype));
      },
      "n"_a, "d"_a = 1.0, "device"_a = nb::none(), "dtype"_a = nb::none());
  f.def(
      "fftshift", [](nb::handle x, nb::handle axes) { return fft::fftshift(as_array(x), axes_from_py(axes)); },
      "x"_a, "axes"_a = nb::none());
  f.def(
      "ifftshift", [](nb::handle x, nb::handle axes) { return fft::ifftshift(as_array(x), axes_from_py(axes)); },
      "x"_a, "axes"_a = nb::none());

  // Plans and caches (CuPy's cupy.fft.config.get_plan_cache()).
  nb::class_<fft::Plan>(f, "Plan", "A cached cuFFT (GPU) or FFTW (CPU) plan.")
      .def_prop_ro("rank", &fft::Plan::rank)
      .def_prop_ro("work_size", &fft::Plan::work_size)
      .def_prop_ro("description", &fft::Plan::description)
      .def_prop_ro("device", [](const fft::Plan& p) { return p.device().str(); })
      // CuPy's plan.work_area.mem.size: copper takes the work area from the memory pool
      // per execution, so this is the size each execution asks for.
      .def_prop_ro("work_area",
                   [](const fft::Plan& p) {
                     nb::object ns = nb::module_::import_("types").attr("SimpleNamespace");
                     return ns("mem"_a = ns("size"_a = p.work_size(), "ptr"_a = 0));
                   })
      .def("__repr__", [](const fft::Plan& p) {
        return std::string("<copper.fft.") + (p.rank() == 1 ? "Plan1d " : "PlanNd ") + p.description() + " on " +
               p.device().str() + ">";
      });
  nb::class_<fft::Plan1d, fft::Plan>(f, "Plan1d");
  nb::class_<fft::PlanNd, fft::Plan>(f, "PlanNd");

  nb::class_<fft::PlanCache>(f, "PlanCache", "One device's FFT plan cache (a handle).")
      .def_prop_ro("device", [](const fft::PlanCache& c) { return c.device().str(); })
      .def("get_size", &fft::PlanCache::get_size)
      .def("set_size", &fft::PlanCache::set_size, "size"_a)
      .def("get_curr_size", &fft::PlanCache::get_curr_size)
      .def("get_memsize", &fft::PlanCache::get_memsize)
      .def("set_memsize", &fft::PlanCache::set_memsize, "size"_a)
      .def("get_curr_memsize", &fft::PlanCache::get_curr_memsize)
      .def("get_hits", &fft::PlanCache::hits)
      .def("get_misses", &fft::PlanCache::misses)
      .def("clear", &fft::PlanCache::clear)
      .def("info", &fft::PlanCache::info)
      .def("entries",
           [](const fft::PlanCache& c) {
             nb::list l;
             for (const fft::PlanCacheEntry& e : c.entries())
               l.append(nb::make_tuple(key_tuple(e.key), mutable_plan(e.plan), fft::describe(e)));
             return l;
           })
      .def(
          "get",
          [](const fft::PlanCache& c, nb::handle key) -> nb::object {
            auto p = c.get(key_from_py(key));
            if (!p) return nb::none();
            return nb::cast(mutable_plan(p));
          },
          "key"_a)
      .def("erase", [](fft::PlanCache& c, nb::handle key) { return c.erase(key_from_py(key)); }, "key"_a);
  f.def(
      "get_plan_cache", [](nb::handle device) { return fft::get_plan_cache(device_from_py(device)); },
      "device"_a = nb::none());

  // The plans a copper.fft plan object (copper.x.scipy.fftpack.get_fft_plan) keeps.
  nb::class_<fft::PlanSet>(f, "PlanSet", "The backend plans one plan object keeps (see copper.fft._plans).")
      .def("__init__",
           [](fft::PlanSet* self, nb::handle device) { new (self) fft::PlanSet(device_from_py(device)); },
           "device"_a = nb::none())
      .def_prop_ro("device", [](const fft::PlanSet& p) { return p.device().str(); })
      .def_prop_ro("work_size", &fft::PlanSet::work_size)
      .def("__len__", &fft::PlanSet::size)
      .def("entries", [](const fft::PlanSet& p) {
        nb::list l;
        for (const fft::PlanCacheEntry& e : p.entries()) l.append(nb::make_tuple(key_tuple(e.key), mutable_plan(e.plan)));
        return l;
      });
}

}  // namespace copper::python
