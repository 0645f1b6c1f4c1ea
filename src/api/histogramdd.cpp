// numpy.histogramdd and histogram2d: per-dimension edges (linspace over the outer
// edges, or given), then one counting pass over all dimensions at once. NumPy counts
// with searchsorted per dimension; ops/scalar_histogram.h's rule gives the same bins.
#include "api/histogram_support.h"
#include "copper/creation.hpp"
#include "copper/manipulation.hpp"
#include "copper/reductions.hpp"
#include "copper/ufuncs.hpp"

namespace copper {

namespace {

// The entry for dimension i of a per-dimension list holding one entry for all, or one each.
template <class T> const T& entry(const std::vector<T>& list, std::size_t i) { return list.size() == 1 ? list[0] : list[i]; }

}  // namespace

HistogramddResult histogramdd(const ndarray& sample_in, const std::vector<Bins>& bins,
                              const std::vector<HistogramRange>& range, bool density,
                              const std::optional<ndarray>& weights) {
  ndarray sample = sample_in.ndim() == 2 ? sample_in : atleast_2d(sample_in).T();
  if (sample.ndim() != 2) throw ValueError("too many values to unpack (expected 2)");
  if (is_complex(sample.dtype())) throw TypeError("histogramdd: complex samples cannot be binned");
  const std::int64_t n = sample.shape()[0];
  const std::size_t ndim = static_cast<std::size_t>(sample.shape()[1]);
  if (bins.size() != 1 && bins.size() != ndim)
    throw ValueError("The dimension of bins must be equal to the dimension of the sample x.");
  if (!range.empty() && range.size() != ndim) throw ValueError("range argument must have one entry per dimension");

  std::vector<api::BinAxis> axes;
  std::vector<ndarray> edges;
  Shape shape;
  for (std::size_t i = 0; i < ndim; ++i) {
    const std::string label = "`bins[" + std::to_string(i) + "]`";
    ndarray column = sample[Index{Slice(), static_cast<std::int64_t>(i)}];
    const Bins& b = entry(bins, i);
    ndarray e;
    bool uniform = false;
    if (const auto* count = std::get_if<std::int64_t>(&b.value)) {
      if (*count < 1) throw ValueError(label + " must be positive, when an integer");
      auto [lo, hi] = api::outer_edges(column, range.empty() ? HistogramRange() : range[i]);
      e = linspace(lo, hi, *count + 1, true, std::nullopt, sample.device());
      uniform = true;
    } else if (const auto* given = std::get_if<ndarray>(&b.value)) {
      e = *given;
      if (e.ndim() != 1) throw ValueError(label + " must be a scalar or 1d array");
      api::common_device({&sample, &e}, sample.device());
      if (api::edges_decrease(e, false)) throw ValueError(label + " must be monotonically increasing, when an array");
    } else {
      throw TypeError("'<' not supported between instances of 'str' and 'int'");
    }
    edges.push_back(e);
    shape.push_back(std::max<std::int64_t>(e.size() - 1, 0));
    axes.push_back({column, e, uniform ? backend::HistogramBins::uniform_edges : backend::HistogramBins::edges});
  }

  // NumPy's bincount: weights as float64 ('safe'), one per sample point.
  std::optional<ndarray> w;
  if (weights && n > 0) {
    api::common_device({&sample, &*weights}, sample.device());
    if (!can_cast(weights->dtype(), float64, Casting::safe))
      throw TypeError("Cannot cast array data from dtype('" + std::string(name(weights->dtype())) +
                      "') to dtype('float64') according to the rule 'safe'");
    if (weights->ndim() > 1) throw ValueError("object too deep for desired array");
    if (weights->ndim() == 0) throw ValueError("object of too small depth for desired array");
    if (weights->size() != n) throw ValueError("The weights and list don't have the same length.");
    w = weights;
  }
  ndarray hist = shape_size(shape) > 0 ? api::count_into_bins(axes, w, shape, w ? float64 : int64)
                                       : zeros(shape, float64, sample.device());
  if (hist.dtype() != float64) hist = hist.astype(float64);
  if (density) {
    ndarray total = sum(hist);
    for (std::size_t i = 0; i < ndim; ++i) {
      const ndarray& e = edges[i];
      ndarray widths = subtract(e[Index{Slice(1, std::nullopt)}], e[Index{Slice(std::nullopt, -1)}]);
      Shape along(ndim, 1);
      along[i] = shape[i];
      hist = true_divide(hist, widths.reshape(along));
    }
    UfuncOptions in_place;
    in_place.out = hist;
    true_divide(hist, total, in_place);
  }
  return {hist, edges};
}

Histogram2dResult histogram2d(const ndarray& x, const ndarray& y, const std::vector<Bins>& bins,
                              const std::vector<HistogramRange>& range, bool density,
                              const std::optional<ndarray>& weights) {
  api::common_device({&x, &y}, x.device());
  // NumPy stacks the coordinates into one array (of their common dtype).
  ndarray sample = stack({x, y}).T();
  HistogramddResult r = histogramdd(sample, bins, range, density, weights);
  return {r.hist, r.edges[0], r.edges[1]};
}

}  // namespace copper
