// The scalar semantics of every elementwise op, written once. The CPU backend
// instantiates these functors in its loops; the CUDA backend embeds this file's
// text in the sources it hands to NVRTC. An op supports a loop type T exactly when
// `Op::call` accepts T arguments (the constraints below), and its output type is
// what `call` returns: the catalogue derives NumPy's loop tables from that.
//
// Conventions: float16 never reaches a functor (loops compute it in float32);
// integer overflow wraps as in NumPy, never through C++ signed overflow (UB).
#pragma once
#include "ops/scalar_types.h"
#include "ops/scalar_math.h"

namespace copper::ops {

// ---------------- arithmetic ----------------
struct add {
  COPPER_HD static bool call(bool a, bool b) { return a || b; }
  template <Int T> COPPER_HD static T call(T a, T b) {
    return static_cast<T>(static_cast<make_unsigned_t<T>>(a) + static_cast<make_unsigned_t<T>>(b));
  }
  template <Inexact T> COPPER_HD static T call(T a, T b) { return a + b; }
};

struct multiply {
  COPPER_HD static bool call(bool a, bool b) { return a && b; }
  template <Int T> COPPER_HD static T call(T a, T b) {
    return static_cast<T>(static_cast<make_unsigned_t<T>>(a) * static_cast<make_unsigned_t<T>>(b));
  }
  template <Inexact T> COPPER_HD static T call(T a, T b) { return a * b; }
};

struct sqrt {
  template <Inexact T> COPPER_HD static T call(T x) { return math::sqrt(x); }
};

}  // namespace copper::ops
