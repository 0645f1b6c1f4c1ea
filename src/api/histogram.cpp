// numpy.histogram and histogram_bin_edges: NumPy's bin edges (equal bins from linspace
// in NumPy's bin dtype, given edges, or an estimator's count), then one counting pass.
#include "api/histogram_estimators.h"
#include "api/histogram_support.h"
#include "copper/creation.hpp"
#include "copper/manipulation.hpp"
#include "copper/reductions.hpp"
#include "copper/ufuncs.hpp"

namespace copper {

namespace {

struct Edges {
  ndarray edges;
  bool uniform = false;  // from a count of equal bins
};

// The flattened sample: bool counts as uint8 (NumPy converts it, with a warning).
ndarray flat_sample(const ndarray& a) {
  if (is_complex(a.dtype())) throw TypeError("histogram: complex input cannot be binned");
  ndarray x = a.ndim() == 1 ? a : a.ravel();
  return x.dtype() == bool_ ? x.astype(uint8) : x;
}

// Equal bins between the outer edges, in NumPy's bin dtype: the common dtype of the
// edges and the data, made float64 when that is an integer.
Edges equal_bins(const ndarray& x, std::int64_t count, Scalar first, Scalar last) {
  DType bin_type = result_type({first, last, x});
  if (!is_inexact(bin_type)) bin_type = promote_types(bin_type, float64);
  ndarray edges = linspace(first, last, count + 1, true, bin_type, x.device());
  if (api::edges_decrease(edges, true))
    throw ValueError("Too many bins for data range. Cannot create " + std::to_string(count) + " finite-sized bins.");
  return {edges, true};
}

Edges bin_edges(const ndarray& x, const Bins& bins, const HistogramRange& range, const std::optional<ndarray>& weights) {
  if (const auto* estimator = std::get_if<std::string>(&bins.value)) {
    api::check_estimator_name(*estimator);
    if (weights) throw TypeError("Automated estimation of the number of bins is not supported for weighted data");
    auto [first, last] = api::outer_edges(x, range);
    return equal_bins(x, api::estimated_bin_count(x, *estimator, first, last, range.has_value()), first, last);
  }
  if (const auto* count = std::get_if<std::int64_t>(&bins.value)) {
    if (*count < 1) throw ValueError("`bins` must be positive, when an integer");
    auto [first, last] = api::outer_edges(x, range);
    return equal_bins(x, *count, first, last);
  }
  const ndarray& edges = std::get<ndarray>(bins.value);
  if (edges.ndim() != 1) throw ValueError("`bins` must be 1d, when an array");
  api::common_device({&x, &edges}, x.device());
  if (api::edges_decrease(edges, false)) throw ValueError("`bins` must increase monotonically, when an array");
  return {edges, false};
}

// NumPy's count dtype: intp, or the weights' dtype; the sums run in a wide accumulator.
DType accumulator_for(const std::optional<ndarray>& weights) {
  if (!weights) return int64;
  const DType t = weights->dtype();
  if (is_complex(t)) return complex128;
  if (is_floating(t)) return float64;
  return kind(t) == Kind::uint_ ? uint64 : int64;
}

}  // namespace

HistogramResult histogram(const ndarray& a, const Bins& bins, const HistogramRange& range, bool density,
                          const std::optional<ndarray>& weights) {
  ndarray x = flat_sample(a);
  std::optional<ndarray> w;
  if (weights) {
    api::common_device({&a, &*weights}, a.device());
    if (weights->shape() != a.shape()) throw ValueError("weights should have the same shape as a.");
    w = weights->ndim() == 1 ? *weights : weights->ravel();
  }
  Edges e = bin_edges(x, bins, range, w);
  const std::int64_t nbins = e.edges.size() - 1;
  const auto rule = e.uniform ? backend::HistogramBins::uniform_edges : backend::HistogramBins::edges;
  ndarray n = nbins > 0 ? api::count_into_bins({{x, e.edges, rule}}, w, Shape{nbins}, accumulator_for(w))
                        : zeros(Shape{0}, accumulator_for(w), x.device());
  const DType ntype = w ? w->dtype() : int64;
  if (n.dtype() != ntype) n = n.astype(ntype);
  if (density) {
    ndarray widths = subtract(e.edges[Index{Slice(1, std::nullopt)}], e.edges[Index{Slice(std::nullopt, -1)}]);
    n = true_divide(true_divide(n, widths.astype(float64)), sum(n));
  }
  return {n, e.edges};
}

ndarray histogram_bin_edges(const ndarray& a, const Bins& bins, const HistogramRange& range,
                            const std::optional<ndarray>& weights) {
  ndarray x = flat_sample(a);
  if (weights && weights->shape() != a.shape()) throw ValueError("weights should have the same shape as a.");
  return bin_edges(x, bins, range, weights).edges;
}

}  // namespace copper
