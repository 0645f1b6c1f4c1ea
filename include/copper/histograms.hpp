// Counting: bincount and histograms in one and several dimensions, with NumPy's rules.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "copper/ndarray.hpp"

namespace copper {

// numpy.bincount: counts of each non-negative integer in 1-D x (sums of weights, as
// float64, with weights); the result has max(x) + 1 entries, at least minlength.
ndarray bincount(const ndarray& x, const std::optional<ndarray>& weights = std::nullopt, std::int64_t minlength = 0);

// bins= of the histogram functions: a number of equal bins, an estimator's name
// ("auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt"), or the edges.
struct Bins {
  Bins(std::int64_t count) : value(count) {}
  Bins(int count) : value(static_cast<std::int64_t>(count)) {}
  Bins(std::string estimator) : value(std::move(estimator)) {}
  Bins(const char* estimator) : value(std::string(estimator)) {}
  Bins(ndarray edges) : value(std::move(edges)) {}
  std::variant<std::int64_t, std::string, ndarray> value;
};
// range=: the lower and upper edge (numbers keep NEP 50's weak/strong distinction).
using HistogramRange = std::optional<std::pair<Scalar, Scalar>>;

struct HistogramResult {
  ndarray hist;       // int64 counts, weights' dtype with weights, float64 with density
  ndarray bin_edges;  // nbins + 1 edges
};
HistogramResult histogram(const ndarray& a, const Bins& bins = 10, const HistogramRange& range = std::nullopt,
                          bool density = false, const std::optional<ndarray>& weights = std::nullopt);
ndarray histogram_bin_edges(const ndarray& a, const Bins& bins = 10, const HistogramRange& range = std::nullopt,
                            const std::optional<ndarray>& weights = std::nullopt);

// sample: (N, D) points (a 1-D array is N points of one dimension). bins and range hold
// one entry for every dimension, or one entry used for all.
struct HistogramddResult {
  ndarray hist;  // float64, shape (nbins_0, ..., nbins_{D-1})
  std::vector<ndarray> edges;
};
HistogramddResult histogramdd(const ndarray& sample, const std::vector<Bins>& bins = {Bins(10)},
                              const std::vector<HistogramRange>& range = {}, bool density = false,
                              const std::optional<ndarray>& weights = std::nullopt);
struct Histogram2dResult {
  ndarray hist, xedges, yedges;
};
Histogram2dResult histogram2d(const ndarray& x, const ndarray& y, const std::vector<Bins>& bins = {Bins(10)},
                              const std::vector<HistogramRange>& range = {}, bool density = false,
                              const std::optional<ndarray>& weights = std::nullopt);

}  // namespace copper
