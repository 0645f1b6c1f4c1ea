// The scalar semantics of every elementwise op, written once. The CPU backend
// instantiates these functors in its loops; the CUDA backend embeds this file's
// text in the sources it hands to NVRTC. An op supports a loop type T exactly when
// `Op::call` accepts T arguments (the constraints below), and its output type is
// what `call` returns: the catalogue derives NumPy's loop tables from that.
//
// Conventions: float16 never reaches a functor (loops compute it in float32);
// integer overflow wraps as in NumPy, never through C++ signed overflow (UB).
// Every overload is a constrained template, never a plain function: a plain
// `call(bool)` would accept any arithmetic type through conversion.
#pragma once
#include "ops/scalar_types.h"
#include "ops/scalar_math.h"
#include "ops/scalar_invoke.h"

namespace copper::ops {

namespace detail {
// Unsigned type at least as wide as unsigned int: 8/16-bit unsigned operands
// would otherwise promote to (signed) int, where a product can overflow.
template <class T> using wide_unsigned_t = decltype(make_unsigned_t<T>{} + 0u);

template <class T> COPPER_HD constexpr T int_min() {
  return static_cast<T>(static_cast<make_unsigned_t<T>>(make_unsigned_t<T>(1) << (8 * sizeof(T) - 1)));
}
template <class T> COPPER_HD T wrap_add(T a, T b) {
  using W = wide_unsigned_t<T>;
  return static_cast<T>(static_cast<W>(a) + static_cast<W>(b));
}
template <class T> COPPER_HD T wrap_sub(T a, T b) {
  using W = wide_unsigned_t<T>;
  return static_cast<T>(static_cast<W>(a) - static_cast<W>(b));
}
template <class T> COPPER_HD T wrap_mul(T a, T b) {
  using W = wide_unsigned_t<T>;
  return static_cast<T>(static_cast<W>(a) * static_cast<W>(b));
}
template <class T> COPPER_HD T wrap_neg(T a) { return wrap_sub(T(0), a); }

// NumPy's complex ordering for comparisons, maximum and minimum: lexicographic,
// and false whenever a NaN is involved.
template <class C> COPPER_HD bool c_has_nan(C a) { return math::isnan(a.re) || math::isnan(a.im); }
template <class C> COPPER_HD bool c_gt(C a, C b) {
  return (a.re > b.re && !math::isnan(a.im) && !math::isnan(b.im)) || (a.re == b.re && a.im > b.im);
}
template <class C> COPPER_HD bool c_ge(C a, C b) {
  return (a.re > b.re && !math::isnan(a.im) && !math::isnan(b.im)) || (a.re == b.re && a.im >= b.im);
}
template <class C> COPPER_HD bool c_lt(C a, C b) {
  return (a.re < b.re && !math::isnan(a.im) && !math::isnan(b.im)) || (a.re == b.re && a.im < b.im);
}
template <class C> COPPER_HD bool c_le(C a, C b) {
  return (a.re < b.re && !math::isnan(a.im) && !math::isnan(b.im)) || (a.re == b.re && a.im <= b.im);
}

template <class T> COPPER_HD bool shift_out_of_range(T b) {
  if constexpr (is_signed_int_v<T>) {
    if (b < 0) return true;
  }
  return b >= T(8 * sizeof(T));
}

// Truth value as NumPy's logical ops see it (NaN is true).
template <class T> COPPER_HD bool truth(T x) {
  if constexpr (is_complex_v<T>) return x.re != 0 || x.im != 0;
  else return x != T(0);
}

// NumPy's npy_divmod for floats: floor division and the matching remainder
// (sign of the divisor), exact at the rounding boundaries.
template <class T> COPPER_HD T float_divmod(T a, T b, T& mod) {
  mod = math::fmod(a, b);
  if (b == 0) return a / b;
  T div = (a - mod) / b;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
      div -= T(1);
    }
  } else {
    mod = math::copysign(T(0), b);
  }
  if (div != 0) {
    T fl = math::floor(div);
    if (div - fl > T(0.5)) fl += T(1);
    return fl;
  }
  return math::copysign(T(0), a / b);
}
}  // namespace detail

// ======================= unary =======================
struct negative {
  template <Int T> COPPER_HD static T call(T x) { return detail::wrap_neg(x); }
  template <Inexact T> COPPER_HD static T call(T x) { return -x; }
};

struct positive {
  template <Int T> COPPER_HD static T call(T x) { return x; }
  template <Inexact T> COPPER_HD static T call(T x) { return x; }
};

