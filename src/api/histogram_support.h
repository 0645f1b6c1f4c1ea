// Shared front-end steps of bincount and the histograms: NumPy's outer edges and
// checks, and the one call into Backend::histogram.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api/array_factory.h"
#include "copper/histograms.hpp"

namespace copper::api {

// One axis of the counting: values and how they map to bins (backend.h's HistogramBins).
struct BinAxis {
  ndarray x;      // 1-D
  ndarray edges;  // nbins + 1 sorted values (unused for HistogramBins::index)
  backend::HistogramBins bins;
};

// Counts the sample into an array of `shape` (one dimension per axis) holding `acc`
// (int64 counts; int64, uint64, float64 or complex128 sums of the weights).
ndarray count_into_bins(const std::vector<BinAxis>& axes, const std::optional<ndarray>& weights, const Shape& shape,
                        DType acc);

// NumPy's _get_outer_edges: the range as given (checked), [0, 1] for empty input, else
// the data's min and max (strong scalars of its dtype; one host read); equal edges are
// widened by 0.5 each way, with NumPy's scalar arithmetic.
std::pair<Scalar, Scalar> outer_edges(const ndarray& x, const HistogramRange& range);

// The smallest and largest element of a nonempty integer or bool array, as int64 (uint64
// past int64's range wraps): two reductions, one host read.
std::pair<std::int64_t, std::int64_t> integer_range(const ndarray& x);

// Whether 1-D `edges` ever decrease (or, with strict, fail to increase): one host read.
bool edges_decrease(const ndarray& edges, bool strict);

// The text Python prints for a scalar in an f-string ("nan", "1.5", "3").
std::string scalar_text(const Scalar& s);

}  // namespace copper::api
