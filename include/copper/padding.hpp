// numpy.pad's built-in modes (a callable mode is Python's: python/copper/_padding.py).
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "copper/ndarray.hpp"

namespace copper {

// Per-axis (before, after) pairs; one pair stands for every axis.
template <class T>
using AxisPairs = std::vector<std::pair<T, T>>;

struct PadOptions {
  AxisPairs<Scalar> constant_values = {{Scalar(0), Scalar(0)}};  // mode "constant"
  AxisPairs<Scalar> end_values = {{Scalar(0), Scalar(0)}};       // mode "linear_ramp"
  // Modes "maximum", "mean", "median", "minimum": how many edge elements each statistic
  // reads (nullopt: the whole axis).
  AxisPairs<std::optional<std::int64_t>> stat_length = {{std::nullopt, std::nullopt}};
  std::string reflect_type = "even";  // modes "reflect", "symmetric": "even" or "odd"
};

// mode: constant, edge, linear_ramp, maximum, mean, median, minimum, reflect, symmetric,
// wrap or empty. Axes pad in order, so corners come from the later axes, as in NumPy.
ndarray pad(const ndarray& array, const AxisPairs<std::int64_t>& pad_width, const std::string& mode = "constant",
            const PadOptions& options = {});

}  // namespace copper