struct absolute {
  template <Bool T> COPPER_HD static T call(T x) { return x; }
  template <UnsignedInt T> COPPER_HD static T call(T x) { return x; }
  template <SignedInt T> COPPER_HD static T call(T x) { return x < 0 ? detail::wrap_neg(x) : x; }  // |INT_MIN| wraps
  template <Float T> COPPER_HD static T call(T x) { return math::fabs(x); }
  template <Complex T> COPPER_HD static auto call(T z) { return math::cabs(z); }
};

struct reciprocal {
  // NumPy computes 1.0/x in double and converts: 0 gives inf, which x86 converts
  // to INT_MIN for 32/64-bit targets and to 0 for narrower or unsigned ones.
  template <Int T> COPPER_HD static T call(T x) {
    if (x == 0) {
      if constexpr (SignedInt<T> && sizeof(T) >= 4) return detail::int_min<T>();
      else return T(0);
    }
    if (x == 1) return T(1);
    if constexpr (SignedInt<T>) {
      if (x == -1) return T(-1);
    }
    return T(0);
  }
  template <Float T> COPPER_HD static T call(T x) { return T(1) / x; }
  template <Complex T> COPPER_HD static T call(T z) {
    using R = decltype(z.re);
    if (math::fabs(z.im) <= math::fabs(z.re)) {
      R r = z.im / z.re, d = z.re + mul_rn(z.im, r);
      return {R(1) / d, -r / d};
    }
    R r = z.re / z.im, d = mul_rn(z.re, r) + z.im;
    return {r / d, R(-1) / d};
  }
};

struct square {
  template <Int T> COPPER_HD static T call(T x) { return detail::wrap_mul(x, x); }
  template <Inexact T> COPPER_HD static T call(T x) { return x * x; }
};

#define COPPER_INEXACT_UNARY(op, fn) \
  struct op {                          \
    template <Inexact T> COPPER_HD static T call(T x) { return math::fn(x); } \
  };
COPPER_INEXACT_UNARY(sqrt, sqrt)
COPPER_INEXACT_UNARY(exp, exp)
COPPER_INEXACT_UNARY(exp2, exp2)
COPPER_INEXACT_UNARY(expm1, expm1)
COPPER_INEXACT_UNARY(log, log)
COPPER_INEXACT_UNARY(log2, log2)
COPPER_INEXACT_UNARY(log10, log10)
COPPER_INEXACT_UNARY(log1p, log1p)
COPPER_INEXACT_UNARY(sin, sin)
COPPER_INEXACT_UNARY(cos, cos)
COPPER_INEXACT_UNARY(tan, tan)
COPPER_INEXACT_UNARY(arcsin, asin)
COPPER_INEXACT_UNARY(arccos, acos)
COPPER_INEXACT_UNARY(arctan, atan)
COPPER_INEXACT_UNARY(sinh, sinh)
COPPER_INEXACT_UNARY(cosh, cosh)
COPPER_INEXACT_UNARY(tanh, tanh)
COPPER_INEXACT_UNARY(arcsinh, asinh)
COPPER_INEXACT_UNARY(arccosh, acosh)
COPPER_INEXACT_UNARY(arctanh, atanh)
#undef COPPER_INEXACT_UNARY

struct cbrt {
  template <Float T> COPPER_HD static T call(T x) { return math::cbrt(x); }
};

// NumPy 2 has identity loops for bool and integers.
#define COPPER_ROUNDING_UNARY(op, fn) \
  struct op {                           \
    template <IntOrBool T> COPPER_HD static T call(T x) { return x; } \
    template <Float T> COPPER_HD static T call(T x) { return math::fn(x); } \
  };
COPPER_ROUNDING_UNARY(floor, floor)
COPPER_ROUNDING_UNARY(ceil, ceil)
COPPER_ROUNDING_UNARY(trunc, trunc)
#undef COPPER_ROUNDING_UNARY

struct rint {  // round half to even; complex rounds each part
  template <Float T> COPPER_HD static T call(T x) { return math::rint(x); }
  template <Complex T> COPPER_HD static T call(T z) { return {math::rint(z.re), math::rint(z.im)}; }
};

struct sign {
  template <SignedInt T> COPPER_HD static T call(T x) { return static_cast<T>((x > 0) - (x < 0)); }
  template <UnsignedInt T> COPPER_HD static T call(T x) { return static_cast<T>(x != 0); }
  template <Float T> COPPER_HD static T call(T x) {  // NaN stays NaN, -0.0 gives +0.0
    return x > 0 ? T(1) : x < 0 ? T(-1) : x == 0 ? T(0) : x;
  }
  template <Complex T> COPPER_HD static T call(T z) { return math::csign(z); }
};

