// Compile-time questions about an op functor from scalar_ops.h: does it have a loop
// over storage type T, which types do its inputs have, how many outputs does it
// have and what does each store? The same detection the op catalogue uses, for
// backends that instantiate one kernel per (op, type).
#pragma once
#include "ops/scalar_invoke.h"

namespace copper::ops {

namespace detail {
template <class T> T make_value();  // only named in unevaluated contexts
}

// Op::call accepts the N inputs of its loop over T (float16 loops compute in float32
// unless the op takes float16 itself).
template <class Op, int N, class T>
concept has_loop =
    (N == 1 && (takes_stored<Op, op_input_t<Op, T, 0>> || takes_widened<Op, op_input_t<Op, T, 0>>)) ||
    (N == 2 && (takes_stored<Op, op_input_t<Op, T, 0>, op_input_t<Op, T, 1>> ||
                takes_widened<Op, op_input_t<Op, T, 0>, op_input_t<Op, T, 1>>)) ||
    (N == 3 && (takes_stored<Op, op_input_t<Op, T, 0>, op_input_t<Op, T, 1>, op_input_t<Op, T, 2>> ||
                takes_widened<Op, op_input_t<Op, T, 0>, op_input_t<Op, T, 1>, op_input_t<Op, T, 2>>));

template <class Op, int N, class T> struct call_result;
template <class Op, class T> struct call_result<Op, 1, T> {
  using type = decltype(call_stored<Op>(detail::make_value<op_input_t<Op, T, 0>>()));
};
template <class Op, class T> struct call_result<Op, 2, T> {
  using type = decltype(call_stored<Op>(detail::make_value<op_input_t<Op, T, 0>>(),
                                        detail::make_value<op_input_t<Op, T, 1>>()));
};
template <class Op, class T> struct call_result<Op, 3, T> {
  using type = decltype(call_stored<Op>(detail::make_value<op_input_t<Op, T, 0>>(),
                                        detail::make_value<op_input_t<Op, T, 1>>(),
                                        detail::make_value<op_input_t<Op, T, 2>>()));
};
template <class Op, int N, class T> using compute_result_t = typename call_result<Op, N, T>::type;

// Outputs of the loop: one, or two when call() returns a pair.
template <class R> struct outputs {
  static constexpr int count = 1;
  using first = R;
  using second = R;
};
template <class A, class B> struct outputs<pair<A, B>> {
  static constexpr int count = 2;
  using first = A;
  using second = B;
};
template <class Op, int N, class T> inline constexpr int nout_v = outputs<compute_result_t<Op, N, T>>::count;
// What the loop over T stores in its first and second output.
template <class Op, int N, class T>
using stored_result_t = stored_t<T, typename outputs<compute_result_t<Op, N, T>>::first>;
template <class Op, int N, class T>
using stored_result2_t = stored_t<T, typename outputs<compute_result_t<Op, N, T>>::second>;

}  // namespace copper::ops
