// The reducers the CPU reduction and scan loops are instantiated with: how one input
// element is loaded into the accumulation type, and how partial results combine.
// Combining reuses the elementwise functors of ops/scalar_ops.h (add, multiply,
// maximum, fmin, logical_and, ...) so a reduction means exactly what its ufunc means.
#pragma once
#include "ops/casting.h"
#include "ops/scalar_math.h"
#include "ops/scalar_ops.h"
#include "ops/scalar_types.h"

namespace copper::backend::cpu::reducers {

namespace detail {
// NumPy's truth value: complex is true when either part is nonzero; NaN is true.
template <class T>
inline bool nonzero(T x) {
  if constexpr (ops::is_same_v<T, ops::half>) return (x.bits & 0x7fffu) != 0;
  else if constexpr (ops::is_complex_v<T>) return x.re != 0 || x.im != 0;
  else return x != T(0);
}
template <class T>
inline bool isnan(T x) {
  if constexpr (ops::is_same_v<T, ops::half>) return (x.bits & 0x7fffu) > 0x7c00u;
  else if constexpr (ops::is_complex_v<T>) return x.re != x.re || x.im != x.im;
  else if constexpr (ops::is_float_v<T>) return x != x;
  else return false;
}
// Lexicographic order for complex, as NumPy's (argmin/argmax compare with it).
template <class T>
inline bool greater(T a, T b) {
  if constexpr (ops::is_complex_v<T>) return a.re > b.re || (a.re == b.re && a.im > b.im);
  else return a > b;
}
}  // namespace detail

// In: the input element type; Out: the output (= accumulation) type.
template <class In, class Out>
struct Sum {
  using Acc = ops::compute_t<Out>;
  static Acc load(In x) { return ops::cast<Acc>(x); }
  static Acc combine(Acc a, Acc b) { return ops::add::call(a, b); }
  static Acc identity() { return Acc(0); }
  // NumPy's sums start from +0 (its identity), so a sum of only -0.0 is +0.0; these start
  // from the first element, and adding +0 once at the end gives the same bits.
  static Acc finish(Acc total) { return ops::add::call(total, Acc(0)); }
  static constexpr bool plain_sum = true;  // each element as it is (see plain_sum_v)
};
template <class In, class Out>
struct NanSum : Sum<In, Out> {
  using Acc = ops::compute_t<Out>;
  static Acc load(In x) { return detail::isnan(x) ? Acc(0) : ops::cast<Acc>(x); }
  static constexpr bool plain_sum = false;
};
// The 2-norm (linalg.norm): the sum of |x|^2 with its square root taken once per output
// (finish). Out is the real type; complex In contributes re^2 + im^2.
template <class In, class Out>
struct TwoNorm : Sum<In, Out> {
  using Acc = ops::compute_t<Out>;
  static Acc load(In x) {
    if constexpr (ops::is_complex_v<In>) {
      const Acc re = ops::cast<Acc>(x.re), im = ops::cast<Acc>(x.im);
      return re * re + im * im;
    } else {
      const Acc v = ops::cast<Acc>(x);
      return v * v;
    }
  }
  static Acc finish(Acc total) { return ops::math::sqrt(total); }
  static constexpr bool plain_sum = false;
};
template <class In, class Out>
struct Prod {
  using Acc = ops::compute_t<Out>;
  static Acc load(In x) { return ops::cast<Acc>(x); }
  static Acc combine(Acc a, Acc b) { return ops::multiply::call(a, b); }
  static Acc identity() { return Acc(1); }
};
template <class In, class Out>
struct NanProd : Prod<In, Out> {
  using Acc = ops::compute_t<Out>;
  static Acc load(In x) { return detail::isnan(x) ? Acc(1) : ops::cast<Acc>(x); }
};

// Min and max have no identity: the front end rejects empty reductions before the call.
template <class Op, class T>
struct Extremum {
  using Acc = ops::compute_t<T>;
  // Exact in any order (no rounding, no wrapping arithmetic; the load is a plain cast):
  // no pairwise split, and integer lanes may vectorize (reduce_run, reduce_rows).
  static constexpr bool order_free = true;
  // NaN-propagating max (+1) and min (-1) of float runs go to reduce_simd (0: neither).
  static constexpr int simd_extremum = ops::is_same_v<Op, ops::maximum> ? 1 : ops::is_same_v<Op, ops::minimum> ? -1 : 0;
  static Acc load(T x) { return ops::cast<Acc>(x); }
  static Acc combine(Acc a, Acc b) { return Op::call(a, b); }
  static Acc identity() { return Acc{}; }
};
template <class T> using Max = Extremum<ops::maximum, T>;
template <class T> using Min = Extremum<ops::minimum, T>;
template <class T> using NanMax = Extremum<ops::fmax, T>;
template <class T> using NanMin = Extremum<ops::fmin, T>;

template <class In>
struct All {
  using Acc = bool;
  static bool load(In x) { return detail::nonzero(x); }
  static bool combine(bool a, bool b) { return ops::logical_and::call(a, b); }
  static bool identity() { return true; }
  static constexpr bool decided_by = false;  // one zero decides it (see reduce_run)
};
template <class In>
struct Any {
  using Acc = bool;
  static bool load(In x) { return detail::nonzero(x); }
  static bool combine(bool a, bool b) { return ops::logical_or::call(a, b); }
  static bool identity() { return false; }
  static constexpr bool decided_by = true;  // one nonzero decides it (see reduce_run)
};

}  // namespace copper::backend::cpu::reducers
