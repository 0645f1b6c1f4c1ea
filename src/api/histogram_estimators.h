// numpy.histogram's bin-count estimators (bins="auto", "fd", "doane", "scott",
// "stone", "rice", "sturges", "sqrt"): NumPy's formulas, evaluated on the device with
// a few host reads of scalars.
#pragma once
#include <cstdint>
#include <string>

#include "copper/ndarray.hpp"

namespace copper::api {

// ValueError("'foo' is not a valid estimator for `bins`") for unknown names.
void check_estimator_name(const std::string& name);

// The number of equal bins the estimator picks for the values of x within
// [first, last] (x itself when no range was given).
std::int64_t estimated_bin_count(const ndarray& x, const std::string& name, const Scalar& first, const Scalar& last,
                                 bool range_given);

}  // namespace copper::api
