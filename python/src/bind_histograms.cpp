// Python bindings for bincount and the histograms, with NumPy's argument rules for
// bins (an int, an estimator's name, edges; per dimension for histogramdd/2d) and
// range. bincount's x is positional-only in NumPy: python/copper/_histograms.py wraps
// _core._bincount for that.
#include <Python.h>

#include "bindings.h"
#include "reduction_args.h"

namespace copper::python {

namespace {

bool truthy(nb::handle obj) {
  const int r = PyObject_IsTrue(obj.ptr());
  if (r < 0) throw nb::python_error();
  return r == 1;
}

bool is_sequence_like(nb::handle obj) {
  return nb::isinstance<nb::list>(obj) || nb::isinstance<nb::tuple>(obj) || nb::isinstance<ndarray>(obj) ||
         nb::hasattr(obj, "__array__");
}

// A scalar bins value as operator.index gives it, or TypeError(message).
std::int64_t bin_count(nb::handle obj, const std::string& message) {
  PyObject* i = PyNumber_Index(obj.ptr());
  if (!i) {
    PyErr_Clear();
    throw TypeError(message);
  }
  return nb::cast<std::int64_t>(nb::steal(i));
}

// numpy.histogram's bins: str, a scalar (operator.index), or a 1-D array of edges.
Bins bins_from_py(nb::handle obj, Device device) {
  if (nb::isinstance<nb::str>(obj)) return Bins(nb::cast<std::string>(obj));
  const std::string not_a_count = "`bins` must be an integer, a string, or an array";
  if (!is_sequence_like(obj)) return Bins(bin_count(obj, not_a_count));
  ndarray edges = nb::isinstance<ndarray>(obj) ? nb::cast<ndarray>(obj) : array_from_py(obj, std::nullopt, device);
  if (edges.ndim() == 0) return Bins(bin_count(obj, not_a_count));
  return Bins(edges);
}

// histogramdd's bins[i]: NumPy checks `bins[i] < 1` before operator.index.
Bins axis_bins_from_py(nb::handle obj, int axis, Device device) {
  const std::string label = "`bins[" + std::to_string(axis) + "]`";
  if (!is_sequence_like(obj) || (nb::isinstance<ndarray>(obj) && nb::cast<ndarray>(obj).ndim() == 0)) {
    if (nb::isinstance<nb::str>(obj)) throw TypeError("'<' not supported between instances of 'str' and 'int'");
    if (truthy(obj.attr("__lt__")(1))) throw ValueError(label + " must be positive, when an integer");
    return Bins(bin_count(obj, label + " must be an integer, when a scalar"));
  }
  ndarray edges = nb::isinstance<ndarray>(obj) ? nb::cast<ndarray>(obj) : array_from_py(obj, std::nullopt, device);
  if (edges.ndim() != 1) throw ValueError(label + " must be a scalar or 1d array");
  return Bins(edges);
}

// range=(first, last): numbers keep their weak (Python) or strong (NumPy) type.
HistogramRange range_from_py(nb::handle obj) {
  if (obj.is_none()) return std::nullopt;
  nb::sequence seq = nb::borrow<nb::sequence>(obj);
  const std::size_t n = nb::len(seq);
  if (n != 2)
    throw ValueError(n > 2 ? "too many values to unpack (expected 2)"
                           : "not enough values to unpack (expected 2, got " + std::to_string(n) + ")");
  return std::pair{scalar_from_py(seq[0]), scalar_from_py(seq[1])};
}

// histogramdd's per-dimension lists: bins (a sequence, or one value for all) and range.
std::vector<Bins> dd_bins(nb::handle bins, int ndim, Device device) {
  std::vector<Bins> out;
  if (nb::isinstance<nb::str>(bins) || !is_sequence_like(bins) ||
      (nb::isinstance<ndarray>(bins) && nb::cast<ndarray>(bins).ndim() == 0)) {
    for (int i = 0; i < ndim; ++i) out.push_back(axis_bins_from_py(bins, i, device));
    return out;
  }
  if (static_cast<int>(nb::len(bins)) != ndim)
    throw ValueError("The dimension of bins must be equal to the dimension of the sample x.");
  int i = 0;
  for (nb::handle item : bins) out.push_back(axis_bins_from_py(item, i++, device));
  return out;
}

std::vector<HistogramRange> dd_range(nb::handle range, int ndim) {
  if (range.is_none()) return {};
  if (static_cast<int>(nb::len(range)) != ndim)
    throw ValueError("range argument must have one entry per dimension");
  std::vector<HistogramRange> out;
  for (nb::handle item : range) out.push_back(range_from_py(item));
  return out;
}

// histogramdd's sample: an (N, D) array, or a sequence of D coordinate arrays.
ndarray sample_from_py(nb::handle sample) {
  if (nb::isinstance<ndarray>(sample)) return nb::cast<ndarray>(sample);
  if (is_python_scalar(sample))  // NumPy iterates the sample: a Python number is Python's TypeError
    throw TypeError("'" + std::string(nb::type_name(sample.type()).c_str()) + "' object is not iterable");
  if (nb::isinstance<nb::list>(sample) || nb::isinstance<nb::tuple>(sample)) {
    std::vector<ndarray> parts;
    bool all_copper = nb::len(sample) > 0;
    for (nb::handle item : sample) all_copper = all_copper && nb::isinstance<ndarray>(item);
    if (all_copper) {
      for (nb::handle item : sample) parts.push_back(nb::cast<ndarray>(item));
      return atleast_2d(stack(parts)).T();
    }
    return atleast_2d(array_from_py(sample, std::nullopt, default_device())).T();
  }
  return array_from_py(sample, std::nullopt, default_device());
}

nb::object edges_list(const std::vector<ndarray>& edges) {
  nb::list out;
  for (const ndarray& e : edges) out.append(nb::cast(e));
  return out;
}

}  // namespace

void bind_histograms(nb::module_& m) {
  m.def(
      "_bincount",
      [](nb::handle x, nb::handle weights, nb::handle minlength) {
        if (minlength.is_none()) throw TypeError("use 0 instead of None for minlength");
        ndarray arr = array_arg(x);
        return copper::bincount(arr, optional_array_arg(weights, arr.device()), index_from_py(minlength));
      },
      nb::arg("x"), nb::arg("weights") = nb::none(), nb::arg("minlength").none() = 0);

  m.def(
      "histogram",
      [](nb::handle a, nb::handle bins, nb::handle range, nb::handle density, nb::handle weights) {
        ndarray arr = array_arg(a);
        HistogramResult r = copper::histogram(arr, bins_from_py(bins, arr.device()), range_from_py(range),
                                              truthy(density), optional_array_arg(weights, arr.device()));
        return nb::make_tuple(r.hist, r.bin_edges);
      },
      nb::arg("a"), nb::arg("bins") = 10, nb::arg("range") = nb::none(), nb::arg("density") = nb::none(),
      nb::arg("weights") = nb::none());

  m.def(
      "histogram_bin_edges",
      [](nb::handle a, nb::handle bins, nb::handle range, nb::handle weights) {
        ndarray arr = array_arg(a);
        return copper::histogram_bin_edges(arr, bins_from_py(bins, arr.device()), range_from_py(range),
                                           optional_array_arg(weights, arr.device()));
      },
      nb::arg("a"), nb::arg("bins") = 10, nb::arg("range") = nb::none(), nb::arg("weights") = nb::none());

  m.def(
      "histogramdd",
      [](nb::handle sample, nb::handle bins, nb::handle range, nb::handle density, nb::handle weights) {
        ndarray s = sample_from_py(sample);
        const int ndim = s.ndim() == 2 ? static_cast<int>(s.shape()[1]) : 1;
        HistogramddResult r = copper::histogramdd(s, dd_bins(bins, ndim, s.device()), dd_range(range, ndim),
                                                  truthy(density), optional_array_arg(weights, s.device()));
        return nb::make_tuple(r.hist, edges_list(r.edges));
      },
      nb::arg("sample"), nb::arg("bins") = 10, nb::arg("range") = nb::none(), nb::arg("density") = nb::none(),
      nb::arg("weights") = nb::none());

  m.def(
      "histogram2d",
      [](nb::handle x, nb::handle y, nb::handle bins, nb::handle range, nb::handle density, nb::handle weights) {
        ndarray xs = array_arg(x);
        ndarray ys = nb::isinstance<ndarray>(y) ? nb::cast<ndarray>(y) : array_from_py(y, std::nullopt, xs.device());
        // NumPy: a bins sequence of length 1 or 2 is per dimension; any other length is
        // the edges of both.
        std::vector<Bins> per_axis;
        Py_ssize_t n = is_sequence_like(bins) && !nb::isinstance<nb::str>(bins) ? PyObject_Length(bins.ptr()) : -1;
        if (n < 0) PyErr_Clear();
        if (n >= 0 && n != 1 && n != 2) {
          Bins edges = axis_bins_from_py(bins, 0, xs.device());
          per_axis = {edges, edges};
        } else {
          per_axis = dd_bins(bins, 2, xs.device());
        }
        Histogram2dResult r = copper::histogram2d(xs, ys, per_axis, dd_range(range, 2), truthy(density),
                                                  optional_array_arg(weights, xs.device()));
        return nb::make_tuple(r.hist, r.xedges, r.yedges);
      },
      nb::arg("x"), nb::arg("y"), nb::arg("bins") = 10, nb::arg("range") = nb::none(), nb::arg("density") = nb::none(),
      nb::arg("weights") = nb::none());
}

}  // namespace copper::python
