// The bin-width estimators of numpy.histogram, with NumPy's formulas and dtypes: the
// statistics (min, max, std, mean, percentiles) run on the device, the arithmetic on
// their values on the host. Values outside a given range are left out by turning them
// into NaN (the statistics then skip NaN), which needs no compaction.
#include "api/histogram_estimators.h"

#include <cmath>
#include <limits>
#include <numbers>

#include "api/histogram_support.h"
#include "copper/creation.hpp"
#include "copper/histograms.hpp"
#include "copper/reductions.hpp"
#include "copper/statistics.hpp"
#include "copper/ufuncs.hpp"

namespace copper::api {

namespace {

constexpr const char* kEstimators[] = {"stone", "auto", "doane", "fd", "rice", "scott", "sqrt", "sturges"};

// The values the estimator looks at.
struct Sample {
  ndarray x;            // the data; with `masked`, float with NaN where a value was left out
  bool masked = false;  // statistics must skip NaN
  std::int64_t n = 0;   // values kept
};

// A value rounded to float dtype t, as NumPy's arithmetic on t scalars gives it.
double in_dtype(double v, DType t) {
  return is_floating(t) ? Scalar::typed(Scalar(v), t).to_double() : v;
}

// max - min as NumPy's _unsigned_subtract: exact for integers, in the dtype for floats.
double ptp_of(const Sample& s) {
  const Scalar hi = (s.masked ? nanmax(s.x) : amax(s.x)).item();
  const Scalar lo = (s.masked ? nanmin(s.x) : amin(s.x)).item();
  if (is_integer(s.x.dtype())) {
    if (kind(s.x.dtype()) == Kind::uint_) return static_cast<double>(hi.to_uint64() - lo.to_uint64());
    return static_cast<double>(static_cast<std::uint64_t>(hi.to_int64()) - static_cast<std::uint64_t>(lo.to_int64()));
  }
  return in_dtype(hi.to_double() - lo.to_double(), s.x.dtype());
}

// Edges' difference last - first, the same way (range values may be Python numbers).
double span_of(const Scalar& first, const Scalar& last) {
  const bool integral = (first.kind() == Kind::int_ || first.kind() == Kind::uint_) &&
                        (last.kind() == Kind::int_ || last.kind() == Kind::uint_);
  if (integral) return static_cast<double>(last.to_uint64() - first.to_uint64());
  DType t = result_type({first, last});
  return in_dtype(last.to_double() - first.to_double(), t);
}

double std_of(const Sample& s) { return (s.masked ? nanstd(s.x) : copper::std(s.x)).item().to_double(); }

double sqrt_width(const Sample& s) { return ptp_of(s) / std::sqrt(static_cast<double>(s.n)); }
double sturges_width(const Sample& s) { return ptp_of(s) / (std::log2(static_cast<double>(s.n)) + 1.0); }
double rice_width(const Sample& s) { return ptp_of(s) / (2.0 * std::pow(static_cast<double>(s.n), 1.0 / 3)); }

double scott_width(const Sample& s) {
  return std::pow(24.0 * std::sqrt(std::numbers::pi) / static_cast<double>(s.n), 1.0 / 3.0) * std_of(s);
}

double doane_width(const Sample& s) {
  if (s.n <= 2) return 0.0;
  const double n = static_cast<double>(s.n);
  const double sg1 = std::sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3)));
  const ndarray sigma = s.masked ? nanstd(s.x) : copper::std(s.x);
  if (!(sigma.item().to_double() > 0.0)) return 0.0;
  // (x - mean) / sigma, cubed, averaged: in the statistics' dtype, as NumPy's in-place steps.
  ndarray t = true_divide(subtract(s.x, s.masked ? nanmean(s.x) : mean(s.x)), sigma);
  t = power(t, 3);
  const double g1 = (s.masked ? nanmean(t) : mean(t)).item().to_double();
  return ptp_of(s) / (1.0 + std::log2(n) + std::log2(1.0 + std::abs(g1) / sg1));
}

double fd_width(const Sample& s) {
  ndarray q = array(std::vector<double>{75, 25}, std::nullopt, s.x.device());
  ndarray p = s.masked ? nanpercentile(s.x, q) : percentile(s.x, q);
  const std::vector<double> v = p.astype(float64).to_vector<double>();  // one host read
  return 2.0 * (v[0] - v[1]) * std::pow(static_cast<double>(s.n), -1.0 / 3.0);
}

double stone_width(const Sample& s, const Scalar& first, const Scalar& last) {
  const double ptp = ptp_of(s);
  if (s.n <= 1 || ptp == 0) return 0;
  const std::int64_t upper = std::max<std::int64_t>(100, static_cast<std::int64_t>(std::sqrt(static_cast<double>(s.n))));
  // The first nbins minimizing NumPy's jhat, as Python's min() picks.
  std::int64_t best = 1;
  double best_value = std::numeric_limits<double>::infinity();
  const double n = static_cast<double>(s.n);
  for (std::int64_t nbins = 1; nbins <= upper; ++nbins) {
    const double hh = ptp / static_cast<double>(nbins);
    ndarray p = true_divide(histogram(s.x, Bins(nbins), std::pair{first, last}).hist, n);
    const double dot = sum(multiply(p, p)).item().to_double();
    const double value = (2 - (n + 1) * dot) / hh;
    if (value < best_value) {
      best_value = value;
      best = nbins;
    }
  }
  return ptp / static_cast<double>(best);
}

}  // namespace

void check_estimator_name(const std::string& name) {
  for (const char* e : kEstimators)
    if (name == e) return;
  throw ValueError("'" + name + "' is not a valid estimator for `bins`");
}

std::int64_t estimated_bin_count(const ndarray& x, const std::string& name, const Scalar& first, const Scalar& last,
                                 bool range_given) {
  Sample s{x, false, x.size()};
  if (range_given && x.size()) {
    ndarray keep = logical_and(greater_equal(x, first), less_equal(x, last));
    if (!all(keep).item().to_bool()) {
      s.x = where(keep, is_floating(x.dtype()) ? x : x.astype(float64), std::numeric_limits<double>::quiet_NaN());
      s.masked = true;
      s.n = count_nonzero(keep).item().to_int64();
    }
  }
  if (s.n == 0) return 1;
  double width = 0;
  if (name == "sqrt") width = sqrt_width(s);
  else if (name == "sturges") width = sturges_width(s);
  else if (name == "rice") width = rice_width(s);
  else if (name == "scott") width = scott_width(s);
  else if (name == "doane") width = doane_width(s);
  else if (name == "stone") width = stone_width(s, first, last);
  else if (name == "fd") width = fd_width(s);
  else {  // auto: the smaller of Sturges and a Freedman-Diaconis kept above half the sqrt rule
    width = std::min(std::max(fd_width(s), sqrt_width(s) / 2), sturges_width(s));
  }
  if (width == 0) return 1;
  if (is_integer(x.dtype()) && width < 1) width = 1;
  const double count = std::ceil(span_of(first, last) / width);
  if (std::isnan(count)) throw ValueError("cannot convert float NaN to integer");
  return static_cast<std::int64_t>(count);
}

}  // namespace copper::api