struct logical_not {
  template <class T> requires Bool<T> || Number<T>
  COPPER_HD static bool call(T x) { return !detail::truth(x); }
};

struct invert {
  template <Bool T> COPPER_HD static T call(T x) { return !x; }
  template <Int T> COPPER_HD static T call(T x) { return static_cast<T>(~x); }
};

struct isnan {
  template <IntOrBool T> COPPER_HD static bool call(T) { return false; }
  template <Float T> COPPER_HD static bool call(T x) { return math::isnan(x); }
  template <Complex T> COPPER_HD static bool call(T z) { return math::isnan(z.re) || math::isnan(z.im); }
};

struct isinf {
  template <IntOrBool T> COPPER_HD static bool call(T) { return false; }
  template <Float T> COPPER_HD static bool call(T x) { return math::isinf(x); }
  template <Complex T> COPPER_HD static bool call(T z) { return math::isinf(z.re) || math::isinf(z.im); }
};

struct isfinite {
  template <IntOrBool T> COPPER_HD static bool call(T) { return true; }
  template <Float T> COPPER_HD static bool call(T x) { return math::isfinite(x); }
  template <Complex T> COPPER_HD static bool call(T z) { return math::isfinite(z.re) && math::isfinite(z.im); }
};

struct conjugate {
  template <Int T> COPPER_HD static T call(T x) { return x; }
  template <Float T> COPPER_HD static T call(T x) { return x; }
  template <Complex T> COPPER_HD static T call(T z) { return {z.re, -z.im}; }
};

struct angle {  // np.angle: arctan2(imag, real); integers are cast to float64 by the front end
  template <Float T> COPPER_HD static T call(T x) { return math::atan2(T(0), x); }
  template <Complex T> COPPER_HD static auto call(T z) { return math::carg(z); }
};

// ======================= binary: arithmetic =======================
struct add {
  template <Bool T> COPPER_HD static T call(T a, T b) { return a || b; }
  template <Int T> COPPER_HD static T call(T a, T b) { return detail::wrap_add(a, b); }
  template <Inexact T> COPPER_HD static T call(T a, T b) { return a + b; }
};

struct subtract {  // no bool loop: NumPy raises for bool - bool
  template <Int T> COPPER_HD static T call(T a, T b) { return detail::wrap_sub(a, b); }
  template <Inexact T> COPPER_HD static T call(T a, T b) { return a - b; }
};

struct multiply {
  template <Bool T> COPPER_HD static T call(T a, T b) { return a && b; }
  template <Int T> COPPER_HD static T call(T a, T b) { return detail::wrap_mul(a, b); }
  template <Inexact T> COPPER_HD static T call(T a, T b) { return a * b; }
};

struct true_divide {  // integer inputs are cast to float64 by the front end
  template <Inexact T> COPPER_HD static T call(T a, T b) { return a / b; }
};

struct floor_divide {
  // x // 0 == 0; INT_MIN // -1 wraps to INT_MIN.
  template <SignedInt T> COPPER_HD static T call(T a, T b) {
    if (b == 0) return T(0);
    if (b == -1) return detail::wrap_neg(a);
    T q = static_cast<T>(a / b);
    if (a % b != 0 && ((a < 0) != (b < 0))) q = static_cast<T>(q - 1);
    return q;
  }
  template <UnsignedInt T> COPPER_HD static T call(T a, T b) { return b == 0 ? T(0) : static_cast<T>(a / b); }
  template <Float T> COPPER_HD static T call(T a, T b) {
    if (b == 0) return a / b;  // +-inf, or NaN for 0/0 and NaN/0
    T mod;
    return detail::float_divmod(a, b, mod);
  }
};

struct remainder {  // sign of the divisor; x % 0 == 0 for integers
  template <SignedInt T> COPPER_HD static T call(T a, T b) {
    if (b == 0 || b == -1) return T(0);  // -1: INT_MIN % -1 is UB in C++
    T r = static_cast<T>(a % b);
    if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
    return r;
  }
  template <UnsignedInt T> COPPER_HD static T call(T a, T b) { return b == 0 ? T(0) : static_cast<T>(a % b); }
  template <Float T> COPPER_HD static T call(T a, T b) {
    if (b == 0) return math::fmod(a, b);  // NaN
    T mod;
    detail::float_divmod(a, b, mod);
    return mod;
  }
};

