// Elementwise functions NumPy has as plain functions rather than ufuncs, composed from
// ufuncs: sinc, i0, fix, nan_to_num, real_if_close, the inf/complex tests, and the
// closeness and equality tests (isclose, allclose, array_equal, array_equiv).
#pragma once
#include <optional>

#include "copper/ndarray.hpp"

namespace copper {

ndarray sinc(const operand& x);
ndarray i0(const operand& x);  // float16/32 stay, other real dtypes compute in float64; TypeError for complex
ndarray fix(const operand& x, const std::optional<ndarray>& out = std::nullopt);
// NaN -> nan, +inf -> posinf (default: the dtype's largest), -inf -> neginf (default: its
// lowest); complex parts separately. The replacements may be arrays broadcasting to x's
// shape (NumPy's copyto). copy=false writes into x (an array) and returns it.
ndarray nan_to_num(const operand& x, bool copy = true, const operand& nan = 0.0,
                   const std::optional<operand>& posinf = std::nullopt,
                   const std::optional<operand>& neginf = std::nullopt);
ndarray real_if_close(const operand& a, double tol = 100);
ndarray isneginf(const operand& x, const std::optional<ndarray>& out = std::nullopt);
ndarray isposinf(const operand& x, const std::optional<ndarray>& out = std::nullopt);
ndarray iscomplex(const operand& x);
ndarray isreal(const operand& x);
bool iscomplexobj(const ndarray& x);
bool isrealobj(const ndarray& x);
ndarray isclose(const operand& a, const operand& b, const operand& rtol = 1e-05, const operand& atol = 1e-08,
                bool equal_nan = false);
bool allclose(const operand& a, const operand& b, const operand& rtol = 1e-05, const operand& atol = 1e-08,
              bool equal_nan = false);
bool array_equal(const operand& a1, const operand& a2, bool equal_nan = false);
bool array_equiv(const operand& a1, const operand& a2);

}  // namespace copper
