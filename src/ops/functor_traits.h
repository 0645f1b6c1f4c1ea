// Compile-time questions about an op functor from scalar_ops.h: does it have a loop
// over storage type T, and what does that loop store? The same detection the op
// catalogue uses, for backends that instantiate one kernel per (op, type).
#pragma once
#include "ops/scalar_types.h"

namespace copper::ops {

namespace detail {
template <class T> T make_value();  // only named in unevaluated contexts
}

template <class Op, class C> concept callable1 = requires(C a) { Op::call(a); };
template <class Op, class C> concept callable2 = requires(C a, C b) { Op::call(a, b); };
template <class Op, class C> concept callable3 = requires(C a, C b, C c) { Op::call(a, b, c); };

// Op::call accepts N arguments of T's compute type (float16 loops compute in float32).
template <class Op, int N, class T>
concept has_loop = (N == 1 && callable1<Op, compute_t<T>>) || (N == 2 && callable2<Op, compute_t<T>>) ||
                   (N == 3 && callable3<Op, compute_t<T>>);

template <class Op, int N, class C> struct call_result;
template <class Op, class C> struct call_result<Op, 1, C> {
  using type = decltype(Op::call(detail::make_value<C>()));
};
template <class Op, class C> struct call_result<Op, 2, C> {
  using type = decltype(Op::call(detail::make_value<C>(), detail::make_value<C>()));
};
template <class Op, class C> struct call_result<Op, 3, C> {
  using type = decltype(Op::call(detail::make_value<C>(), detail::make_value<C>(), detail::make_value<C>()));
};

template <class A, class B, bool UseA> struct pick { using type = B; };
template <class A, class B> struct pick<A, B, true> { using type = A; };

// What the functor returns for T's compute type, and what the loop stores: a result in
// the compute type is stored back as T (float16 in, float16 out); any other type as itself.
template <class Op, int N, class T> using compute_result_t = typename call_result<Op, N, compute_t<T>>::type;
template <class Op, int N, class T>
using stored_result_t = typename pick<T, compute_result_t<Op, N, T>, is_same_v<compute_result_t<Op, N, T>, compute_t<T>>>::type;

}  // namespace copper::ops