struct fmod {  // sign of the dividend; fmod(x, 0) == 0 for integers
  template <SignedInt T> COPPER_HD static T call(T a, T b) {
    if (b == 0 || b == -1) return T(0);
    return static_cast<T>(a % b);
  }
  template <UnsignedInt T> COPPER_HD static T call(T a, T b) { return b == 0 ? T(0) : static_cast<T>(a % b); }
  template <Float T> COPPER_HD static T call(T a, T b) { return math::fmod(a, b); }
};

struct power {
  // Exponentiation by squaring, wrapping. The front end rejects negative integer
  // exponents before the loop; here they give the integer part of 1/a**|b|.
  template <Int T> COPPER_HD static T call(T a, T b) {
    using W = detail::wide_unsigned_t<T>;
    if constexpr (SignedInt<T>) {
      if (b < 0) return a == 1 ? T(1) : a == -1 ? ((b & 1) ? T(-1) : T(1)) : T(0);
    }
    W result = 1, base = static_cast<W>(a);
    make_unsigned_t<T> e = static_cast<make_unsigned_t<T>>(b);
    while (e != 0) {
      if (e & 1u) result *= base;
      base *= base;
      e = static_cast<make_unsigned_t<T>>(e >> 1);
    }
    return static_cast<T>(result);
  }
  template <Float T> COPPER_HD static T call(T a, T b) { return math::pow(a, b); }
  template <Complex T> COPPER_HD static T call(T a, T b) { return math::pow(a, b); }
};

// power in double precision at least (NumPy's loops: float64 and complex128 only).
struct float_power {
  template <class T> requires is_same_v<T, double> || is_same_v<T, complex128>
  COPPER_HD static T call(T a, T b) { return power::call(a, b); }
};

struct arctan2 {
  template <Float T> COPPER_HD static T call(T a, T b) { return math::atan2(a, b); }
};

struct hypot {
  template <Float T> COPPER_HD static T call(T a, T b) { return math::hypot(a, b); }
};

// (floor_divide, remainder) in one pass.
struct divmod {
  template <Real T> COPPER_HD static pair<T, T> call(T a, T b) { return {floor_divide::call(a, b), remainder::call(a, b)}; }
};

// ======================= binary: extrema =======================
// maximum/minimum propagate NaN (the first NaN wins); on ties of +-0 NumPy returns b.
// The float tests join with `|`, not `||`: no branch, so CPU loops and reductions over
// them become compares and selects (max of 2e7 float64 on two threads: 41 -> about 25 ms).
struct maximum {
  template <Bool T> COPPER_HD static T call(T a, T b) { return a || b; }
  template <Int T> COPPER_HD static T call(T a, T b) { return a >= b ? a : b; }
  template <Float T> COPPER_HD static T call(T a, T b) { return math::isnan_for_select(a) ? a : a > b ? a : b; }
  template <Complex T> COPPER_HD static T call(T a, T b) { return (detail::c_ge(a, b) || detail::c_has_nan(a)) ? a : b; }
};

struct minimum {
  template <Bool T> COPPER_HD static T call(T a, T b) { return a && b; }
  template <Int T> COPPER_HD static T call(T a, T b) { return a <= b ? a : b; }
  template <Float T> COPPER_HD static T call(T a, T b) { return math::isnan_for_select(a) ? a : a < b ? a : b; }
  template <Complex T> COPPER_HD static T call(T a, T b) { return (detail::c_le(a, b) || detail::c_has_nan(a)) ? a : b; }
};

// fmax/fmin ignore a NaN unless both are NaN.
struct fmax {
  template <Bool T> COPPER_HD static T call(T a, T b) { return a || b; }
  template <Int T> COPPER_HD static T call(T a, T b) { return a >= b ? a : b; }
  template <Float T> COPPER_HD static T call(T a, T b) { return math::isnan_for_select(b) ? a : a > b ? a : b; }
  template <Complex T> COPPER_HD static T call(T a, T b) { return (detail::c_ge(a, b) || detail::c_has_nan(b)) ? a : b; }
};

struct fmin {
  template <Bool T> COPPER_HD static T call(T a, T b) { return a && b; }
  template <Int T> COPPER_HD static T call(T a, T b) { return a <= b ? a : b; }
  template <Float T> COPPER_HD static T call(T a, T b) { return math::isnan_for_select(b) ? a : a < b ? a : b; }
  template <Complex T> COPPER_HD static T call(T a, T b) { return (detail::c_le(a, b) || detail::c_has_nan(b)) ? a : b; }
};

