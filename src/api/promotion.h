// NEP 50 promotion of arrays with weak scalars, shared by ufuncs and other front-end code.
#pragma once
#include <vector>

#include "copper/ndarray.hpp"

namespace copper::api {

// The dtype a weak scalar takes next to an array of `array_dtype`.
DType weak_scalar_dtype(const Scalar& s, DType array_dtype);
// numpy.result_type; with check_overflow, a weak Python int that does not fit the
// integer result raises OverflowError as NumPy's operators do (int8_array + 300).
DType result_type(const std::vector<operand>& args, bool check_overflow);

}  // namespace copper::api
