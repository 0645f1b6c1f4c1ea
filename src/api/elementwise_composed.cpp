// NumPy's elementwise functions that are not ufuncs, composed from ufuncs the way
// NumPy composes them (so dtypes and special values follow NumPy's).
#include <cmath>
#include <limits>
#include <numbers>

#include "api/fp_errors_internal.h"
#include "api/ufunc.h"
#include "copper/creation.hpp"
#include "copper/elementwise.hpp"
#include "copper/manipulation.hpp"
#include "copper/reductions.hpp"

namespace copper {

namespace {

ndarray as_array(const operand& x) {
  return x.is_array() ? x.array() : full({}, x.scalar(), std::nullopt, default_device());
}

// The largest finite value and the machine epsilon of a float dtype.
double float_max(DType t) {
  return t == float16 ? 65504.0 : t == float32 ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max();
}
double float_eps(DType t) {
  return t == float16 ? 0.0009765625 : t == float32 ? std::numeric_limits<float>::epsilon()
                                                     : std::numeric_limits<double>::epsilon();
}

bool all_true(const ndarray& a) { return all(a).item().to_bool(); }


void replace_non_finite(const ndarray& x, const operand& nan, const std::optional<operand>& posinf,
                        const std::optional<operand>& neginf) {
  const ndarray is_nan = isnan(x), is_pos = isposinf(x), is_neg = isneginf(x);
  copyto(x, nan, Casting::unsafe, is_nan);
  copyto(x, posinf.value_or(operand(float_max(x.dtype()))), Casting::unsafe, is_pos);
  copyto(x, neginf.value_or(operand(-float_max(x.dtype()))), Casting::unsafe, is_neg);
}

[[noreturn]] void throw_complex_ambiguous(DType t) {
  throw TypeError("This operation is not supported for " + std::string(name(t)) +
                  " values because it would be ambiguous.");
}

}  // namespace

ndarray sinc(const operand& xo) {
  // NumPy's recipe: zeros become the dtype's epsilon (1e-20 for non-floats), so sin(y)/y
  // is 1 there even in float16.
  const ndarray x = multiply(std::numbers::pi, as_array(xo));
  const double eps = kind(x.dtype()) == Kind::float_ ? float_eps(x.dtype()) : 1.0e-20;
  const ndarray y = where(not_equal(x, 0), x, eps);
  return true_divide(sin(y), y);
}

ndarray i0(const operand& xo) {
  ndarray x = as_array(xo);
  if (is_complex(x.dtype())) throw TypeError("i0 not supported for complex values");
  if (!is_floating(x.dtype())) x = x.astype(float64);
  return bessel_i0(x);
}

ndarray fix(const operand& x, const std::optional<ndarray>& out) {
  UfuncOptions o;
  o.out = out;
  ndarray r = ceil(x, o);
  UfuncOptions down;
  down.out = r;
  down.where = greater_equal(x, 0);
  return floor(x, down);
}

ndarray nan_to_num(const operand& xo, bool copy, const operand& nan, const std::optional<operand>& posinf,
                   const std::optional<operand>& neginf) {
  ndarray x = as_array(xo);
  if (copy || !xo.is_array()) x = x.copy();
  if (!is_inexact(x.dtype())) return x;
  if (is_complex(x.dtype())) {
    replace_non_finite(real(x), nan, posinf, neginf);
    replace_non_finite(imag(x), nan, posinf, neginf);
  } else {
    replace_non_finite(x, nan, posinf, neginf);
  }
  return x;
}

ndarray real_if_close(const operand& ao, double tol) {
  const ndarray a = as_array(ao);
  if (!is_complex(a.dtype())) return a;
  if (tol > 1) tol *= float_eps(real_dtype(a.dtype()));
  return all_true(less(absolute(imag(a)), tol)) ? real(a) : a;
}

ndarray isneginf(const operand& x, const std::optional<ndarray>& out) {
  const DType t = x.is_array() ? x.array().dtype() : x.scalar().dtype();
  if (is_complex(t)) throw_complex_ambiguous(t);
  UfuncOptions o;
  o.out = out;
  return logical_and(isinf(x), signbit(x), o);
}

ndarray isposinf(const operand& x, const std::optional<ndarray>& out) {
  const DType t = x.is_array() ? x.array().dtype() : x.scalar().dtype();
  if (is_complex(t)) throw_complex_ambiguous(t);
  UfuncOptions o;
  o.out = out;
  return logical_and(isinf(x), logical_not(signbit(x)), o);
}

ndarray iscomplex(const operand& xo) {
  const ndarray x = as_array(xo);
  if (is_complex(x.dtype())) return not_equal(imag(x), 0);
  return zeros(x.shape(), bool_, x.device());
}

ndarray isreal(const operand& xo) {
  const ndarray x = as_array(xo);
  if (is_complex(x.dtype())) return equal(imag(x), 0);
  return ones(x.shape(), bool_, x.device());
}

bool iscomplexobj(const ndarray& x) { return is_complex(x.dtype()); }
bool isrealobj(const ndarray& x) { return !is_complex(x.dtype()); }

// NumPy 2: |x - y| <= atol + rtol * |y|, for finite y, or x == y; y at least floating.
ndarray isclose(const operand& a, const operand& b, const operand& rtol, const operand& atol, bool equal_nan) {
  operand y = b;
  if (b.is_array()) {
    const DType dt = result_type({b, operand(1.0)});
    if (b.array().dtype() != dt) y = operand(b.array().astype(dt));
  } else if (b.scalar().kind() == Kind::int_ || b.scalar().kind() == Kind::uint_ || b.scalar().kind() == Kind::bool_) {
    Scalar f(b.scalar().to_double());
    y = b.scalar().weak() ? operand(f) : operand(Scalar::typed(f, result_type({b, operand(1.0)})));
  }
  const detail::QuietFpErrors quiet;  // |inf - inf| is NaN there, unreported (NumPy's errstate)
  const ndarray ay = absolute(y);
  ndarray result = logical_or(
      logical_and(less_equal(absolute(subtract(a, y)), add(atol, multiply(rtol, ay))), isfinite(y)), equal(a, y));
  if (equal_nan) result = logical_or(result, logical_and(isnan(a), isnan(y)));
  return result;
}

bool allclose(const operand& a, const operand& b, const operand& rtol, const operand& atol, bool equal_nan) {
  return all_true(isclose(a, b, rtol, atol, equal_nan));
}

bool array_equal(const operand& a1o, const operand& a2o, bool equal_nan) {
  const ndarray a1 = as_array(a1o), a2 = as_array(a2o);
  if (a1.shape() != a2.shape()) return false;
  if (!equal_nan || (!is_inexact(a1.dtype()) && !is_inexact(a2.dtype()))) return all_true(equal(a1, a2));
  const ndarray n1 = isnan(a1), n2 = isnan(a2);
  if (!all_true(equal(n1, n2))) return false;
  return all_true(logical_or(equal(a1, a2), n1));
}

bool array_equiv(const operand& a1o, const operand& a2o) {
  const ndarray a1 = as_array(a1o), a2 = as_array(a2o);
  try {
    broadcast_shapes({a1.shape(), a2.shape()});
  } catch (const ValueError&) {
    return false;
  }
  return all_true(equal(a1, a2));
}

}  // namespace copper
