// bincount's and the histograms' shared steps: outer edges, checks, the backend call.
#include "api/histogram_support.h"

#include <cmath>

#include "copper/creation.hpp"
#include "copper/format.hpp"
#include "copper/manipulation.hpp"
#include "copper/reductions.hpp"
#include "copper/ufuncs.hpp"

namespace copper::api {

namespace {

// The dtype Backend::histogram compares in: NumPy's common dtype of values and edges,
// widened without changing any comparison (float16 -> float32, integers -> 64 bits).
DType comparison_dtype(DType x, DType edges) {
  DType t = promote_types(x, edges);
  if (t == float16) return float32;
  if (t == bool_ || kind(t) == Kind::uint_) return uint64;
  if (kind(t) == Kind::int_) return int64;
  if (is_complex(t)) throw TypeError("histogram: complex values cannot be binned");
  return t;
}

// first - 0.5 and last + 0.5 as NumPy computes them: strong scalars keep their float
// dtype (integers become float64), Python numbers become Python floats.
Scalar shifted(const Scalar& s, double delta) {
  const double v = s.to_double() + delta;
  if (s.weak()) return Scalar(v);
  return Scalar::typed(Scalar(v), is_inexact(s.dtype()) ? s.dtype() : float64);
}

bool finite(const Scalar& s) {
  return s.kind() == Kind::int_ || s.kind() == Kind::uint_ || s.kind() == Kind::bool_ || std::isfinite(s.to_double());
}

}  // namespace

std::string scalar_text(const Scalar& s) {
  return array_str(full(Shape{}, s, s.dtype(), cpu));
}

ndarray count_into_bins(const std::vector<BinAxis>& axes, const std::optional<ndarray>& weights, const Shape& shape,
                        DType acc) {
  const Device device = axes.front().x.device();
  ndarray out = allocate(shape, acc, device);
  std::vector<ndarray> keep;  // edges converted for the backend, alive through the call
  std::vector<backend::HistogramAxis> views;
  for (const BinAxis& ax : axes) {
    ndarray x = ax.x.dtype() == bool_ ? ax.x.astype(uint8) : ax.x;
    ndarray edges;
    if (ax.bins == backend::HistogramBins::index) {
      edges = ax.x;  // unused
    } else {
      edges = ascontiguousarray(ax.edges, comparison_dtype(x.dtype(), ax.edges.dtype()));
    }
    keep.push_back(x);
    keep.push_back(edges);
    views.push_back({backend::view_of(x), backend::view_of(edges), ax.bins});
  }
  backend::ArrayView w{};
  if (weights) w = backend::view_of(*weights);
  backend_of(out).histogram(views, weights ? &w : nullptr, backend::view_of(out));
  return out;
}

std::pair<std::int64_t, std::int64_t> integer_range(const ndarray& x) {
  const std::vector<std::int64_t> lo_hi =
      concatenate({amin(x).astype(int64).reshape({1}), amax(x).astype(int64).reshape({1})}).to_vector<std::int64_t>();
  return {lo_hi[0], lo_hi[1]};
}

std::pair<Scalar, Scalar> outer_edges(const ndarray& x, const HistogramRange& range) {
  Scalar first, last;
  if (range) {
    std::tie(first, last) = *range;
    if (first.to_double() > last.to_double()) throw ValueError("max must be larger than min in range parameter.");
    if (!(finite(first) && finite(last)))
      throw ValueError("supplied range of [" + scalar_text(first) + ", " + scalar_text(last) + "] is not finite");
  } else if (x.size() == 0) {
    first = Scalar(0);
    last = Scalar(1);
  } else {
    // min and max in one host read
    ndarray both = concatenate({amin(x).reshape({1}), amax(x).reshape({1})});
    ndarray host = both.device() == cpu ? both : asarray(both, std::nullopt, cpu);
    first = Scalar::load(x.dtype(), host[0].data());
    last = Scalar::load(x.dtype(), host[1].data());
    if (!(finite(first) && finite(last)))
      throw ValueError("autodetected range of [" + scalar_text(first) + ", " + scalar_text(last) + "] is not finite");
  }
  if (first.to_double() == last.to_double()) {
    first = shifted(first, -0.5);
    last = shifted(last, 0.5);
  }
  return {first, last};
}

bool edges_decrease(const ndarray& edges, bool strict) {
  const std::int64_t n = edges.size();
  if (n < 2) return false;
  ndarray lo = edges[Index{Slice(0, n - 1)}], hi = edges[Index{Slice(1, n)}];
  return any(strict ? greater_equal(lo, hi) : greater(lo, hi)).item().to_bool();
}

}  // namespace copper::api
