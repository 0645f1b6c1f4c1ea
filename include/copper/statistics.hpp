// Statistics beyond the plain reductions: NaN-ignoring forms, peak-to-peak, weighted
// averages, covariance and correlation, and order statistics (median, quantiles).
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include "copper/reductions.hpp"

namespace copper {

// NaN-ignoring variance and standard deviation (NaN where fewer than ddof + 1 values
// remain); integer input is the same as var/std.
ndarray nanvar(const ndarray& a, const Axes& axis = {}, const ReduceOptions& opts = {});
ndarray nanstd(const ndarray& a, const Axes& axis = {}, const ReduceOptions& opts = {});
// argmin/argmax skipping NaN; ValueError("All-NaN slice encountered") if a slice has nothing else.
ndarray nanargmin(const ndarray& a, std::optional<int> axis = std::nullopt, bool keepdims = false,
                  const std::optional<ndarray>& out = std::nullopt);
ndarray nanargmax(const ndarray& a, std::optional<int> axis = std::nullopt, bool keepdims = false,
                  const std::optional<ndarray>& out = std::nullopt);
// cumsum/cumprod with NaN counted as 0 (sum) or 1 (product).
ndarray nancumsum(const ndarray& a, std::optional<int> axis = std::nullopt, std::optional<DType> dtype = std::nullopt,
                  const std::optional<ndarray>& out = std::nullopt);
ndarray nancumprod(const ndarray& a, std::optional<int> axis = std::nullopt, std::optional<DType> dtype = std::nullopt,
                   const std::optional<ndarray>& out = std::nullopt);
// max - min (wrapping for integers, as NumPy's subtract).
ndarray ptp(const ndarray& a, const Axes& axis = {}, const std::optional<ndarray>& out = std::nullopt,
            bool keepdims = false);

// numpy.average: the weighted mean over `axis`; weights have a's shape, or the shape of
// a's `axis` dimensions. The second form also returns the sum of the weights (numpy's
// returned=True), broadcast to the average's shape.
ndarray average(const ndarray& a, const Axes& axis = {}, const std::optional<ndarray>& weights = std::nullopt,
                bool keepdims = false);
std::pair<ndarray, ndarray> average_returned(const ndarray& a, const Axes& axis = {},
                                             const std::optional<ndarray>& weights = std::nullopt,
                                             bool keepdims = false);

struct CovOptions {
  bool rowvar = true;              // rows are variables, columns observations
  bool bias = false;               // normalize by N instead of N - 1
  std::optional<int> ddof = std::nullopt;  // overrides bias
  std::optional<ndarray> fweights = std::nullopt;  // integer frequency weights per observation
  std::optional<ndarray> aweights = std::nullopt;  // observation weights
  std::optional<DType> dtype = std::nullopt;
};
ndarray cov(const ndarray& m, const std::optional<ndarray>& y = std::nullopt, const CovOptions& opts = {});
ndarray corrcoef(const ndarray& x, const std::optional<ndarray>& y = std::nullopt, bool rowvar = true,
                 std::optional<DType> dtype = std::nullopt);

// Order statistics (defined in src/api/quantile.cpp and median.cpp, which build on
// copper::sort and copper::partition). Each sorts (or partitions) a copy along the reduced axes and reads
// the needed sorted positions; NaN in a slice makes its result NaN (the nan* forms skip
// NaN instead, NaN for slices with nothing else).
ndarray median(const ndarray& a, const Axes& axis = {}, const std::optional<ndarray>& out = std::nullopt,
               bool overwrite_input = false, bool keepdims = false);
ndarray nanmedian(const ndarray& a, const Axes& axis = {}, const std::optional<ndarray>& out = std::nullopt,
                  bool overwrite_input = false, bool keepdims = false);

// numpy.quantile's method= (NumPy 2's names; H&F types 1-9 and the classic five).
enum class QuantileMethod : std::uint8_t {
  inverted_cdf,
  averaged_inverted_cdf,
  closest_observation,
  interpolated_inverted_cdf,
  hazen,
  weibull,
  linear,
  median_unbiased,
  normal_unbiased,
  lower,
  higher,
  midpoint,
  nearest,
};
// ValueError("'x' is not a valid method. Use one of: ...") for other names.
QuantileMethod quantile_method_from_name(std::string_view name);

struct QuantileOptions {
  QuantileMethod method = QuantileMethod::linear;
  std::optional<ndarray> out = std::nullopt;
  bool overwrite_input = false;  // accepted; the input is never reordered
  bool keepdims = false;
  // Weights of a's shape, or of the reduced axes' shape; method inverted_cdf only.
  std::optional<ndarray> weights = std::nullopt;
};
// q: a number or an array of quantiles in [0, 1] (percentile: [0, 100]); the result has
// q's shape followed by the reduced shape. A weak number (a C++ or Python scalar) keeps
// a float input's dtype; a q array joins the promotion, as in NumPy.
ndarray quantile(const ndarray& a, const operand& q, const Axes& axis = {}, const QuantileOptions& opts = {});
ndarray percentile(const ndarray& a, const operand& q, const Axes& axis = {}, const QuantileOptions& opts = {});
ndarray nanquantile(const ndarray& a, const operand& q, const Axes& axis = {}, const QuantileOptions& opts = {});
ndarray nanpercentile(const ndarray& a, const operand& q, const Axes& axis = {}, const QuantileOptions& opts = {});

}  // namespace copper
