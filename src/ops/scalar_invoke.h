// How a loop applies an op functor to stored values, written once for the CPU loops,
// the generated CUDA kernels and the catalogue: the type of each input of the loop
// over T, the type the functor computes in (float16 is widened to float32 unless the
// op takes float16 itself), and what each output stores.
#pragma once
#include "ops/scalar_types.h"

namespace copper::ops {

// Input K of Op's loop over T: T itself, unless Op declares a member template
// `input<T, K>` (ldexp's exponent is int64 in every loop).
template <class Op, class T, int K> struct op_input { using type = T; };
template <class Op, class T, int K>
  requires requires { typename Op::template input<T, K>; }
struct op_input<Op, T, K> {
  using type = typename Op::template input<T, K>;
};
template <class Op, class T, int K> using op_input_t = typename op_input<Op, T, K>::type;

template <class T> COPPER_HD compute_t<T> widen(T x) {
  if constexpr (is_same_v<T, half>) return half_to_float(x);
  else return x;
}
template <class R, class V> COPPER_HD R narrow(V v) {
  if constexpr (is_same_v<R, half> && !is_same_v<V, half>) return float_to_half(v);
  else return v;
}

// Whether Op::call takes these stored types as they are (float16 only for ops that
// overload call() on Half), or else once float16 is widened.
template <class Op, class... T> concept takes_stored = requires(T... x) { Op::call(x...); };
template <class Op, class... T> concept takes_widened = requires(compute_t<T>... x) { Op::call(x...); };

template <class Op, class... T> COPPER_HD auto call_stored(T... x) {
  if constexpr (takes_stored<Op, T...>) return Op::call(x...);
  else return Op::call(widen(x)...);
}

// What the loop over T stores for a functor result R: a result in T's compute type is
// stored as T (float16 in, float16 out), any other type as itself.
template <class T, class R> using stored_t = select_t<is_same_v<R, compute_t<T>>, T, R>;

// One element of a one-output loop: the result converted to the output's storage type R.
template <class Op, class R, class... T> COPPER_HD R invoke(T... x) { return narrow<R>(call_stored<Op>(x...)); }
// One element of a two-output loop: returns the first result, stores the second.
template <class Op, class R0, class R1, class... T> COPPER_HD R0 invoke2(R1& second, T... x) {
  auto r = call_stored<Op>(x...);
  second = narrow<R1>(r.second);
  return narrow<R0>(r.first);
}

}  // namespace copper::ops
