// around/round: NumPy's multiply-rint-divide for inexact types; exact integer
// arithmetic (round half to even) for integers with negative decimals.
#include <cmath>

#include "api/array_factory.h"
#include "api/ufunc.h"
#include "copper/creation.hpp"
#include "copper/manipulation.hpp"
#include "copper/ufuncs.hpp"

namespace copper {

namespace {

ndarray finish(const ndarray& r, const std::optional<ndarray>& out) {
  if (!out || out->buffer() == r.buffer()) return out ? *out : r;
  const operand value = r;
  const operand* in[] = {&value};
  api::broadcast_inputs(in, &*out);
  copyto(*out, r, Casting::unsafe);
  return *out;
}

// 10**n for integers: round to the nearest multiple, ties to the even multiple. Works in
// 64 bits so the comparisons cannot overflow; the final cast wraps as NumPy's would.
ndarray round_integers(const ndarray& x, int decimals) {
  const bool is_unsigned = kind(x.dtype()) == Kind::uint_;
  const DType wide = is_unsigned ? uint64 : int64;
  const int digits = -decimals;
  if (digits >= (is_unsigned ? 20 : 19)) return zeros(x.shape(), x.dtype(), x.device());  // |x| < 10**digits / 2
  std::uint64_t f = 1;
  for (int i = 0; i < digits; ++i) f *= 10;
  const Scalar factor = is_unsigned ? Scalar(f) : Scalar(static_cast<std::int64_t>(f));
  ndarray w = x.astype(wide);
  ndarray q = floor_divide(w, factor);
  ndarray r = subtract(w, multiply(q, factor));       // 0 <= r < f
  ndarray rest = subtract(factor, r);                 // f - r, no overflow unlike 2 * r
  ndarray up = logical_or(greater(r, rest), logical_and(equal(r, rest), equal(bitwise_and(q, 1), 1)));
  ndarray rounded = multiply(add(q, up.astype(wide)), factor);
  return rounded.astype(x.dtype());
}

}  // namespace

ndarray around(const operand& xo, int decimals, const std::optional<ndarray>& out) {
  // Scalars round as 0-d arrays of their default dtype.
  ndarray x = xo.is_array() ? xo.array() : full({}, xo.scalar(), std::nullopt, default_device());
  if (is_integer(x.dtype())) {
    if (decimals >= 0) return finish(x.copy(), out);
    return finish(round_integers(x, decimals), out);
  }
  UfuncOptions o;
  if (out) o.out = *out;
  if (decimals == 0) return rint(x, o);
  if (x.dtype() == bool_) {
    // NumPy multiplies in place into the bool array, which same_kind casting refuses.
    throw TypeError(std::string("Cannot cast ufunc '") + (decimals > 0 ? "multiply" : "divide") +
                    "' output from dtype('float64') to dtype('bool') with casting rule 'same_kind'");
  }
  if (is_complex(x.dtype())) {
    // NumPy rounds the two parts as real arrays (a complex division would perturb them).
    ndarray result = out && out->dtype() == x.dtype() ? *out : empty(x.shape(), x.dtype(), x.device());
    around(real(x), decimals, real(result));
    around(imag(x), decimals, imag(result));
    return finish(result, out);
  }
  // The factor has the input's precision (float16 overflows early, as in NumPy).
  const DType factor_dtype = x.dtype();
  if (decimals > 0) {
    Scalar f = Scalar::typed(Scalar(std::pow(10.0, decimals)), factor_dtype);
    return true_divide(rint(multiply(x, f)), f, o);
  }
  Scalar f = Scalar::typed(Scalar(std::pow(10.0, -decimals)), factor_dtype);
  return multiply(rint(true_divide(x, f)), f, o);
}

}  // namespace copper
