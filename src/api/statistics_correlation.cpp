// numpy.cov and numpy.corrcoef: centre the variables on their (weighted) means, then
// one matrix product; the normalization factor is computed on the host, as NumPy's.
#include "api/reduction_support.h"
#include "copper/creation.hpp"
#include "copper/linalg.hpp"
#include "copper/manipulation.hpp"
#include "copper/statistics.hpp"
#include "copper/ufuncs.hpp"

namespace copper {

namespace {

// fweights/aweights as float64 observation weights, with NumPy's checks.
ndarray observation_weights(const ndarray& w_in, std::int64_t observations, const char* what, bool integral) {
  ndarray w = w_in.astype(float64, Casting::unsafe, false);
  if (integral && !all(equal(w, around(w))).item().to_bool()) throw TypeError(std::string(what) + " must be integer");
  if (w.ndim() > 1) throw RuntimeError(std::string("cannot handle multidimensional ") + what);
  if (w.ndim() == 0 || w.shape()[0] != observations)
    throw RuntimeError(std::string("incompatible numbers of samples and ") + what);
  if (any(less(w, 0)).item().to_bool()) throw ValueError(std::string(what) + " cannot be negative");
  return w;
}

}  // namespace

ndarray cov(const ndarray& m, const std::optional<ndarray>& y, const CovOptions& opts) {
  if (m.ndim() > 2) throw ValueError("m has more than 2 dimensions");
  if (y && y->ndim() > 2) throw ValueError("y has more than 2 dimensions");
  if (y) api::common_device({&m, &*y}, m.device());
  DType dtype = opts.dtype ? *opts.dtype : promote_types(m.dtype(), float64);
  if (!opts.dtype && y) dtype = promote_types(dtype, y->dtype());
  ndarray x = atleast_2d(m).astype(dtype);
  if (!opts.rowvar && m.ndim() != 1) x = x.T();
  if (x.shape()[0] == 0) return empty({0, 0}, float64, m.device());
  if (y) {
    ndarray other = atleast_2d(*y).astype(dtype);
    if (!opts.rowvar && other.shape()[0] != 1) other = other.T();
    x = concatenate({x, other}, 0);
  }
  const int ddof = opts.ddof ? *opts.ddof : (opts.bias ? 0 : 1);
  const std::int64_t observations = x.shape()[1];
  std::optional<ndarray> w, aweights;
  if (opts.fweights) w = observation_weights(*opts.fweights, observations, "fweights", true);
  if (opts.aweights) {
    aweights = observation_weights(*opts.aweights, observations, "aweights", false);
    w = w ? multiply(*w, *aweights) : *aweights;
  }
  auto [avg, weight_sums] = average_returned(x, Axes(1), w);
  double fact;
  if (!w) {
    fact = static_cast<double>(observations - ddof);
  } else {
    const double w_sum = weight_sums[0].item().to_double();
    if (ddof == 0) fact = w_sum;
    else if (!aweights) fact = w_sum - ddof;
    else fact = w_sum - ddof * sum(multiply(*w, *aweights)).item().to_double() / w_sum;
  }
  if (fact <= 0) fact = 0.0;
  UfuncOptions centre;  // in place: x keeps its dtype, as NumPy's X -= avg[:, None]
  centre.out = x;
  subtract(x, avg.reshape({avg.size(), 1}), centre);
  ndarray weighted = w ? multiply(x, *w) : x;
  ndarray c = dot(x, conjugate(weighted.T()));
  UfuncOptions scale;
  scale.out = c;
  multiply(c, 1.0 / fact, scale);
  return c.squeeze();
}

ndarray corrcoef(const ndarray& x, const std::optional<ndarray>& y, bool rowvar, std::optional<DType> dtype) {
  CovOptions opts;
  opts.rowvar = rowvar;
  opts.dtype = dtype;
  ndarray c = cov(x, y, opts);
  if (c.ndim() == 0) return true_divide(c, c);  // one variable: 1, or NaN
  ndarray stddev = sqrt(real(diagonal(c)));
  const std::int64_t n = stddev.size();
  UfuncOptions in_place;
  in_place.out = c;
  true_divide(c, stddev.reshape({n, 1}), in_place);
  true_divide(c, stddev.reshape({1, n}), in_place);
  // Rounding can leave |c| a little above 1: clip each part, as NumPy does.
  ndarray re = real(c);
  UfuncOptions clip_re;
  clip_re.out = re;
  clip(re, -1, 1, clip_re);
  if (is_complex(c.dtype())) {
    ndarray im = imag(c);
    UfuncOptions clip_im;
    clip_im.out = im;
    clip(im, -1, 1, clip_im);
  }
  return c;
}

}  // namespace copper
