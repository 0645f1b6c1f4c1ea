// Shared front-end steps of the statistics (average, quantiles): weights given for the
// reduced axes only, and reduced axes gathered into rows.
#pragma once
#include "api/reduction_support.h"

namespace copper::api {

// NumPy's weight rule (average, quantile): weights of a's shape as they are; else of the
// shape (a.shape[axis[0]], a.shape[axis[1]], ...), returned as a view that broadcasts
// against a. TypeError without axes, ValueError for any other shape.
ndarray weights_for_axes(const ndarray& a, const Axes& axis, const ndarray& weights);

// `a` with the kept axes first (C order) and the reduced axes flattened into one last
// dimension: a C-contiguous (rows, values per row) array, a copy unless `a` is one already.
ndarray reduced_rows(const ndarray& a, const ReducePlan& plan);

// out[..., r, k] = rows[r, pos[..., r, k]]: for a C-contiguous (R, n) `rows` and int64
// positions in [0, n) whose last two dimensions are (R, K); one gather on the device.
ndarray gather_in_rows(const ndarray& rows, const ndarray& pos);

}  // namespace copper::api
