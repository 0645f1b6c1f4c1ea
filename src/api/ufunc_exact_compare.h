// Exact comparisons between signed integers and uint64 (NumPy 2's mixed loops).
#pragma once
#include <array>
#include <span>

#include "api/ufunc.h"

namespace copper::api {

// When `op` compares a signed integer operand with a uint64 one (arrays or strong
// scalars, no dtype=/signature=), computes it exactly into results[0] and returns true.
bool exact_signed_unsigned_comparison(ops::UfuncId op, std::span<const operand* const> inputs,
                                      const std::array<DType, 3>& dtypes, const UfuncOptions& opts,
                                      ndarray* results);

}  // namespace copper::api
