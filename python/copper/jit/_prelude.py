"""C++ helpers the translated code calls: Python's integer and float floor division and
modulo, integer powers, min/max with Python's argument order, NumPy's NaN-propagating
minimum/maximum, and (GPU only) atomics on every dtype CUDA has one for. The scalar
helpers compile on both devices (copper's user-kernel prologue makes __device__ empty on
the host)."""

SCALAR = r"""
#ifndef COPPER_JIT_PRELUDE
#define COPPER_JIT_PRELUDE
template <class T> __device__ inline T _jit_floordiv(T a, T b) {
  if (b == T(0)) return T(0);
  T q = a / b;
  if constexpr (T(-1) < T(0)) {
    if (a % b != T(0) && ((a < T(0)) != (b < T(0)))) q = q - T(1);
  }
  return q;
}
template <class T> __device__ inline T _jit_mod(T a, T b) {
  if (b == T(0)) return T(0);
  T r = a % b;
  if constexpr (T(-1) < T(0)) {
    if (r != T(0) && ((r < T(0)) != (b < T(0)))) r = r + b;
  }
  return r;
}
// Python's float modulo and floor division, as templates over the two float types rather
// than a macro: a macro whose body returns makes the user-kernel vector analysis refuse
// vector loads for every kernel with this prelude (copper.vectorize ran at 1.25x the floor).
__device__ inline float _jit_fmod(float a, float b) { return fmodf(a, b); }
__device__ inline double _jit_fmod(double a, double b) { return fmod(a, b); }
__device__ inline float _jit_copysign(float a, float b) { return copysignf(a, b); }
__device__ inline double _jit_copysign(double a, double b) { return copysign(a, b); }
__device__ inline float _jit_floor(float a) { return floorf(a); }
__device__ inline double _jit_floor(double a) { return floor(a); }
template <class T> __device__ inline T _jit_float_mod(T a, T b) {
  if (b == T(0)) return _jit_fmod(a, b);
  T r = _jit_fmod(a, b);
  if (r != T(0)) {
    if ((b < T(0)) != (r < T(0))) r += b;
  } else {
    r = _jit_copysign(T(0), b);
  }
  return r;
}
template <class T> __device__ inline T _jit_float_floordiv(T a, T b) {
  if (b == T(0)) return a / b;
  T m = _jit_fmod(a, b);
  T d = (a - m) / b;
  if (m != T(0) && ((b < T(0)) != (m < T(0)))) d -= T(1);
  if (d == T(0)) return _jit_copysign(T(0), a / b);
  T f = _jit_floor(d);
  if (d - f > T(0.5)) f += T(1);
  return f;
}
__device__ inline float _jit_mod(float a, float b) { return _jit_float_mod(a, b); }
__device__ inline double _jit_mod(double a, double b) { return _jit_float_mod(a, b); }
__device__ inline float _jit_floordiv(float a, float b) { return _jit_float_floordiv(a, b); }
__device__ inline double _jit_floordiv(double a, double b) { return _jit_float_floordiv(a, b); }
template <class T> __device__ inline T _jit_ipow(T a, T b) {
  if constexpr (T(-1) < T(0)) {
    if (b < T(0)) return a == T(1) ? T(1) : a == T(-1) ? ((b & T(1)) ? T(-1) : T(1)) : T(0);
  }
  T r = T(1);
  while (b != T(0)) {
    if (b & T(1)) r = r * a;
    a = a * a;
    b = b >> 1;
  }
  return r;
}
template <class T> __device__ inline T _jit_abs(T a) {
  if constexpr (T(-1) < T(0)) return a < T(0) ? T(-a) : a;
  else return a;
}
template <class T> __device__ inline T _jit_min(T a, T b) { return b < a ? b : a; }
template <class T> __device__ inline T _jit_max(T a, T b) { return b > a ? b : a; }
template <class T> __device__ inline T _jit_minimum(T a, T b) { return (a < b || a != a) ? a : b; }
template <class T> __device__ inline T _jit_maximum(T a, T b) { return (a > b || a != a) ? a : b; }
template <class T> __device__ inline T& _jit_at(T* p, long long byte_offset) {
  return *reinterpret_cast<T*>(reinterpret_cast<char*>(p) + byte_offset);
}
#endif
"""

# Device-only: the lane register, and atomics on the 64-bit signed type CUDA spells unsigned.
DEVICE = r"""
__device__ __forceinline__ unsigned int _jit_laneid() {
  unsigned int r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}
#define COPPER_JIT_ATOMIC_I64(NAME, OP)                                                      \
  __device__ __forceinline__ long long NAME(long long* p, long long v) {                     \
    return (long long)OP((unsigned long long*)p, (unsigned long long)v);                    \
  }
COPPER_JIT_ATOMIC_I64(_jit_atomic_add_i64, atomicAdd)
COPPER_JIT_ATOMIC_I64(_jit_atomic_exch_i64, atomicExch)
COPPER_JIT_ATOMIC_I64(_jit_atomic_and_i64, atomicAnd)
COPPER_JIT_ATOMIC_I64(_jit_atomic_or_i64, atomicOr)
COPPER_JIT_ATOMIC_I64(_jit_atomic_xor_i64, atomicXor)
#undef COPPER_JIT_ATOMIC_I64
__device__ __forceinline__ long long _jit_atomic_cas_i64(long long* p, long long c, long long v) {
  return (long long)atomicCAS((unsigned long long*)p, (unsigned long long)c, (unsigned long long)v);
}
// Float min/max (CUDA has none): a compare-and-swap loop that writes only a better value,
// so a NaN value is ignored.
#define COPPER_JIT_ATOMIC_FLOAT(NAME, T, I, TO_I, TO_T, BETTER)                              \
  __device__ __forceinline__ T NAME(T* p, T v) {                                           \
    I* a = reinterpret_cast<I*>(p);                                                          \
    I old = *a, assumed;                                                                     \
    do {                                                                                     \
      assumed = old;                                                                         \
      if (!(v BETTER TO_T(assumed))) break;                                                  \
      old = atomicCAS(a, assumed, TO_I(v));                                                  \
    } while (assumed != old);                                                                \
    return TO_T(old);                                                                        \
  }
COPPER_JIT_ATOMIC_FLOAT(_jit_atomic_min_f32, float, int, __float_as_int, __int_as_float, <)
COPPER_JIT_ATOMIC_FLOAT(_jit_atomic_max_f32, float, int, __float_as_int, __int_as_float, >)
COPPER_JIT_ATOMIC_FLOAT(_jit_atomic_min_f64, double, unsigned long long, (unsigned long long)__double_as_longlong,
                        __longlong_as_double, <)
COPPER_JIT_ATOMIC_FLOAT(_jit_atomic_max_f64, double, unsigned long long, (unsigned long long)__double_as_longlong,
                        __longlong_as_double, >)
#undef COPPER_JIT_ATOMIC_FLOAT
__device__ __forceinline__ double _jit_atomic_exch_f64(double* p, double v) {
  return __longlong_as_double((long long)atomicExch((unsigned long long*)p, (unsigned long long)__double_as_longlong(v)));
}
"""
