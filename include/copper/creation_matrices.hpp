// Structured matrices and sequences: tri, diagflat, vander, geomspace
// (src/api/creation_matrices.cpp), composed from the core creation functions.
#pragma once
#include <optional>

#include "copper/ndarray.hpp"

namespace copper {

// Ones at and below diagonal k of an (N, M) array (M defaults to N).
ndarray tri(std::int64_t N, std::optional<std::int64_t> M = std::nullopt, std::int64_t k = 0, DType dtype = float64,
            Device device = default_device());
// The flattened v on diagonal k of a square array.
ndarray diagflat(const ndarray& v, std::int64_t k = 0);
// Columns x**(N-1), ..., x**0 (increasing: the reverse), as running products; dtype
// promote_types(x.dtype, int64).
ndarray vander(const ndarray& x, std::optional<std::int64_t> N = std::nullopt, bool increasing = false);
// num samples evenly spaced on a log scale from start to stop (arrays broadcast; the samples
// run along `axis`); negative and complex bounds as NumPy (rotated to the positive reals).
ndarray geomspace(const operand& start, const operand& stop, std::int64_t num = 50, bool endpoint = true,
                  std::optional<DType> dtype = std::nullopt, int axis = 0, Device device = default_device());

}  // namespace copper