// ======================= binary: comparisons and logic =======================
#define COPPER_COMPARISON(op, expr, cexpr)                                        \
  struct op {                                                                     \
    template <class T> requires Bool<T> || Real<T>                                \
    COPPER_HD static bool call(T a, T b) { return expr; }                         \
    template <Complex T> COPPER_HD static bool call(T a, T b) { return cexpr; }   \
  };
COPPER_COMPARISON(greater, a > b, detail::c_gt(a, b))
COPPER_COMPARISON(greater_equal, a >= b, detail::c_ge(a, b))
COPPER_COMPARISON(less, a < b, detail::c_lt(a, b))
COPPER_COMPARISON(less_equal, a <= b, detail::c_le(a, b))
COPPER_COMPARISON(equal, a == b, a.re == b.re && a.im == b.im)
COPPER_COMPARISON(not_equal, a != b, a.re != b.re || a.im != b.im)
#undef COPPER_COMPARISON

#define COPPER_LOGICAL(op, expr)                                                  \
  struct op {                                                                     \
    template <class T> requires Bool<T> || Number<T>                              \
    COPPER_HD static bool call(T a, T b) {                                        \
      bool x = detail::truth(a), y = detail::truth(b);                            \
      return expr;                                                                \
    }                                                                             \
  };
COPPER_LOGICAL(logical_and, x && y)
COPPER_LOGICAL(logical_or, x || y)
COPPER_LOGICAL(logical_xor, x != y)
#undef COPPER_LOGICAL

struct bitwise_and {
  template <Bool T> COPPER_HD static T call(T a, T b) { return a && b; }
  template <Int T> COPPER_HD static T call(T a, T b) { return static_cast<T>(a & b); }
};
struct bitwise_or {
  template <Bool T> COPPER_HD static T call(T a, T b) { return a || b; }
  template <Int T> COPPER_HD static T call(T a, T b) { return static_cast<T>(a | b); }
};
struct bitwise_xor {
  template <Bool T> COPPER_HD static T call(T a, T b) { return a != b; }
  template <Int T> COPPER_HD static T call(T a, T b) { return static_cast<T>(a ^ b); }
};

// Shift counts outside [0, bits) (negative ones included, as NumPy casts them to
// an unsigned size) shift everything out: 0, or -1 for right shifts of negatives.
struct left_shift {
  template <Int T> COPPER_HD static T call(T a, T b) {
    if (detail::shift_out_of_range(b)) return T(0);
    using W = detail::wide_unsigned_t<T>;
    return static_cast<T>(static_cast<W>(a) << b);
  }
};
struct right_shift {
  template <Int T> COPPER_HD static T call(T a, T b) {
    if (detail::shift_out_of_range(b)) {
      if constexpr (SignedInt<T>) return a < 0 ? T(-1) : T(0);
      else return T(0);
    }
    return static_cast<T>(a >> b);  // arithmetic for signed (defined since C++20)
  }
};

// ======================= ternary =======================
// clip(x, lo, hi) = min(max(x, lo), hi) with NumPy's clip loops' own max/min:
// a NaN in x or the bound reached propagates; ties return the bound.
struct clip {
  template <class T> requires Bool<T> || Int<T>
  COPPER_HD static T call(T x, T lo, T hi) {
    T m = x < lo ? lo : x;
    return hi < m ? hi : m;
  }
  template <Float T> COPPER_HD static T call(T x, T lo, T hi) {
    // x when it equals a bound or is NaN (NumPy's zero signs), which is exactly what x86's
    // maxps/minps select: the host loop compiles to two instructions, the NaN bounds'
    // tests being the same for every element. A NaN bound gives NaN.
    const T m = lo > x ? lo : x;
    const T r = hi < m ? hi : m;
    return math::isnan_for_select(lo) ? lo : math::isnan_for_select(hi) ? hi : r;
  }
  template <Complex T> COPPER_HD static T call(T x, T lo, T hi) {
    // lexicographic without NaN tests of the bound (unlike maximum/minimum)
    T m = (detail::c_has_nan(x) || (x.re == lo.re ? x.im > lo.im : x.re > lo.re)) ? x : lo;
    return (detail::c_has_nan(m) || (m.re == hi.re ? m.im < hi.im : m.re < hi.re)) ? m : hi;
  }
};

}  // namespace copper::ops

#include "ops/scalar_ops_float.h"
#include "ops/scalar_ops_integer.h"
